// The process decides admission against leases (PostgreSQL, several instances share the usage
// rows): a LeaseBook spends the credits and per-minute tokens this instance leased, a call it
// cannot cover waits for a batch that leases more, and the reservations are written behind their
// calls (DeferredReservations). Idle leases return, active ones are renewed, and expired ones of
// any instance are reclaimed (docs/billing.md, "Several instances").
#include "core/billing/admission_policy.hpp"
#include "core/billing/credit_lease.hpp"
#include "core/billing/deferred_reservations.hpp"
#include "core/billing/wall_clock.hpp"

#include "core/storage/database.hpp"

#include <odb/transaction.hxx>

#include <map>
#include <unordered_map>
#include <unordered_set>

namespace lastro::billing {
namespace {

class LeasedAdmission final : public AdmissionPolicy {
public:
    LeasedAdmission(const LedgerWriterOptions& options, BatchConnection& connection,
                    std::function<void(const Reservation&)> write_later)
        : options_(options),
          connection_(connection),
          write_later_(std::move(write_later)),
          book_(*options.leases),
          deferred_(options.reservation_write_delay) {
        // Starting, this instance spends none of what it leased in its last run: back to the
        // months (a crash may have left them; like its own open reservations).
        connection_.WriteAlone(ReturnLeasesSql(options_.instance, {}) + ReclaimExpiredLeasesSql());
        connection_.Drop();
    }

    std::optional<Admission> Admit(const AdmissionRequest& request) override {
        std::optional<Admission> decided = book_.Admit(request, true, std::chrono::steady_clock::now());
        // nullopt: the lease or the tokens cannot cover it, and the writer's next batch leases more.
        if (decided && decided->reservation) {
            write_later_(*decided->reservation);
        }
        return decided;
    }

    BatchOutcome Commit(std::vector<QueuedCall>& batch, std::vector<SettlementRequest>& owed_refunds,
                        bool available) override;
    bool AfterBatch() override;

    bool Lost(const SettlementRequest& settlement) override {
        // A settled entry of the failed batch may have committed all the same: a refund is owed.
        deferred_.Forget(settlement.reservation.request_id);
        book_.Lost(settlement.reservation);
        return true;
    }
    bool MaintenancePaysRefunds() const override { return false; }  // Commit pays them

    void Stopped() override {
        // Nothing runs any more: what this instance leased goes back now rather than at expiry.
        try {
            std::string sql = ReturnLeasesSql(options_.instance, {});
            if (auto tokens = book_.TokensHeld(WallNow()); !tokens.empty()) {
                sql += ReturnTokensSql(tokens);
            }
            connection_.WriteAlone(sql);
        } catch (const std::exception&) {
            // They expire (billing.lease_seconds) and any instance reclaims them.
        }
    }

private:
    const LedgerWriterOptions& options_;
    BatchConnection& connection_;
    std::function<void(const Reservation&)> write_later_;
    LeaseBook book_;
    DeferredReservations deferred_;  // writer thread only
    std::uint64_t prepared_on_ = 0;  // the connection generation LeaseWrites' statement is prepared on
    std::chrono::steady_clock::time_point last_reclaim_{}, last_upkeep_{};
};

// Where admission is leased: the calls were decided by the LeaseBook, except those waiting here
// for a lease. A batch without leases to take and refunds owed is one round trip (its own
// transaction); otherwise the leases are locked, decided and written in the batch's transaction,
// and the waiting calls decided after its commit.
BatchOutcome LeasedAdmission::Commit(std::vector<QueuedCall>& batch,
                                     std::vector<SettlementRequest>& owed_refunds, bool) {
    BatchOutcome outcome;
    const auto sent = std::chrono::steady_clock::now();
    for (const QueuedCall& p : batch) {
        if (const auto* reservation = std::get_if<Reservation>(&p.request)) {
            deferred_.Decided(*reservation, sent);
        } else if (const auto* settlement = std::get_if<SettlementRequest>(&p.request)) {
            deferred_.SettledUnwritten(settlement->reservation.request_id);
        }
    }
    const std::vector<Reservation> overdue = deferred_.Overdue(sent);
    if (batch.empty() && overdue.empty() && owed_refunds.empty()) {
        deferred_.Wrote(overdue);
        return outcome;
    }
    std::map<std::string, CreditLeaseWant> credit_wants;
    std::map<std::string, TokenLeaseWant> token_wants;
    for (const QueuedCall& p : batch) {
        const auto* a = std::get_if<AdmissionRequest>(&p.request);
        if (!a) {
            continue;
        }
        const LeaseBook::Lack lack = book_.LackOf(*a, sent);
        if (lack.tokens) {
            const std::time_t minute = a->now - a->now % 60;
            TokenLeaseWant& w = token_wants[std::to_string(a->key_id) + ":" + std::to_string(minute)];
            w.key_id = a->key_id;
            w.minute = minute;
            w.calls_per_minute = a->calls_per_minute;
            w.need += 1;
            w.want = TokenBlock(a->calls_per_minute, w.need);
        }
        if (lack.credits) {
            const std::string month = MonthOf(a->now);
            CreditLeaseWant& w = credit_wants[std::to_string(a->key_id) + ":" + month];
            w.key_id = a->key_id;
            w.month = month;
            w.allowance = a->allowance;
            w.need += a->price;
            w.want = CreditBlock(a->allowance, w.need);
        }
    }
    std::vector<CreditLeaseWant> credits;
    for (auto& [id, w] : credit_wants) {
        credits.push_back(w);
    }
    std::vector<TokenLeaseWant> tokens;
    for (auto& [id, w] : token_wants) {
        tokens.push_back(w);
    }
    const bool locked = !credits.empty() || !tokens.empty() || !owed_refunds.empty();
    std::vector<SettleResult> results(batch.size());
    std::unordered_set<std::string> settled;  // written reservations this batch settled
    LeaseGrants grants;
    storage::PgRows uncovered;  // entries the database wrote refunded: their lease row was gone
    // The lease row each call was admitted under, if the book holds it yet. Decided once: only
    // this thread changes which lease the book holds (the grants, below).
    std::unordered_map<std::string, std::optional<std::int64_t>> lease_of;
    for (const Reservation& reservation : overdue) {
        lease_of[reservation.request_id] = book_.LeaseOf(reservation);
    }
    for (const QueuedCall& p : batch) {
        const auto* settlement = std::get_if<SettlementRequest>(&p.request);
        if (settlement && !deferred_.Written(settlement->reservation.request_id)) {
            lease_of[settlement->reservation.request_id] = book_.LeaseOf(settlement->reservation);
        }
    }
    std::unordered_set<std::string> refunded;  // not charged: their lease had left
    for (const auto& [id, lease] : lease_of) {
        if (!lease) {
            refunded.insert(id);
        }
    }
    const auto deadline = sent + connection_.WriteTimeout();
    outcome.failure = connection_.WithRetries(deadline, [&](odb::connection& connection) {
        LeaseWrites writes(options_.instance);
        for (const Reservation& reservation : overdue) {
            writes.Reserve(reservation, lease_of.at(reservation.request_id));
        }
        for (std::size_t i = 0; i < batch.size(); ++i) {
            if (const auto* settlement = std::get_if<SettlementRequest>(&batch[i].request)) {
                if (deferred_.Written(settlement->reservation.request_id)) {
                    writes.Settle(*settlement);
                } else {
                    results[i].charged =
                        writes.Record(*settlement, lease_of.at(settlement->reservation.request_id));
                }
            }
        }
        if (prepared_on_ != connection_.Generation()) {
            storage::PreparePg(connection, LeaseWrites::kStatementName, LeaseWrites::Statement());
            prepared_on_ = connection_.Generation();
        }
        // The settlements of written reservations first: their result is the first.
        std::string sql = writes.SettledSql();
        std::vector<storage::PgRows> rows;
        uncovered.clear();
        if (locked || writes.HasSettled()) {
            odb::transaction t(storage::BeginWrite(connection));
            if (!owed_refunds.empty()) {
                // Calls answered 503: their entry refunded, or a charge a lost commit made
                // taken back (from the month: this instance's spending is moved there first).
                storage::RunPgStatements(FoldLeasesSql(options_.instance) +
                                         RecordRefundsSql(options_.instance, owed_refunds));
                LedgerBatch ledger(connection_.Database(), options_.instance);
                ledger.Lock({}, owed_refunds);
                ledger.SettleAll(owed_refunds);
                ledger.Flush();  // before the relative writes below: it writes absolute figures
            }
            grants = LeaseOnPostgres(options_.instance, options_.leases->ttl, credits, tokens, sql);
            if (!writes.Empty()) {
                uncovered =
                    storage::RunPgPrepared(connection, LeaseWrites::kStatementName, writes.Parameters());
            }
            if (!sql.empty()) {
                rows = storage::RunPgStatements(sql);
            }
            t.commit();
        } else if (!writes.Empty()) {
            // The common batch: one round trip, its own transaction.
            uncovered = storage::RunPgPrepared(connection, LeaseWrites::kStatementName, writes.Parameters());
        }
        outcome.wrote = locked || !writes.Empty() || writes.HasSettled();
        settled.clear();
        if (writes.HasSettled()) {
            for (const auto& row : rows.at(0)) {
                settled.insert(row.at(0).value_or(""));
            }
        }
        if (grants.credit_rows) {  // after the settlements' result, if any
            grants.Granted(rows.at(writes.HasSettled() ? 1 : 0));
        }
        owed_refunds.clear();
    });
    if (!outcome.failure.empty()) {
        return outcome;  // the overdue reservations stay unwritten, for the next batch
    }
    for (const CreditLeaseGrant& g : grants.credits) {
        book_.CreditsLeased(g.key_id, g.month, g.granted, g.used, g.since, sent, g.short_of_need);
    }
    const auto now = std::chrono::steady_clock::now();
    for (const TokenLeaseGrant& g : grants.tokens) {
        book_.TokensLeased(g.key_id, g.minute, g.granted, g.calls, now, g.short_of_need);
    }
    for (const auto& row : uncovered) {
        refunded.insert(row.at(0).value_or(""));
    }
    for (const Reservation& reservation : overdue) {
        book_.Written(reservation);
    }
    deferred_.Wrote(overdue);
    for (std::size_t i = 0; i < batch.size(); ++i) {
        if (const auto* settlement = std::get_if<SettlementRequest>(&batch[i].request)) {
            const Reservation& r = settlement->reservation;
            const bool was_written = deferred_.Forget(r.request_id);
            if (was_written) {
                const bool charge = SettlementFor(settlement->status) == Settlement::kCharge;
                results[i].charged = charge && settled.contains(r.request_id) ? r.price : 0;
            } else if (refunded.contains(r.request_id)) {
                // Its lease is gone: what the book held of it must not come back to be spent.
                results[i].charged = 0;
                book_.Lost(r);
            }
            results[i].credits = book_.Settled(r, results[i].charged > 0, !was_written, settlement->allowance,
                                               settlement->now);
            batch[i].done(std::move(results[i]));
        } else if (const auto* request = std::get_if<AdmissionRequest>(&batch[i].request)) {
            Admission admission = *book_.Admit(*request, false, now);
            if (admission.reservation) {
                write_later_(*admission.reservation);
            }
            batch[i].done(std::move(admission));
        }
    }
    return outcome;
}

// Leases: idle ones returned, active ones renewed, expired ones of any instance reclaimed.
bool LeasedAdmission::AfterBatch() {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_upkeep_ < std::chrono::milliseconds(250)) {
        return true;  // the writer may run thousands of batches a second; leases change by the second
    }
    last_upkeep_ = now;
    LeaseBook::Upkeep due = book_.Due(now, WallNow());
    const auto reclaim_every = std::max<std::chrono::steady_clock::duration>(
        std::chrono::seconds(1), std::chrono::steady_clock::duration(options_.leases->ttl) / 4);
    const bool reclaim = now - last_reclaim_ >= reclaim_every;
    std::string sql;
    if (!due.renewed.empty()) {
        sql += RenewLeasesSql(options_.instance, due.renewed, options_.leases->ttl);  // result 0
    }
    if (!due.returned.empty()) {
        sql += ReturnLeasesSql(options_.instance, due.returned);
    }
    if (!due.tokens.empty()) {
        sql += ReturnTokensSql(due.tokens);
    }
    if (reclaim) {
        sql += ReclaimExpiredLeasesSql();
    }
    if (sql.empty()) {
        return true;
    }
    try {
        const std::vector<storage::PgRows> rows = connection_.WriteAlone(sql);
        if (reclaim) {
            last_reclaim_ = now;
        }
        if (!due.renewed.empty()) {
            std::vector<std::string> kept;
            for (const auto& row : rows.at(0)) {
                kept.push_back(row.at(0).value_or(""));
            }
            book_.Renewed(due.renewed, kept, now);
        }
    } catch (const std::exception&) {
        // The book let go of what it returned: the database reclaims it at its expiry. A lease
        // not renewed stops being spent at its local validity.
        connection_.Drop();
        if (reclaim) {
            last_reclaim_ = now;
        }
        return false;  // the calls queued meanwhile meet no second wait on it
    }
    return true;
}

}  // namespace

std::unique_ptr<AdmissionPolicy> LeasedDecides(const LedgerWriterOptions& options,
                                               BatchConnection& connection,
                                               std::function<void(const Reservation&)> write_later) {
    return std::make_unique<LeasedAdmission>(options, connection, std::move(write_later));
}

}  // namespace lastro::billing
