#include "core/billing/credit_lease.hpp"

#include "core/billing/settlement.hpp"
#include "core/storage/database.hpp"
#include "core/storage/pgsql_statements.hpp"

#include <algorithm>
#include <map>

namespace lastro::billing {
namespace {

using storage::SqlText;

std::string UsageIdOf(std::int64_t key_id, const std::string& month) {
    return std::to_string(key_id) + ":" + month;
}

std::string WindowIdOf(std::int64_t key_id, std::time_t minute) {
    return std::to_string(key_id) + ":" + std::to_string(minute);
}

std::string LeaseIdOf(const std::string& usage_id, const std::string& instance) {
    return usage_id + ":" + instance;
}

std::string Row(std::initializer_list<std::string> values) {
    std::string row = "(";
    for (const std::string& v : values) {
        row += (row.size() == 1 ? "" : ", ") + v;
    }
    return row + ")";
}

void Append(std::string& rows, const std::string& row) {
    rows += (rows.empty() ? "" : ", ") + row;
}

std::string List(const std::vector<std::string>& texts) {
    std::string list;
    for (const std::string& t : texts) {
        list += (list.empty() ? "" : ", ") + SqlText(t);
    }
    return list;
}

std::string ExpiresAt(std::chrono::seconds ttl) {
    return "CAST(extract(epoch FROM now()) AS BIGINT) + " + std::to_string(ttl.count());
}

// Deletes the leases `where` selects and gives them back to their months in the same statement.
std::string ReturnWhere(const std::string& where) {
    return "WITH d AS (DELETE FROM billing_credit_lease WHERE " + where +
           " RETURNING key_month, credits, charged),"
           " s AS (SELECT key_month, sum(credits) AS credits, sum(charged) AS charged FROM d GROUP BY "
           "key_month)"
           " UPDATE billing_credit_usage AS u SET leased = u.leased - s.credits, charged = u.charged + "
           "s.charged"
           " FROM s WHERE u.key_month = s.key_month;";
}

}  // namespace

LeaseGrants LeaseOnPostgres(const std::string& instance, std::chrono::seconds ttl,
                            const std::vector<CreditLeaseWant>& credits,
                            const std::vector<TokenLeaseWant>& tokens, std::string& writes) {
    // One order for every instance (the ids sort the same everywhere): no deadlock between them.
    std::map<std::string, const CreditLeaseWant*> usages;
    for (const CreditLeaseWant& w : credits) {
        usages[UsageIdOf(w.key_id, w.month)] = &w;
    }
    std::map<std::string, const TokenLeaseWant*> windows;
    for (const TokenLeaseWant& w : tokens) {
        windows[WindowIdOf(w.key_id, w.minute)] = &w;
    }
    std::string sql, rows;
    for (const auto& [id, w] : usages) {
        Append(rows, Row({SqlText(id), std::to_string(w->key_id), SqlText(w->month), "0", "0", "0"}));
    }
    if (!rows.empty()) {
        sql +=
            "INSERT INTO billing_credit_usage (key_month, key_id, month, reserved, charged, leased) VALUES " +
            rows +
            " ON CONFLICT (key_month) DO UPDATE SET key_month = EXCLUDED.key_month"
            " RETURNING key_month, reserved, charged, leased;";
    }
    rows.clear();
    for (const auto& [id, w] : windows) {
        Append(rows, Row({SqlText(id), std::to_string(w->key_id), std::to_string(w->minute), "0"}));
    }
    if (!rows.empty()) {
        sql += "INSERT INTO billing_rate_window (key_minute, key_id, minute, calls) VALUES " + rows +
               " ON CONFLICT (key_minute) DO UPDATE SET key_minute = EXCLUDED.key_minute"
               " RETURNING key_minute, calls;";
    }
    LeaseGrants grants;
    if (sql.empty()) {
        return grants;
    }
    const std::vector<storage::PgRows> results = storage::RunPgStatements(sql);
    const auto number = [](const std::optional<std::string>& text) { return std::stoll(text.value_or("0")); };
    std::size_t next = 0;
    std::string usage_rows, lease_rows, window_rows;
    if (!usages.empty()) {
        for (const auto& row : results.at(next++)) {
            const CreditLeaseWant& w = *usages.at(*row.at(0));
            const std::int64_t used = number(row.at(1)) + number(row.at(2)) + number(row.at(3));
            const std::int64_t granted = std::clamp<std::int64_t>(w.allowance - used, 0, w.want);
            grants.credits.push_back({w.key_id, w.month, granted, used + granted, granted < w.need});
            if (granted > 0) {
                Append(usage_rows, Row({SqlText(*row.at(0)), std::to_string(granted)}));
                Append(lease_rows,
                       Row({SqlText(LeaseIdOf(*row.at(0), instance)), SqlText(*row.at(0)), SqlText(instance),
                            std::to_string(granted), "0", ExpiresAt(ttl), "CAST(txid_current() AS BIGINT)"}));
            }
        }
    }
    if (!windows.empty()) {
        for (const auto& row : results.at(next++)) {
            const TokenLeaseWant& w = *windows.at(*row.at(0));
            const std::int64_t calls = number(row.at(1));
            const std::int64_t granted = std::clamp<std::int64_t>(w.calls_per_minute - calls, 0, w.want);
            grants.tokens.push_back({w.key_id, w.minute, granted, calls + granted, granted < w.need});
            if (granted > 0) {
                Append(window_rows, Row({SqlText(*row.at(0)), std::to_string(granted)}));
            }
        }
    }
    if (!usage_rows.empty()) {
        writes +=
            "WITH u AS (UPDATE billing_credit_usage AS u SET leased = u.leased + v.g FROM (VALUES " +
            usage_rows +
            ") AS v (key_month, g) WHERE u.key_month = v.key_month)"
            " INSERT INTO billing_credit_lease (lease_id, key_month, instance, credits, charged, expires_at, "
            "since)"
            " VALUES " +
            lease_rows +
            " ON CONFLICT (lease_id) DO UPDATE SET credits = billing_credit_lease.credits + EXCLUDED.credits,"
            " expires_at = EXCLUDED.expires_at RETURNING key_month, since;";
        grants.credit_rows = true;
        ++grants.statements;
    }
    if (!window_rows.empty()) {
        writes += "UPDATE billing_rate_window AS w SET calls = w.calls + v.g FROM (VALUES " + window_rows +
                  ") AS v (key_minute, g) WHERE w.key_minute = v.key_minute;";
        ++grants.statements;
    }
    return grants;
}

void LeaseGrants::Granted(const storage::PgRows& rows) {
    for (const auto& row : rows) {
        for (CreditLeaseGrant& g : credits) {
            if (UsageIdOf(g.key_id, g.month) == row.at(0).value_or("")) {
                g.since = std::stoll(row.at(1).value_or("0"));
            }
        }
    }
}

std::string ReturnLeasesSql(const std::string& instance, const std::vector<std::string>& usage_ids) {
    std::string where = "instance = " + SqlText(instance);
    if (!usage_ids.empty()) {
        where += " AND key_month IN (" + List(usage_ids) + ")";
    }
    return ReturnWhere(where);
}

std::string ReclaimExpiredLeasesSql() {
    return ReturnWhere("expires_at < CAST(extract(epoch FROM now()) AS BIGINT)");
}

std::string RenewLeasesSql(const std::string& instance, const std::vector<std::string>& usage_ids,
                           std::chrono::seconds ttl) {
    return "UPDATE billing_credit_lease SET expires_at = " + ExpiresAt(ttl) +
           " WHERE instance = " + SqlText(instance) + " AND key_month IN (" + List(usage_ids) +
           ") RETURNING key_month;";
}

std::string ReturnTokensSql(const std::vector<std::pair<std::string, std::int64_t>>& tokens) {
    std::string rows;
    for (const auto& [id, count] : tokens) {
        Append(rows, Row({SqlText(id), std::to_string(count)}));
    }
    return "UPDATE billing_rate_window AS w SET calls = GREATEST(0, w.calls - v.n) FROM (VALUES " + rows +
           ") AS v (key_minute, n) WHERE w.key_minute = v.key_minute;";
}

std::string FoldLeasesSql(const std::string& instance) {
    return "WITH o AS (SELECT lease_id, charged FROM billing_credit_lease WHERE instance = " +
           SqlText(instance) +
           " AND charged <> 0 FOR UPDATE),"
           " f AS (UPDATE billing_credit_lease AS c SET credits = c.credits - o.charged, charged = 0 FROM o"
           " WHERE c.lease_id = o.lease_id RETURNING c.key_month, o.charged),"
           " s AS (SELECT key_month, sum(charged) AS charged FROM f GROUP BY key_month)"
           " UPDATE billing_credit_usage AS u SET charged = u.charged + s.charged, leased = u.leased - "
           "s.charged"
           " FROM s WHERE u.key_month = s.key_month;";
}

std::string RecordRefundsSql(const std::string& instance, const std::vector<SettlementRequest>& refunds) {
    std::string rows;
    for (const SettlementRequest& s : refunds) {
        const Reservation& r = s.reservation;
        Append(rows, Row({SqlText(r.request_id), std::to_string(r.key_id), SqlText(r.operation),
                          std::to_string(r.price), SqlText(r.month), SqlText("refunded"),
                          std::to_string(s.status), SqlText(storage::Rfc3339(r.reserved_at)),
                          SqlText(storage::Rfc3339(s.now)), SqlText(instance)}));
    }
    if (rows.empty()) {
        return "";
    }
    // ON CONFLICT waits for a commit of the same entry still in flight (a frozen server's), then
    // leaves the entry it made for the ledger batch to take back.
    return "INSERT INTO billing_ledger (request_id, key_id, operation, price, month, state, status, "
           "reserved_at,"
           " settled_at, instance) VALUES " +
           rows + " ON CONFLICT (request_id) DO NOTHING;";
}

const std::string& LeaseWrites::Statement() {
    // What the entries take from the instance's lease rows is summed from the entries actually
    // inserted: a batch retried after a commit whose answer was lost changes nothing twice.
    // Spending stays on the instance's own lease rows, locked here first (a reclaim waits for
    // this commit, or this statement for the reclaim's). An entry is charged, or its reservation
    // written, only to the very lease row it was admitted under (same `since`): one whose row is
    // gone, reclaimed past its expiry while the call ran and perhaps taken again since, is
    // written refunded and adds nothing anywhere, so the allowance is never exceeded. Its rows
    // are the request ids written refunded that way.
    static const std::string statement =
        "WITH p AS (SELECT *, CAST(key_id AS TEXT) || ':' || month AS key_month FROM unnest($1::text[],"
        " $2::bigint[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::bigint[], $8::text[],"
        " $9::text[], $10::text[], $12::bigint[]) AS p (request_id, key_id, operation, price, month, state,"
        " status, reserved_at, settled_at, instance, since)),"
        " k AS (SELECT c.key_month, c.since FROM billing_credit_lease AS c WHERE c.lease_id IN (SELECT"
        " key_month || ':' || $11::text FROM p) FOR UPDATE),"
        " q AS (SELECT p.*, CASE WHEN p.state = 'refunded' OR EXISTS (SELECT 1 FROM k WHERE k.key_month ="
        " p.key_month AND k.since = p.since) THEN p.state ELSE 'refunded' END AS written FROM p),"
        " e AS (INSERT INTO billing_ledger (request_id, key_id, operation, price, month, state, status,"
        " reserved_at, settled_at, instance) SELECT request_id, key_id, operation, price, month, written,"
        " status, reserved_at, COALESCE(settled_at, CASE WHEN written = 'refunded' THEN reserved_at END),"
        " instance FROM q ON CONFLICT (request_id) DO NOTHING RETURNING request_id, price, state),"
        " v AS (SELECT q.key_month, sum(CASE WHEN e.state = 'charged' THEN e.price ELSE 0 END) AS charged,"
        " sum(CASE WHEN e.state = 'reserved' THEN e.price ELSE 0 END) AS taken FROM e JOIN q ON"
        " q.request_id = e.request_id WHERE e.state <> 'refunded' GROUP BY q.key_month),"
        " l AS (UPDATE billing_credit_lease AS c SET charged = c.charged + v.charged, credits = c.credits -"
        " v.taken FROM v WHERE c.lease_id = v.key_month || ':' || $11::text),"
        " u AS (UPDATE billing_credit_usage AS u SET reserved = u.reserved + v.taken, leased = u.leased -"
        " v.taken FROM v WHERE u.key_month = v.key_month AND v.taken > 0)"
        " SELECT e.request_id FROM e JOIN q ON q.request_id = e.request_id WHERE q.state <> e.state";
    return statement;
}

void LeaseWrites::Entry(const Reservation& r, const char* state, std::optional<std::string> status,
                        std::optional<std::string> settled_at, std::int64_t lease) {
    const std::optional<std::string> values[11] = {r.request_id,
                                                   std::to_string(r.key_id),
                                                   r.operation,
                                                   std::to_string(r.price),
                                                   r.month,
                                                   std::string(state),
                                                   std::move(status),
                                                   storage::Rfc3339(r.reserved_at),
                                                   std::move(settled_at),
                                                   instance_,
                                                   std::to_string(lease)};
    for (int i = 0; i < 11; ++i) {
        columns_[i].push_back(values[i]);
    }
}

std::int64_t LeaseWrites::Record(const SettlementRequest& settlement, std::optional<std::int64_t> lease) {
    const Reservation& r = settlement.reservation;
    const bool charge = lease && SettlementFor(settlement.status) == Settlement::kCharge;
    Entry(r, charge ? "charged" : "refunded", std::to_string(settlement.status),
          storage::Rfc3339(settlement.now), lease.value_or(0));
    return charge ? r.price : 0;  // a refund's credits stay in the lease
}

void LeaseWrites::Reserve(const Reservation& r, std::optional<std::int64_t> lease) {
    if (lease) {
        Entry(r, "reserved", std::nullopt, std::nullopt, *lease);
    } else {
        Entry(r, "refunded", std::nullopt, storage::Rfc3339(r.reserved_at), 0);
    }
}

void LeaseWrites::Settle(const SettlementRequest& settlement) {
    const bool charge = SettlementFor(settlement.status) == Settlement::kCharge;
    Append(settled_,
           Row({SqlText(settlement.reservation.request_id), SqlText(charge ? "charged" : "refunded"),
                std::to_string(settlement.status), SqlText(storage::Rfc3339(settlement.now))}));
}

std::vector<std::optional<std::string>> LeaseWrites::Parameters() const {
    std::vector<std::optional<std::string>> params;
    for (int i = 0; i < 10; ++i) {
        params.push_back(storage::PgArray(columns_[i]));
    }
    params.push_back(instance_);                       // $11
    params.push_back(storage::PgArray(columns_[10]));  // $12: the lease rows' `since`
    return params;
}

std::string LeaseWrites::SettledSql() const {
    if (settled_.empty()) {
        return "";
    }
    // Only an open reservation is settled: one the recovery rule refunded stays refunded.
    return "WITH v (request_id, state, status, settled_at) AS (VALUES " + settled_ +
           "), s AS (UPDATE billing_ledger AS e SET state = v.state, status = v.status, settled_at = "
           "v.settled_at"
           " FROM v WHERE e.request_id = v.request_id AND e.state = 'reserved'"
           " RETURNING e.request_id, e.key_id, e.month, e.price, e.state),"
           " t AS (SELECT CAST(s.key_id AS TEXT) || ':' || s.month AS key_month, sum(s.price) AS price,"
           " sum(CASE WHEN s.state = 'charged' THEN s.price ELSE 0 END) AS charged FROM s GROUP BY 1),"
           " u AS (UPDATE billing_credit_usage AS u SET reserved = u.reserved - t.price,"
           " charged = u.charged + t.charged FROM t WHERE u.key_month = t.key_month)"
           " SELECT request_id FROM s;";
}

}  // namespace lastro::billing
