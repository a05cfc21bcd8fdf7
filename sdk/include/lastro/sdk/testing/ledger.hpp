// The billing records as the operator sees them, read through the CLI: `lastro ledger` (one
// line per billed call) and `lastro keys usage` (a key's month: the usage row and the ledger's
// own sums). docs/cli.md, docs/billing.md.
#pragma once

#include <lastro/sdk/testing/deployment.hpp>

#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

namespace lastro::sdk::testing {

struct LedgerEntry {
    std::string request_id;
    std::int64_t key_id = 0;
    std::string operation;
    std::int64_t price = 0;
    std::string state;          // reserved, charged or refunded
    std::optional<int> status;  // nullopt while unsettled ("-")
    std::string reserved_at;
    std::string settled_at;  // "-" while unsettled
    std::string instance;
};

struct KeyUsage {
    std::int64_t charged = 0;
    std::int64_t reserved = 0;
    std::int64_t ledger_charged = 0;
    std::int64_t ledger_reserved = 0;
    std::int64_t ledger_entries = 0;
    std::int64_t leased = 0;  // held unspent by instances' leases (PostgreSQL)
};

// "YYYY-MM" of `when` in UTC (the ledger's months).
std::string UtcMonth(std::time_t when);

// `lastro ledger --month M [--key K]`, parsed; throws with the CLI's output when it fails or
// prints anything but the documented columns.
std::vector<LedgerEntry> ReadLedger(const Deployment& d, const std::string& month,
                                    std::optional<std::int64_t> key_id = std::nullopt);
// `lastro keys usage ID --month M`, parsed; throws likewise.
KeyUsage ReadKeyUsage(const Deployment& d, std::int64_t key_id, const std::string& month);

}  // namespace lastro::sdk::testing
