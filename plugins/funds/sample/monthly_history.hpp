// Month by month, the life of every FIDC-family class of the universe over the months the FIDC
// monthly reports cover (by default 2023-09 to 2026-08): its quota series (quantity, quota value,
// subscriptions, redemptions, amortizations, holders), the drivers of its balance sheet, which
// months it reports, and the deliberate irregularities and named cases of the reports. The FIDC
// monthly report and the CDA are both rendered from it, so they agree. A History points into the
// Universe it was built from, which must outlive it.
#pragma once

#include "sample/class_profile.hpp"
#include "sample/universe.hpp"

#include <lastro/sdk/calendar.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lastro::funds::sample {

// The FIDC monthly reports end with this month; the history covers the months before it.
inline constexpr sdk::Month kLastReportMonth{2026, 8};
// How many months the history covers by default at scale sample (2023-09 .. 2026-08), and at
// most (2006-09 .. 2026-08: the length of the Selic path below).
inline constexpr int kDefaultReportMonths = 36;
inline constexpr int kMaxReportMonths = 240;
// Before this month every table keys on CNPJ_FUNDO (the layout before RCVM 175 reporting).
inline constexpr sdk::Month kFirstClassLayoutMonth{2024, 12};
// tab_VIII (largest debtors) appears in the files from this month on.
inline constexpr sdk::Month kFirstDebtorsMonth{2026, 7};

sdk::Date MonthEnd(const sdk::Month& month);
std::string Compact(const sdk::Month& month);  // "202608"
// Months from `from` to `to` (negative when `to` is earlier).
int MonthsBetween(const sdk::Month& from, const sdk::Month& to);
// The month's place in the longest history (0 for 2006-09). Random streams drawn per month are
// indexed by it, so a class-month draws the same numbers whatever the history's length.
int AbsoluteMonth(const sdk::Month& month);
// A plausible Selic path (the Copom's targets until 2025, invented after), annual, hundredths of
// a percent, for the months of the longest history; std::out_of_range outside them.
std::int64_t AnnualSelic(const sdk::Month& month);
// The matching monthly CDI, in units of 1e-8 (1'000'000 = 1 % a month).
std::int64_t MonthlyCdi(const sdk::Month& month);

// One quota series of a class (TAB_X_CLASSE_SERIE), a registry subclass or an undeclared one.
struct Series {
    std::string label;                       // stable across months
    Seniority seniority = Seniority::kNone;  // kNone: the class's single, undivided series
    const Subclass* subclass = nullptr;      // the registry subclass this series is
    int first_month = -1;                    // first month index with quotas; -1: before the history
};

struct SeriesMonth {
    bool exists = false;
    std::int64_t quantity = 0;        // quotas, 1e-8
    std::int64_t value = 0;           // quota value, R$ 1e-8
    std::int64_t previous_value = 0;  // last month's quota value; 0 for a series issued this month
    std::int64_t subscribed = 0;      // quotas issued this month (Captações no Mês)
    std::int64_t redeemed = 0;        // quotas redeemed (Resgates no Mês)
    std::int64_t amortization = 0;    // per quota, R$ 1e-8: lowers the value, not the quantity
    std::int64_t requested = 0;       // quotas whose redemption is requested and pending
    std::int64_t holders = 0;
    std::int64_t expected_return = 0;  // target monthly return, hundredths of a percent; 0: none
};

// Irregularities the reports carry on purpose (docs/sample.md lists them).
struct MonthQuirks {
    bool also_as_fund = false;      // every table repeats the rows as TP_FUNDO_CLASSE = Fundo
    bool fund_rows_first = false;   // ... the Fundo rows before the Classe rows
    bool conflicting_rows = false;  // tab_IV and X_2 first carry a Classe row the later one overrides
    bool repeated_line = false;     // a tab_II line written twice, byte for byte
    bool provision_blank = false;   // TAB_I2A11_VL_REDUCAO_RECUP empty
    bool average_blank = false;     // TAB_IV_B_VL_PL_MEDIO empty
    int holders_blank_series = -1;  // TAB_X_NR_COTST empty for this series
    int return_blank_series = -1;   // TAB_X_VL_RENTAB_MES empty for this series
    // This series' Amortizações row is filed under a label X_2 does not have, columns reversed.
    int amortization_unmatched_series = -1;
    // The receivable components of tab_I and the bands of tab_V/tab_VI that are 0 left empty
    // instead of 0.00 (the real 2023-12 rows leave TAB_I2A10/I2B10 empty so).
    bool zeros_blank = false;
    // TAB_IV_A_VL_PL typed 1,000 times too large (the other tables keep the true figures).
    bool net_assets_typo = false;
    // This series' Captações no Mês row carries a TAB_X_VL_TOTAL 1,000 times too large.
    int absurd_subscription_series = -1;
};

// The label of an X_4 row filed under a variant of its series' label (as CVM's files show:
// "Subclasse Subordinada Tipo Subclasse | Subordinada 1" for "... Sub | Subordinada 1").
std::string UnmatchedLabel(const std::string& label);

struct ClassMonth {
    bool operating = false;  // has quotas (whether it reports or not)
    bool reports = false;
    std::int64_t delinquency_ppm = 0;  // delinquent share of the receivables
    std::int64_t portfolio_ppm = 0;    // portfolio share of the assets
    std::vector<SeriesMonth> series;   // parallel to ClassHistory::series
    MonthQuirks quirks;
};

struct ClassHistory {
    const Fund* fund = nullptr;
    const FundClass* fund_class = nullptr;
    ClassProfile profile;
    std::vector<Series> series;
    std::vector<ClassMonth> months;  // one per month of the history
    int stopped_after = -1;          // last month index it reports (irregularity); -1: none
    bool fund_report = false;        // a fund-level report of History::fund_reports

    // Net assets (cents) of a month: the sum of quantity times quota value over the series.
    std::int64_t NetAssets(int month) const;
};

struct History {
    std::uint64_t seed = 0;
    sdk::Month first_month = kLastReportMonth;  // month index 0
    int month_count = 0;                        // the last month is kLastReportMonth
    std::vector<ClassHistory> classes;          // every FIDC-family class, in universe order
    // Fund-level reports filed beside the reports of the fund's classes (TP_FUNDO_CLASSE =
    // Fundo under the CNPJ of a multi-class fund): each is the consolidation of its classes,
    // reporting only in the months it is filed. Its fund_class is the fund's, owned here.
    std::vector<ClassHistory> fund_reports;
    std::vector<std::shared_ptr<const FundClass>> fund_report_classes;
    // One line per deliberate irregularity or named case, "CNPJ month: what", for the docs and
    // the report.
    std::vector<std::string> irregularities;

    int IndexOf(const sdk::Month& month) const { return MonthsBetween(first_month, month); }
    sdk::Month MonthAt(int index) const;
    bool Covers(const sdk::Month& month) const { return first_month <= month && month <= kLastReportMonth; }
};

// Simulates every FIDC-family class over the `months` months ending with kLastReportMonth (1 to
// kMaxReportMonths; std::invalid_argument otherwise) and plans the irregularities and named
// cases that fall in them (when the universe has enough steady classes, as the sample's and the
// full-size one do). Months before the first do not exist: a class operating before then starts
// with its quotas already issued. The same universe and months give the same history.
History BuildHistory(const Universe& universe, int months = kDefaultReportMonths);

}  // namespace lastro::funds::sample
