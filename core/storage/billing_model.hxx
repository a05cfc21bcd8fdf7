// Billing's tables (schema "billing"): monthly usage, the credit ledger and the per-minute call
// windows. A schema of their own because on SQLite they live in a file of their own
// (database.sqlite.billing_path): a long ingest holds the data file's write lock, never
// billing's (docs/storage.md). On PostgreSQL both schemas share the one database.
// Model version history: 1 = the tables core 1 to 3 held as core_credit_usage, core_ledger and
// core_rate_window, moved here by `lastro db migrate` (core 4 drops them); 2 = credits leased
// by instances on PostgreSQL (billing_credit_lease, billing_credit_usage.leased). Bump `current` and
// commit the regenerated billing_model-*.xml changelogs when a persistent class changes.
#pragma once

#include <lastro/sdk/odb_optional.hpp>

#include <cstdint>
#include <optional>
#include <string>

#pragma db model version(1, 2)

namespace lastro::storage {

// Credits of one key in one calendar month (UTC): `reserved` is in flight, `charged` settled,
// `leased` held by instances in billing_credit_lease (PostgreSQL; always 0 on SQLite). Every
// commit keeps charged + reserved + leased within the key's allowance.
#pragma db object table("billing_credit_usage")
struct CreditUsage {
#pragma db id
    std::string key_month;  // "<key id>:<YYYY-MM>"
    std::int64_t key_id = 0;
    std::string month;
    std::int64_t reserved = 0;
    std::int64_t charged = 0;
#pragma db default(0)
    std::int64_t leased = 0;
};

// Credits of one key and month held by one instance, which admits calls against them in its own
// memory (docs/billing.md, "Several instances"). `expires_at` is the database's clock (epoch
// seconds) at the last renewal plus the lease's time to live: past it, any instance gives the
// credits back to the month.
#pragma db object table("billing_credit_lease")
struct CreditLease {
#pragma db id
    std::string lease_id;  // "<key id>:<YYYY-MM>:<instance>"
#pragma db index
    std::string key_month;
    std::string instance;
    std::int64_t credits = 0;  // counted in the usage row's `leased`, spent part included
    std::int64_t charged = 0;  // spent: moved to the usage row's `charged` when the lease returns
#pragma db index
    std::int64_t expires_at = 0;
    // The transaction that made the row (txid): a lease reclaimed and taken again under the same
    // id is another lease, and a call admitted under the first is never charged to the second.
    std::int64_t since = 0;
};

// One billed call: reserved before execution, then charged or refunded (contract section 3).
#pragma db object table("billing_ledger")
struct LedgerEntry {
#pragma db id
    std::string request_id;
#pragma db index
    std::int64_t key_id = 0;
    std::string operation;
    std::int64_t price = 0;
    std::string month;
#pragma db index
    std::string state;  // reserved | charged | refunded
    std::optional<std::int64_t> status;
    std::string reserved_at;
    std::optional<std::string> settled_at;
    // The lastrod instance (server.instance) that made the reservation: at start an instance
    // refunds what it left reserved (docs/billing.md). Null on entries made before core 2.
    std::optional<std::string> instance;
};

// Calls of one key in one UTC minute, counted by every instance in the same row so that the
// per-minute limit holds across instances (docs/billing.md).
#pragma db object table("billing_rate_window")
struct RateWindow {
#pragma db id
    std::string key_minute;  // "<key id>:<epoch second of the minute's start>"
    std::int64_t key_id = 0;
#pragma db index
    std::int64_t minute = 0;
    std::int64_t calls = 0;
};

}  // namespace lastro::storage
