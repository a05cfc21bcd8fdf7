#include "core/billing/ledger_writer.hpp"

#include "core/billing/credit_lease.hpp"
#include "core/billing/wall_clock.hpp"

#include "core/storage/database.hpp"
#include "core/storage/reply_deadline.hpp"

#include <odb/exceptions.hxx>
#include <odb/transaction.hxx>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <map>

#include <pthread.h>

namespace lastro::billing {
namespace {

constexpr int kAttempts = 3;                     // per batch, on busy/deadlock/lost connection
constexpr std::time_t kMaintenanceSeconds = 60;  // stale reservations and old windows
constexpr std::time_t kWindowKeepSeconds = 3600;
constexpr std::size_t kMaxOwedRefunds = 100000;  // beyond: the stale rule refunds them

}  // namespace

LedgerWriter::LedgerWriter(odb::database& db, LedgerWriterOptions options)
    : db_(db), options_(std::move(options)) {
    const std::time_t now = WallNow();
    recovered_at_start_ = RefundOpenReservations(
        db_, options_.instance, now - options_.stale_reservation_seconds, now, options_.decide_in_process);
    if (options_.decide_in_process) {
        book_ = std::make_unique<AccountBook>(db_);
    } else if (options_.leases && db_.id() == odb::id_pgsql) {
        // Starting, this instance spends none of what it leased in its last run: back to the
        // months (a crash may have left them; like its own open reservations above).
        WriteAlone(ReturnLeasesSql(options_.instance, {}) + ReclaimExpiredLeasesSql());
        connection_.reset();
        leases_ = std::make_unique<LeaseBook>(*options_.leases);
    }
    last_maintenance_ = now;
    thread_ = std::thread([this] {
        // Named for `top -H`, perf and `./dev bench load`, which reports this thread's CPU apart.
        pthread_setname_np(pthread_self(), "ledger-writer");
        Run();
    });
}

LedgerWriter::~LedgerWriter() {
    Stop();
}

void LedgerWriter::Stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    if (thread_.joinable()) {
        thread_.join();
    }
    if (leases_ && !leases_returned_) {
        leases_returned_ = true;
        // Nothing runs any more: what this instance leased goes back now rather than at expiry.
        try {
            std::string sql = ReturnLeasesSql(options_.instance, {});
            if (auto tokens = leases_->TokensHeld(WallNow()); !tokens.empty()) {
                sql += ReturnTokensSql(tokens);
            }
            WriteAlone(sql);
        } catch (const std::exception&) {
            // They expire (billing.lease_seconds) and any instance reclaims them.
        }
    }
}

Admission LedgerWriter::Admit(AdmissionRequest request) {
    if (leases_) {
        std::optional<Admission> decided = leases_->Admit(request, true, std::chrono::steady_clock::now());
        if (!decided) {
            // The lease or the tokens cannot cover it: the writer's next batch leases more.
            return std::get<Admission>(EnqueueAndWait(std::move(request)));
        }
        if (decided->reservation) {
            try {
                Enqueue(Pending{*decided->reservation, {}});
            } catch (const BillingUnavailable&) {
            }
        }
        return *decided;
    }
    if (!book_) {
        return std::get<Admission>(EnqueueAndWait(std::move(request)));
    }
    Admission admission = book_->Admit(request);
    if (admission.reservation) {
        // Written with the next batch; the call goes on meanwhile. (A stopping writer has
        // drained its queue: the call's settlement then answers 503.)
        try {
            Enqueue(Pending{*admission.reservation, {}});
        } catch (const BillingUnavailable&) {
        }
    }
    return admission;
}

SettleResult LedgerWriter::Settle(SettlementRequest request) {
    return std::get<SettleResult>(EnqueueAndWait(std::move(request)));
}

void LedgerWriter::SettleAsync(SettlementRequest request, std::function<void(SettleOutcome)> then) {
    auto done = [then](Outcome outcome) {
        if (auto* error = std::get_if<std::exception_ptr>(&outcome)) {
            then(*error);
        } else {
            then(std::get<SettleResult>(std::move(outcome)));
        }
    };
    try {
        Enqueue(Pending{std::move(request), std::move(done)});
    } catch (const BillingUnavailable&) {
        then(std::current_exception());
    }
}

void LedgerWriter::TakeBack(SettlementRequest charged) {
    charged.reverse_charge = true;
    try {
        Enqueue(Pending{TakenBack{std::move(charged)}, {}});
    } catch (const BillingUnavailable&) {
        // Stopping: the charge stays (docs/billing.md).
    }
}

void LedgerWriter::OweTakenBack(std::vector<Pending>& batch) {
    std::erase_if(batch, [this](Pending& pending) {
        auto* taken = std::get_if<TakenBack>(&pending.request);
        if (!taken) {
            return false;
        }
        if (owed_refunds_.size() < kMaxOwedRefunds) {
            if (book_) {
                book_->TakenBack(taken->settled.reservation);
            }
            owed_refunds_.push_back(std::move(taken->settled));
        }
        return true;
    });
}

void LedgerWriter::Enqueue(Pending pending) {
    {
        std::lock_guard lock(mutex_);
        if (stopping_) {
            throw BillingUnavailable("the server is stopping");
        }
        queue_.push_back(std::move(pending));
    }
    wake_.notify_one();
}

std::variant<Admission, SettleResult> LedgerWriter::EnqueueAndWait(Request request) {
    auto promise = std::make_shared<std::promise<std::variant<Admission, SettleResult>>>();
    std::future<std::variant<Admission, SettleResult>> result = promise->get_future();
    Enqueue(Pending{std::move(request), [promise](Outcome outcome) {
                        if (auto* error = std::get_if<std::exception_ptr>(&outcome)) {
                            promise->set_exception(*error);
                        } else if (auto* admission = std::get_if<Admission>(&outcome)) {
                            promise->set_value(std::move(*admission));
                        } else {
                            promise->set_value(std::get<SettleResult>(std::move(outcome)));
                        }
                    }});
    return result.get();
}

void LedgerWriter::Run() {
    std::vector<Pending> batch;
    for (;;) {
        {
            std::unique_lock lock(mutex_);
            // Woken by a call, or once a second for maintenance and overdue reservations.
            wake_.wait_for(lock, std::chrono::seconds(1), [this] { return stopping_ || !queue_.empty(); });
            if (queue_.empty() && stopping_) {
                return;
            }
            while (!queue_.empty() && batch.size() < options_.max_batch) {
                batch.push_back(std::move(queue_.front()));
                queue_.pop_front();
            }
        }
        newest_unread_.clear();
        OweTakenBack(batch);
        std::vector<Pending> outdated = SetAsideOutdated(batch);
        const auto began = std::chrono::steady_clock::now();
        if (book_) {
            CommitInProcess(batch);  // also when empty: reservations may be due for writing
        } else if (leases_) {
            CommitLeased(batch);
        } else if (!batch.empty() || (!owed_refunds_.empty() && available_)) {
            Commit(batch);
        }
        if (options_.on_batch && !batch.empty()) {
            options_.on_batch(batch.size(), std::chrono::steady_clock::now() - began);
        }
        batch.clear();
        if (!newest_unread_.empty()) {
            // The database did not answer: answering these anew would meet it again (a read
            // that waits its own timeout), so they are 503 and refunded at once.
            available_ = false;
            Fail(outdated, newest_unread_, false);
            outdated.clear();
        }
        for (Pending& pending : outdated) {
            SettleResult result;
            result.outdated = true;
            pending.done(result);
        }
        if (leases_ && available_) {  // while the database is away, Maintain() probes it
            LeaseUpkeep();
        }
        const std::time_t now = WallNow();
        // While the database is away this is also the probe, once a second, that notices its
        // return (and pays back the refunds owed meanwhile).
        if (now - last_maintenance_ >= (available_ ? kMaintenanceSeconds : 1)) {
            Maintain(now);
        }
    }
}

std::vector<LedgerWriter::Pending> LedgerWriter::SetAsideOutdated(std::vector<Pending>& batch) {
    auto cached = [](const Pending& p) {
        const auto* settlement = std::get_if<SettlementRequest>(&p.request);
        return settlement && settlement->answered_at_generation;
    };
    std::vector<Pending> outdated;
    if (std::none_of(batch.begin(), batch.end(), cached)) {
        return outdated;
    }
    // Read after every call of the batch arrived: an answer cached under this generation is
    // the answer the data gives now. When it cannot be read, no cached answer is current, and
    // Run() answers them 503 at once (refunded): anew, they would wait for the same database.
    std::optional<std::int64_t> newest;
    try {
        const auto deadline = std::chrono::steady_clock::now() + options_.write_timeout;
        odb::connection& connection = BatchConnection(deadline);  // its page cache is warm
        storage::ReplyDeadline bound(connection, deadline);
        newest = options_.newest_generation(connection);
    } catch (const std::exception& e) {
        connection_.reset();
        newest_unread_ = e.what();
    }
    std::vector<Pending> kept;
    kept.reserve(batch.size());
    for (Pending& pending : batch) {
        const auto* settlement = std::get_if<SettlementRequest>(&pending.request);
        if (cached(pending) && settlement->answered_at_generation != newest) {
            outdated.push_back(std::move(pending));
        } else {
            kept.push_back(std::move(pending));
        }
    }
    batch = std::move(kept);
    return outdated;
}

// The writer's connection for a batch whose lock waits end at `deadline`, whichever attempt they
// are in: SQLite's busy timeout is set to what is left before every attempt, PostgreSQL's
// lock_timeout once per connection. The caller also arms a ReplyDeadline on it, for a server
// that stops answering altogether.
odb::connection& LedgerWriter::BatchConnection(std::chrono::steady_clock::time_point deadline) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
        throw odb::timeout();
    }
    const bool fresh = !connection_;
    if (fresh) {
        connection_ = db_.connection();
        lease_statement_prepared_ = false;  // perhaps a connection it was never prepared on
    }
    if (fresh || db_.id() == odb::id_sqlite) {
        // On PostgreSQL a statement, the connection's first: bounded like the batch.
        storage::ReplyDeadline bound(*connection_, deadline);
        storage::BoundLockWait(*connection_, db_.id() == odb::id_sqlite ? left : options_.write_timeout);
    }
    return *connection_;
}

// Sleeps before another attempt, never past `deadline`.
static void PauseBefore(int attempt, std::chrono::steady_clock::time_point deadline) {
    const auto pause = std::min<std::chrono::steady_clock::duration>(
        std::chrono::milliseconds(1 << attempt), deadline - std::chrono::steady_clock::now());
    if (pause.count() > 0) {
        std::this_thread::sleep_for(pause);
    }
}

std::string LedgerWriter::WithRetries(std::chrono::steady_clock::time_point deadline,
                                      const std::function<void(odb::connection&)>& attempt,
                                      const std::function<bool()>& may_retry) {
    std::string failure;
    for (int n = 1; n <= kAttempts; ++n) {
        try {
            odb::connection& connection = BatchConnection(deadline);
            storage::ReplyDeadline bound(connection, deadline);
            attempt(connection);
            return "";
        } catch (const odb::recoverable& e) {
            connection_.reset();  // a lost connection is not reused; the pool gives a new one
            failure = e.what();
            if (n == kAttempts || (may_retry && !may_retry())) {
                break;
            }
            PauseBefore(n, deadline);
        } catch (const std::exception& e) {
            connection_.reset();
            failure = e.what();
            break;
        }
    }
    return failure;
}

void LedgerWriter::Commit(std::vector<Pending>& batch) {
    std::vector<std::variant<Admission, SettleResult>> results(batch.size());
    std::vector<AdmissionRequest> admissions;
    std::vector<SettlementRequest> settlements = owed_refunds_;
    for (const Pending& p : batch) {
        if (auto* a = std::get_if<AdmissionRequest>(&p.request)) {
            admissions.push_back(*a);
        } else if (auto* settlement = std::get_if<SettlementRequest>(&p.request)) {
            settlements.push_back(*settlement);
        }
    }
    bool wrote = false;
    bool admissions_released = false;
    const auto deadline = std::chrono::steady_clock::now() + options_.write_timeout;
    // Once the admissions were answered, the batch is not tried again: they stand or fall with
    // this commit (their settlements find no reservation if it failed).
    const std::string failure = WithRetries(
        deadline,
        [&](odb::connection& connection) {
            odb::transaction t(storage::BeginWrite(connection));
            LedgerBatch ledger(db_, options_.instance);
            ledger.Lock(admissions, settlements);
            // Settlements first (the refunds owed, then the batch's): what they release is
            // there for the batch's admissions.
            std::vector<SettleResult> settled = ledger.SettleAll(settlements);
            for (std::size_t i = 0, k = owed_refunds_.size(); i < batch.size(); ++i) {
                if (std::holds_alternative<SettlementRequest>(batch[i].request)) {
                    results[i] = settled[k++];
                }
            }
            for (std::size_t i = 0; i < batch.size(); ++i) {
                if (auto* admission = std::get_if<AdmissionRequest>(&batch[i].request)) {
                    results[i] = ledger.Admit(*admission);
                }
            }
            ledger.Flush();
            wrote = ledger.Wrote();
            // Decided under the write lock: admitted calls may run while the commit syncs.
            for (std::size_t i = 0; i < batch.size(); ++i) {
                if (std::holds_alternative<AdmissionRequest>(batch[i].request)) {
                    batch[i].done(std::get<Admission>(std::move(results[i])));
                }
            }
            admissions_released = true;
            t.commit();
            owed_refunds_.clear();
        },
        [&] { return !admissions_released; });
    // Only a write that reached the database says it is back: a batch whose settlements found
    // nothing to settle wrote nothing and proves nothing.
    if (!failure.empty()) {
        available_ = false;
        Fail(batch, failure, admissions_released);
        return;
    }
    if (wrote) {
        available_ = true;
    }
    for (std::size_t i = 0; i < batch.size(); ++i) {
        const bool admission = std::holds_alternative<AdmissionRequest>(batch[i].request);
        if (admission && admissions_released) {
            continue;  // answered already
        }
        if (auto* decided = std::get_if<Admission>(&results[i])) {
            batch[i].done(std::move(*decided));
        } else {
            batch[i].done(std::get<SettleResult>(std::move(results[i])));
        }
    }
}

std::vector<Reservation> LedgerWriter::Overdue(const std::vector<Pending>& batch, std::size_t& due) {
    const auto now = std::chrono::steady_clock::now();
    for (const Pending& p : batch) {
        if (auto* reservation = std::get_if<Reservation>(&p.request)) {
            unwritten_.emplace(reservation->request_id, Unwritten{*reservation, now});
            unwritten_order_.push_back(reservation->request_id);
        } else if (auto* settlement = std::get_if<SettlementRequest>(&p.request)) {
            unwritten_.erase(settlement->reservation.request_id);  // settled before it was written
        }
    }
    // The reservations open for longer than the delay are written now (a crash then leaves them
    // for the start-up recovery rule); the first `due` names of unwritten_order_ are decided.
    std::vector<Reservation> overdue;
    for (due = 0; due < unwritten_order_.size(); ++due) {
        auto it = unwritten_.find(unwritten_order_[due]);
        if (it == unwritten_.end()) {
            continue;  // settled meanwhile
        }
        if (now - it->second.since < options_.reservation_write_delay) {
            break;
        }
        overdue.push_back(it->second.reservation);
    }
    return overdue;
}

void LedgerWriter::CommitInProcess(std::vector<Pending>& batch) {
    std::vector<SettleResult> results(batch.size());
    std::vector<SettlementRequest> settlements = owed_refunds_;
    for (const Pending& p : batch) {
        if (auto* settlement = std::get_if<SettlementRequest>(&p.request)) {
            settlements.push_back(*settlement);
        }
    }
    std::size_t due = 0;
    const std::vector<Reservation> overdue = Overdue(batch, due);
    // Refunds owed are paid by the next batch; alone, only while the database answers (when it
    // is away, Maintain() probes it once a second and pays them on its return).
    if (batch.empty() && overdue.empty() && (owed_refunds_.empty() || !available_)) {
        unwritten_order_.erase(unwritten_order_.begin(), unwritten_order_.begin() + due);
        return;
    }
    bool wrote = false;
    const auto deadline = std::chrono::steady_clock::now() + options_.write_timeout;
    const std::string failure = WithRetries(deadline, [&](odb::connection& connection) {
        odb::transaction t(storage::BeginWrite(connection));
        LedgerBatch ledger(db_, options_.instance);
        ledger.Lock({}, settlements);
        for (const SettlementRequest& owed : owed_refunds_) {
            ledger.Settle(owed);
        }
        for (const Reservation& reservation : overdue) {
            ledger.Reserve(reservation);
        }
        for (std::size_t i = 0; i < batch.size(); ++i) {
            if (const auto* settlement = std::get_if<SettlementRequest>(&batch[i].request)) {
                results[i] = written_.contains(settlement->reservation.request_id)
                                 ? ledger.Settle(*settlement)
                                 : ledger.Record(*settlement);
            }
        }
        ledger.Flush();
        wrote = ledger.Wrote();
        t.commit();
        owed_refunds_.clear();
    });
    if (!failure.empty()) {
        available_ = false;  // the overdue reservations stay unwritten, for the next batch
        Fail(batch, failure, false);
        return;
    }
    if (wrote) {
        available_ = true;
    }
    for (const Reservation& reservation : overdue) {
        unwritten_.erase(reservation.request_id);
        written_.insert(reservation.request_id);
    }
    unwritten_order_.erase(unwritten_order_.begin(), unwritten_order_.begin() + due);
    for (std::size_t i = 0; i < batch.size(); ++i) {
        if (const auto* settlement = std::get_if<SettlementRequest>(&batch[i].request)) {
            written_.erase(settlement->reservation.request_id);
            results[i].credits = book_->Settled(settlement->reservation, results[i].charged,
                                                settlement->allowance, settlement->now);
            batch[i].done(std::move(results[i]));
        }
    }
}

// The batch could not be written: its waiting calls are answered 503, and whatever a
// settlement's call had reserved is owed back.
void LedgerWriter::Fail(std::vector<Pending>& batch, const std::string& failure, bool skip_admissions) {
    for (Pending& pending : batch) {
        if (std::holds_alternative<Reservation>(pending.request)) {
            continue;  // not written; its settlement will write the settled entry
        }
        if (std::holds_alternative<AdmissionRequest>(pending.request) && skip_admissions) {
            continue;  // answered already; the failed commit shows at its settlement
        }
        if (auto* settlement = std::get_if<SettlementRequest>(&pending.request)) {
            const std::string& id = settlement->reservation.request_id;
            unwritten_.erase(id);  // the call is over: its reservation is never to be written
            // Where the database decides, every reservation is in it; where the process does,
            // only those already written are, and the book releases the price in any case. Where
            // it leases, a settled entry of the batch may have committed all the same.
            const bool written = written_.erase(id) > 0;
            const bool stored = !book_ || written;
            if (stored && owed_refunds_.size() < kMaxOwedRefunds) {
                SettlementRequest refund = *settlement;
                refund.status = 503;
                // The batch may have committed after all (a reply lost, not the commit): a
                // charge it recorded for this call, answered 503, is taken back.
                refund.reverse_charge = true;
                owed_refunds_.push_back(refund);
            }
            if (book_) {
                book_->Release(settlement->reservation);
            }
            if (leases_) {
                leases_->Lost(settlement->reservation);
            }
        }
        pending.done(std::make_exception_ptr(
            BillingUnavailable("the credit ledger could not be written: " + failure)));
    }
}

void LedgerWriter::Maintain(std::time_t now) {
    last_maintenance_ = now;
    if (book_) {
        book_->ForgetMonthsBefore(MonthOf(now - 32 * 24 * 3600));
    }
    // One transaction on the writer's connection, bounded like a batch: while the database is
    // away this runs once a second as the probe, and must not hold the calls queued behind it.
    try {
        const auto deadline = std::chrono::steady_clock::now() + options_.write_timeout;
        odb::connection& connection = BatchConnection(deadline);
        storage::ReplyDeadline bound(connection, deadline);
        odb::transaction t(storage::BeginWrite(connection));
        RefundOpenReservationsIn(db_, std::nullopt, now - options_.stale_reservation_seconds, now);
        ForgetRateWindowsIn(db_, now - kWindowKeepSeconds);
        LedgerBatch ledger(db_, options_.instance);
        if (!leases_) {  // where admission is leased, CommitLeased pays them back
            for (const SettlementRequest& owed : owed_refunds_) {
                ledger.Settle(owed);
            }
        }
        ledger.Flush();
        t.commit();
        if (!leases_) {
            owed_refunds_.clear();
        }
        available_ = true;
    } catch (const std::exception&) {
        connection_.reset();
        available_ = false;
    }
}

}  // namespace lastro::billing

namespace lastro::billing {

std::vector<storage::PgRows> LedgerWriter::WriteAlone(const std::string& sql) {
    const auto deadline = std::chrono::steady_clock::now() + options_.write_timeout;
    odb::connection& connection = BatchConnection(deadline);
    storage::ReplyDeadline bound(connection, deadline);
    return storage::RunPgStatementsOn(connection, sql);
}

// Where admission is leased (PostgreSQL): the calls were decided by the LeaseBook, except those
// waiting here for a lease. A batch without leases to take and refunds owed is one round trip
// (its own transaction); otherwise the leases are locked, decided and written in the batch's
// transaction, and the waiting calls decided after its commit.
void LedgerWriter::CommitLeased(std::vector<Pending>& batch) {
    std::size_t due = 0;
    const std::vector<Reservation> overdue = Overdue(batch, due);
    if (batch.empty() && overdue.empty() && owed_refunds_.empty()) {
        unwritten_order_.erase(unwritten_order_.begin(), unwritten_order_.begin() + due);
        return;
    }
    const auto sent = std::chrono::steady_clock::now();
    std::map<std::string, CreditLeaseWant> credit_wants;
    std::map<std::string, TokenLeaseWant> token_wants;
    for (const Pending& p : batch) {
        const auto* a = std::get_if<AdmissionRequest>(&p.request);
        if (!a) {
            continue;
        }
        const LeaseBook::Lack lack = leases_->LackOf(*a, sent);
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
    const bool locked = !credits.empty() || !tokens.empty() || !owed_refunds_.empty();
    std::vector<SettleResult> results(batch.size());
    std::unordered_set<std::string> settled;  // written reservations this batch settled
    LeaseGrants grants;
    storage::PgRows uncovered;  // entries the database wrote refunded: their lease row was gone
    // The lease row each call was admitted under, if the book holds it yet. Decided once: only
    // this thread changes which lease the book holds (the grants, below).
    std::unordered_map<std::string, std::optional<std::int64_t>> lease_of;
    for (const Reservation& reservation : overdue) {
        lease_of[reservation.request_id] = leases_->LeaseOf(reservation);
    }
    for (const Pending& p : batch) {
        const auto* settlement = std::get_if<SettlementRequest>(&p.request);
        if (settlement && !written_.contains(settlement->reservation.request_id)) {
            lease_of[settlement->reservation.request_id] = leases_->LeaseOf(settlement->reservation);
        }
    }
    std::unordered_set<std::string> refunded;  // not charged: their lease had left
    for (const auto& [id, lease] : lease_of) {
        if (!lease) {
            refunded.insert(id);
        }
    }
    bool wrote = false;
    const auto deadline = sent + options_.write_timeout;
    const std::string failure = WithRetries(deadline, [&](odb::connection& connection) {
        LeaseWrites writes(options_.instance);
        for (const Reservation& reservation : overdue) {
            writes.Reserve(reservation, lease_of.at(reservation.request_id));
        }
        for (std::size_t i = 0; i < batch.size(); ++i) {
            if (const auto* settlement = std::get_if<SettlementRequest>(&batch[i].request)) {
                if (written_.contains(settlement->reservation.request_id)) {
                    writes.Settle(*settlement);
                } else {
                    results[i].charged =
                        writes.Record(*settlement, lease_of.at(settlement->reservation.request_id));
                }
            }
        }
        if (!lease_statement_prepared_) {
            storage::PreparePg(connection, LeaseWrites::kStatementName, LeaseWrites::Statement());
            lease_statement_prepared_ = true;
        }
        // The settlements of written reservations first: their result is the first.
        std::string sql = writes.SettledSql();
        std::vector<storage::PgRows> rows;
        uncovered.clear();
        if (locked || writes.HasSettled()) {
            odb::transaction t(storage::BeginWrite(connection));
            if (!owed_refunds_.empty()) {
                // Calls answered 503: their entry refunded, or a charge a lost commit made
                // taken back (from the month: this instance's spending is moved there first).
                storage::RunPgStatements(FoldLeasesSql(options_.instance) +
                                         RecordRefundsSql(options_.instance, owed_refunds_));
                LedgerBatch ledger(db_, options_.instance);
                ledger.Lock({}, owed_refunds_);
                ledger.SettleAll(owed_refunds_);
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
        wrote = locked || !writes.Empty() || writes.HasSettled();
        settled.clear();
        if (writes.HasSettled()) {
            for (const auto& row : rows.at(0)) {
                settled.insert(row.at(0).value_or(""));
            }
        }
        if (grants.credit_rows) {  // after the settlements' result, if any
            grants.Granted(rows.at(writes.HasSettled() ? 1 : 0));
        }
        owed_refunds_.clear();
    });
    if (!failure.empty()) {
        available_ = false;  // the overdue reservations stay unwritten, for the next batch
        Fail(batch, failure, false);
        return;
    }
    if (wrote) {
        available_ = true;
    }
    for (const CreditLeaseGrant& g : grants.credits) {
        leases_->CreditsLeased(g.key_id, g.month, g.granted, g.used, g.since, sent, g.short_of_need);
    }
    const auto now = std::chrono::steady_clock::now();
    for (const TokenLeaseGrant& g : grants.tokens) {
        leases_->TokensLeased(g.key_id, g.minute, g.granted, g.calls, now, g.short_of_need);
    }
    for (const auto& row : uncovered) {
        refunded.insert(row.at(0).value_or(""));
    }
    for (const Reservation& reservation : overdue) {
        leases_->Written(reservation);
        unwritten_.erase(reservation.request_id);
        written_.insert(reservation.request_id);
    }
    unwritten_order_.erase(unwritten_order_.begin(), unwritten_order_.begin() + due);
    for (std::size_t i = 0; i < batch.size(); ++i) {
        if (const auto* settlement = std::get_if<SettlementRequest>(&batch[i].request)) {
            const Reservation& r = settlement->reservation;
            const bool was_written = written_.erase(r.request_id) > 0;
            if (was_written) {
                const bool charge = SettlementFor(settlement->status) == Settlement::kCharge;
                results[i].charged = charge && settled.contains(r.request_id) ? r.price : 0;
            } else if (refunded.contains(r.request_id)) {
                // Its lease is gone: what the book held of it must not come back to be spent.
                results[i].charged = 0;
                leases_->Lost(r);
            }
            results[i].credits = leases_->Settled(r, results[i].charged > 0, !was_written,
                                                  settlement->allowance, settlement->now);
            batch[i].done(std::move(results[i]));
        } else if (const auto* request = std::get_if<AdmissionRequest>(&batch[i].request)) {
            Admission admission = *leases_->Admit(*request, false, now);
            if (admission.reservation) {
                try {
                    Enqueue(Pending{*admission.reservation, {}});
                } catch (const BillingUnavailable&) {
                }
            }
            batch[i].done(std::move(admission));
        }
    }
}

void LedgerWriter::LeaseUpkeep() {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_upkeep_ < std::chrono::milliseconds(250)) {
        return;  // the writer may run thousands of batches a second; leases change by the second
    }
    last_upkeep_ = now;
    LeaseBook::Upkeep due = leases_->Due(now, WallNow());
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
        return;
    }
    try {
        const std::vector<storage::PgRows> rows = WriteAlone(sql);
        if (reclaim) {
            last_reclaim_ = now;
        }
        if (!due.renewed.empty()) {
            std::vector<std::string> kept;
            for (const auto& row : rows.at(0)) {
                kept.push_back(row.at(0).value_or(""));
            }
            leases_->Renewed(due.renewed, kept, now);
        }
    } catch (const std::exception&) {
        // The book let go of what it returned: the database reclaims it at its expiry. A lease
        // not renewed stops being spent at its local validity.
        connection_.reset();
        available_ = false;  // the calls queued meanwhile meet no second wait on it
        if (reclaim) {
            last_reclaim_ = now;
        }
    }
}

}  // namespace lastro::billing
