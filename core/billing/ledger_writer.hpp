// Group commit for the credit ledger. One thread owns every billing write: callers queue their
// admission or settlement and wait; the thread takes everything queued, applies it in arrival
// order in ONE durable transaction (LedgerBatch), commits, and wakes each caller with its
// result. While a batch commits the next one gathers, so under load one disk sync serves many
// calls and there is none per request.
//
// A settlement returns only once its commit is durable: a response never leaves before its
// charge is recorded. An admission returns as soon as it is decided, before the commit: the
// decision was taken under the database's write lock (SQLite) or the usage row's lock
// (PostgreSQL), which the commit releases, so no other call or instance can decide against
// it; and if that commit fails, the call's settlement finds no reservation, charges nothing
// and the call is answered 503.
//
// Where the process owns the database (SQLite, `decide_in_process`), admission does not wait
// for the writer at all: an AccountBook decides it in memory, and the writer records the
// reservation once its call has run for `reservation_write_delay` unsettled (a call settled
// sooner gets only its settled entry). Each call then waits for one durable commit, its
// settlement's. docs/billing.md, docs/performance.md.
//
// Before a batch, the writer reads the newest data release once when a settlement in it
// carries the release its cached answer came from; a settlement whose release is no longer
// the newest is answered `outdated`, unwritten, so that its call is answered anew.
#pragma once

#include "core/billing/account_book.hpp"
#include "core/billing/credit_ledger.hpp"
#include "core/billing/lease_book.hpp"

#include <odb/connection.hxx>
#include <odb/database.hxx>
#include <odb/transaction.hxx>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

namespace lastro::billing {

// The database could not record billing (unreachable, read-only, full): the call is answered
// 503 and nothing is charged.
class BillingUnavailable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct LedgerWriterOptions {
    std::string instance;                         // server.instance: names this process's reservations
    std::size_t max_batch = 512;                  // calls per transaction
    std::time_t stale_reservation_seconds = 600;  // older open reservations of any instance are refunded
    // The process owns the database (one lastrod per SQLite file): admission in memory
    // (AccountBook), and at start every open reservation is refunded, whoever made it.
    bool decide_in_process = false;
    // In the process, a reservation is written only once its call has run this long without
    // being settled; a call settled sooner gets its settled entry alone (one row written, not
    // three). A crash forgets the unwritten ones: their calls were never answered nor charged.
    std::chrono::milliseconds reservation_write_delay{1000};
    // PostgreSQL: admission decided in the process against credits and per-minute tokens leased
    // from the database (LeaseBook, docs/billing.md "Several instances"). Unset: the database
    // decides every admission.
    std::optional<LeaseSettings> leases{};
    // The newest data generation (release id), read on the writer's connection, outside any
    // transaction. Asked once for a batch that holds a settlement whose answer came from the
    // response cache (SettlementRequest::answered_at_generation); required for such settlements.
    std::function<std::int64_t(odb::connection&)> newest_generation{};
    // How long one batch may try to reach the database (lock waits and retries together) before
    // its calls are answered 503, unbilled: well under the client-facing timeouts
    // (billing.write_timeout_ms, docs/billing.md "The database away").
    std::chrono::milliseconds write_timeout{2000};
    // Told of each group commit that carried calls: how many, and how long it took (metrics).
    std::function<void(std::size_t, std::chrono::steady_clock::duration)> on_batch{};
};

class LedgerWriter {
public:
    // Refunds this instance's open reservations left by a previous run (the recovery rule of
    // docs/billing.md) before it accepts calls; throws when the database is unreachable.
    LedgerWriter(odb::database& db, LedgerWriterOptions options);
    // Stop(), if it was not called.
    ~LedgerWriter();
    // Finishes what is queued, then stops the thread; later calls are answered BillingUnavailable.
    // Call it from the thread that owns the writer's owner: the callbacks the thread runs may
    // hold the last references to that owner (an answer's callback holds the HTTP service), and
    // the owner destroyed on the writer's own thread would have it join itself.
    void Stop();
    LedgerWriter(const LedgerWriter&) = delete;
    LedgerWriter& operator=(const LedgerWriter&) = delete;

    // Admit blocks until its batch committed when the database decides, and not at all when the
    // process does. Settle always blocks until its batch committed. Both throw BillingUnavailable
    // when the database could not be written.
    Admission Admit(AdmissionRequest request);
    SettleResult Settle(SettlementRequest request);
    // Settle without blocking: `then` runs once, on the writer's thread after the commit (or on
    // the caller's when the writer is stopping), with the result or a BillingUnavailable. It
    // must be short and must not throw: the next batch waits for it.
    using SettleOutcome = std::variant<SettleResult, std::exception_ptr>;
    void SettleAsync(SettlementRequest request, std::function<void(SettleOutcome)> then);

    // The answer of a charged call never reached its client whole (its connection ended before
    // the kernel took it all): the charge is taken back, in memory at once and in the ledger by
    // the next batch (the entry goes from `charged` to `refunded`). From any thread; it never
    // blocks; at most once per call. `charged` is the call's settlement as written. A writer that is stopping
    // takes nothing back any more (docs/billing.md, "Charged, but the answer lost").
    void TakeBack(SettlementRequest charged);

    // Whether the last transaction reached the database (for /health).
    bool DatabaseAvailable() const { return available_.load(); }
    // Reservations the start-up recovery refunded.
    std::size_t RecoveredAtStart() const { return recovered_at_start_; }

private:
    // A queued call: an admission or a settlement waiting for its result, or a reservation the
    // AccountBook made, to be written (nobody waits for it).
    struct TakenBack {
        SettlementRequest settled;
    };
    using Request = std::variant<AdmissionRequest, SettlementRequest, Reservation, TakenBack>;
    using Outcome = std::variant<Admission, SettleResult, std::exception_ptr>;
    struct Pending {
        Request request;
        std::function<void(Outcome)> done;  // empty for a reservation
    };

    void Enqueue(Pending pending);
    // Moves the batch's TakenBack requests to the refunds owed (writer thread).
    void OweTakenBack(std::vector<Pending>& batch);
    // Takes out of `batch` the settlements whose answer a newer release has replaced since it
    // was cached, to be answered `outdated` after the batch, unsettled.
    std::vector<Pending> SetAsideOutdated(std::vector<Pending>& batch);
    std::variant<Admission, SettleResult> EnqueueAndWait(Request request);
    void Run();
    // How every batch write tries: `attempt` runs on the writer's connection (a reply bounded by
    // `deadline`), again after a failure the database may not repeat (busy, deadlock, a lost
    // connection: odb::recoverable) while `may_retry` allows, at most three times, its lock
    // waits and pauses all before `deadline` (billing.write_timeout_ms); never again after any
    // other failure. After a failure the connection is dropped (the pool gives a fresh one).
    // Returns why the last attempt failed; empty when one succeeded.
    std::string WithRetries(std::chrono::steady_clock::time_point deadline,
                            const std::function<void(odb::connection&)>& attempt,
                            const std::function<bool()>& may_retry = {});
    void Commit(std::vector<Pending>& batch);           // the database decides admission
    void CommitInProcess(std::vector<Pending>& batch);  // the AccountBook decided it
    void CommitLeased(std::vector<Pending>& batch);     // the LeaseBook decided it, or leases
    // Records the reservations queued in `batch` as unwritten, and returns those unsettled for
    // longer than the write delay; the first `due` names of unwritten_order_ are then decided.
    std::vector<Reservation> Overdue(const std::vector<Pending>& batch, std::size_t& due);
    // Leases: idle ones returned, active ones renewed, expired ones of any instance reclaimed.
    void LeaseUpkeep();
    // One write of its own (PostgreSQL, outside any transaction), bounded like a batch.
    std::vector<storage::PgRows> WriteAlone(const std::string& sql);
    void Fail(std::vector<Pending>& batch, const std::string& failure, bool skip_admissions);
    void Maintain(std::time_t now);
    // Batches run on one connection, kept between them: SQLite (WAL) keeps a connection's page
    // cache only while no other connection has committed, and the pages a batch touches were
    // mostly written by the batch before; its prepared statements stay compiled too. Dropped
    // after a failure, so a lost connection is replaced by a fresh one from the pool.
    odb::connection& BatchConnection(std::chrono::steady_clock::time_point deadline);

    odb::database& db_;
    odb::connection_ptr connection_;         // writer thread only
    bool lease_statement_prepared_ = false;  // on connection_ (LeaseWrites::Statement)
    std::string newest_unread_;              // why SetAsideOutdated could not read the newest generation
    LedgerWriterOptions options_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Pending> queue_;
    bool stopping_ = false;
    std::atomic<bool> available_{true};
    std::size_t recovered_at_start_ = 0;
    // Settlements that could not be written: refunded by a later batch (their calls answered
    // 503, so nothing may stay charged or reserved for them).
    std::vector<SettlementRequest> owed_refunds_;
    std::time_t last_maintenance_ = 0;
    std::unique_ptr<AccountBook> book_;  // set when the process decides admission
    std::unique_ptr<LeaseBook> leases_;  // set when it decides against leases
    bool leases_returned_ = false;       // by Stop(), which may run twice
    std::chrono::steady_clock::time_point last_reclaim_{}, last_upkeep_{};
    // Reservations of calls in flight (writer thread only): not yet written, by age, and those
    // whose reserved entry is committed.
    struct Unwritten {
        Reservation reservation;
        std::chrono::steady_clock::time_point since;
    };
    std::unordered_map<std::string, Unwritten> unwritten_;
    std::deque<std::string> unwritten_order_;
    std::unordered_set<std::string> written_;
    std::thread thread_;
};

}  // namespace lastro::billing
