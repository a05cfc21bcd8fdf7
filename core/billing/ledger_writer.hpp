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
// Who decides admission, and how a batch records it, is the AdmissionPolicy the options choose
// (admission_policy.hpp): where the process owns the database (SQLite, `decide_in_process`),
// admission does not wait for the writer at all: an AccountBook decides it in memory, and the
// writer records the reservation once its call has run for `reservation_write_delay` unsettled
// (a call settled sooner gets only its settled entry). Each call then waits for one durable
// commit, its settlement's. docs/billing.md, docs/performance.md.
//
// Before a batch, the writer reads each version that a settlement in it depends on
// (SettlementRequest::only_if) once, on its own connection; a settlement whose version changed
// is answered `outdated`, unwritten, so that its caller answers the call anew. The writer never
// learns what the version is, and runs no handler.
#pragma once

#include "core/billing/admission_policy.hpp"
#include "core/billing/batch_connection.hpp"
#include "core/billing/credit_ledger.hpp"
#include "core/billing/ledger_writer_options.hpp"

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
    using Pending = QueuedCall;
    using Outcome = QueuedCall::Outcome;

    void Enqueue(Pending pending);
    // Queues a reservation decided in the process, for the next batch (a stopping writer has
    // drained its queue: the call's settlement then answers 503).
    void WriteLater(const Reservation& reservation);
    // Moves the batch's TakenBack requests to the refunds owed (writer thread).
    void OweTakenBack(std::vector<Pending>& batch);
    // Takes out of `batch` the settlements whose precondition no longer holds, returned to be
    // answered `outdated` after the batch, unsettled; those whose version could not be read go
    // to `unread` (answered 503), with the reason in `unread_why`.
    std::vector<Pending> SetAsideOutdated(std::vector<Pending>& batch, std::vector<Pending>& unread,
                                          std::string& unread_why);
    std::variant<Admission, SettleResult> EnqueueAndWait(QueuedCall::Request request);
    void Run();
    void Fail(std::vector<Pending>& batch, const std::string& failure, bool skip_admissions);
    void Maintain(std::time_t now);

    odb::database& db_;
    LedgerWriterOptions options_;
    BatchConnection connection_;               // writer thread only
    std::unique_ptr<AdmissionPolicy> policy_;  // who decides admission, and how a batch writes it
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Pending> queue_;
    bool stopping_ = false;
    bool stopped_ = false;  // the policy was told, by Stop(), which may run twice
    std::atomic<bool> available_{true};
    std::size_t recovered_at_start_ = 0;
    // Settlements that could not be written: refunded by a later batch (their calls answered
    // 503, so nothing may stay charged or reserved for them).
    std::vector<SettlementRequest> owed_refunds_;
    std::time_t last_maintenance_ = 0;
    std::thread thread_;
};

}  // namespace lastro::billing
