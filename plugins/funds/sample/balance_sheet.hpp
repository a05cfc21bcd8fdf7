// The balance sheet of one FIDC-family class in one month, in cents, derived from its history:
// assets (tab_I), liabilities (tab_III), receivables by segment (tab_II) and by maturity and
// delinquency (tab_V, tab_VI). Every total is the exact sum of its parts (docs/sample.md
// lists the identities); the CDA reuses the securities so both datasets agree.
#pragma once

#include "sample/monthly_history.hpp"

#include <array>
#include <cstdint>

namespace lastro::funds::sample {

// Receivables bought with (I.2.a, tab_V) or without (I.2.b, tab_VI) substantial risk transfer.
struct ReceivablesBook {
    std::array<std::int64_t, 10> categories{};  // I.2.x.1 .. I.2.x.10, gross
    std::int64_t overdue_parcels = 0;           // I.2.x.2.1, a part of categories[1]
    std::int64_t provision = 0;                 // I.2.x.11 (PDD), positive
    std::array<std::int64_t, 10> to_mature{};   // tab_V/VI a.1 .. a.10
    std::array<std::int64_t, 10> overdue{};     // b.1 (1-30 days) .. b.10 (over 1080 days)
    std::array<std::int64_t, 10> prepaid{};     // c.1 .. c.10, paid early this month

    std::int64_t Gross() const;
    std::int64_t Net() const { return Gross() - provision; }
    std::int64_t Delinquent() const { return overdue_parcels + categories[2]; }
};

struct BalanceSheet {
    std::int64_t net_assets = 0;  // tab_IV PL
    std::int64_t cash = 0;        // I.1
    ReceivablesBook with_risk;
    ReceivablesBook without_risk;
    std::array<std::int64_t, kSecurityCount> securities{};
    std::array<std::int64_t, 6> derivatives{};             // I.3.a .. I.3.f
    std::int64_t other_short = 0;                          // I.4.a
    std::int64_t other_long = 0;                           // I.4.b
    std::int64_t payables_short = 0;                       // III.a.1
    std::int64_t payables_long = 0;                        // III.a.2
    std::array<std::int64_t, 4> derivative_liabilities{};  // III.b.1 .. III.b.4
    std::array<std::int64_t, 27>
        segments{};  // tab_II leaves: a, b, c1-c3, d1-d4, e, f1-f8, g, h1-h2, i1-i4, j, k

    std::int64_t Securities(Security first, Security last) const;  // both included
    std::int64_t Portfolio() const;                                // I.2
    std::int64_t Derivatives() const;                              // I.3
    std::int64_t Assets() const;                                   // tab_I total
    std::int64_t Liabilities() const;                              // tab_III total
    std::int64_t Receivables() const { return with_risk.Gross() + without_risk.Gross(); }
};

// `net_assets` is the month's PL (a variant's, for the rows filed twice); a negative PL gives
// liabilities above the assets. The same class, month and net assets always give the same sheet.
BalanceSheet ComputeBalanceSheet(const History& history, const ClassHistory& c, int month,
                                 std::int64_t net_assets);

}  // namespace lastro::funds::sample
