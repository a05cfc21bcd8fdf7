// The PostgreSQL statements of leased admission (lease_book.hpp, docs/billing.md "Several
// instances"). A lease row (billing_credit_lease) holds `credits` of one key's month for one
// instance, all counted in billing_credit_usage.leased, so that charged + reserved + leased never
// exceeds the allowance at any commit; what the instance spends moves to the lease's `charged`
// (its own row: instances do not wait for each other's commits) and reaches the usage row's
// `charged` when the lease returns. Returns, renewals and reclaims run outside any batch, each
// write in one round trip.
#pragma once

#include "core/billing/credit_ledger.hpp"
#include "core/storage/pgsql_statements.hpp"

#include <chrono>
#include <cstdint>
#include <ctime>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lastro::billing {

struct CreditLeaseWant {
    std::int64_t key_id = 0;
    std::string month;
    std::int64_t want = 0;  // the block asked for
    std::int64_t need = 0;  // what the waiting calls need
    std::int64_t allowance = 0;
};
struct TokenLeaseWant {
    std::int64_t key_id = 0;
    std::time_t minute = 0;
    std::int64_t want = 0;
    std::int64_t need = 0;
    std::int64_t calls_per_minute = 0;
};
struct CreditLeaseGrant {
    std::int64_t key_id = 0;
    std::string month;
    std::int64_t granted = 0;
    std::int64_t used = 0;  // the usage row's charged + reserved + leased after the grant
    bool short_of_need = false;
    std::int64_t since = 0;  // the lease row's (billing_credit_lease.since), once committed
};
struct TokenLeaseGrant {
    std::int64_t key_id = 0;
    std::time_t minute = 0;
    std::int64_t granted = 0;
    std::int64_t calls = 0;  // the window's count after the grant
    bool short_of_need = false;
};
struct LeaseGrants {
    std::vector<CreditLeaseGrant> credits;
    std::vector<TokenLeaseGrant> tokens;
    // The statements appended to `writes`; when `credit_rows`, the first one's rows are the
    // lease rows granted (key_month, since), for Granted().
    std::size_t statements = 0;
    bool credit_rows = false;
    // Sets each credit grant's `since` from those rows.
    void Granted(const storage::PgRows& rows);
};

// Inside the caller's PostgreSQL transaction: makes and locks the usage and window rows in id
// order (one round trip), decides each grant (never beyond the allowance or the minute's
// limit), and appends to `writes` the statements that record them (sent with the batch's, its
// first statements). The database's clock dates the lease: expires_at = now() + ttl. A lease row
// made anew gets the transaction's id as `since`; one extended keeps its own.
LeaseGrants LeaseOnPostgres(const std::string& instance, std::chrono::seconds ttl,
                            const std::vector<CreditLeaseWant>& credits,
                            const std::vector<TokenLeaseWant>& tokens, std::string& writes);

// One statement each, run alone (their own transaction):
// the leases of `instance` for these usage ids ("<key>:<YYYY-MM>"), or all of them when
// `usage_ids` is empty, returned: deleted, their credits given back to the month and their
// spending moved to its `charged`;
std::string ReturnLeasesSql(const std::string& instance, const std::vector<std::string>& usage_ids);
// any instance's leases past their expiry by the database's clock, returned the same way;
std::string ReclaimExpiredLeasesSql();
// the expiry of these leases of `instance` pushed to now() + ttl; returns the usage ids found;
std::string RenewLeasesSql(const std::string& instance, const std::vector<std::string>& usage_ids,
                           std::chrono::seconds ttl);
// what this instance's leases spent, moved to their months' `charged` (before a charge is
// taken back: it must be where the ledger batch looks for it);
std::string FoldLeasesSql(const std::string& instance);
// a refunded entry for each of these calls answered 503 whose entry is not in the ledger (their
// reservation was never written, and their batch did not commit); an entry there stays as is;
std::string RecordRefundsSql(const std::string& instance, const std::vector<SettlementRequest>& refunds);
// unused tokens given back to their minute's window ("<key>:<minute>", count).
std::string ReturnTokensSql(const std::vector<std::pair<std::string, std::int64_t>>& tokens);

// A batch's writes where admission is leased: settled entries of calls whose reservation was
// never written, and reservations written for calls that outlived the write delay (one INSERT
// for the batch, an entry already there left as it is; one whose lease row is gone is written
// refunded); what those inserted took from the instance's lease rows (one UPDATE); both in ONE
// statement prepared once per connection, its columns passed as arrays, so that PostgreSQL
// neither parses nor plans anything per batch. Settlements of written reservations (rare: calls
// that ran past the write delay) are one more statement, under the entries' row locks.
class LeaseWrites {
public:
    static constexpr const char* kStatementName = "lastro_lease_batch";
    static const std::string& Statement();

    explicit LeaseWrites(std::string instance) : instance_(std::move(instance)) {}
    // A call settled before its reservation was written; returns the credits charged.
    // `lease`: the lease row it was admitted under, if the instance holds it yet
    // (LeaseBook::LeaseOf); otherwise it is written refunded, whatever its status, and so it is
    // when that row is gone by the time the statement runs (docs/billing.md, "Cut off while
    // calls run").
    std::int64_t Record(const SettlementRequest& settlement, std::optional<std::int64_t> lease);
    void Reserve(const Reservation& reservation, std::optional<std::int64_t> lease);
    void Settle(const SettlementRequest& settlement);  // its reservation is written
    bool Empty() const { return columns_[0].empty(); }
    bool HasSettled() const { return !settled_.empty(); }
    // The parameters of Statement().
    std::vector<std::optional<std::string>> Parameters() const;
    // The settlements of written reservations, one statement; its rows are the request ids of
    // those it settled (those still open).
    std::string SettledSql() const;

private:
    void Entry(const Reservation& r, const char* state, std::optional<std::string> status,
               std::optional<std::string> settled_at, std::int64_t lease);
    std::string instance_;
    // billing_ledger's, in Statement()'s order, then the lease row's `since`
    std::vector<std::optional<std::string>> columns_[11];
    std::string settled_;  // VALUES rows (request_id, state, status, settled_at)
};

}  // namespace lastro::billing
