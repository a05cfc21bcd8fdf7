// Who decides whether a billed call may run, and how a batch of the ledger writer records what
// was decided: one interface, three strategies, chosen by configuration (MakeAdmissionPolicy):
//   - the database decides (PostgreSQL, billing.lease_seconds = 0): each admission waits for a
//     batch, which decides it under the usage row's lock (LedgerBatch::Admit);
//   - the process decides (SQLite, which one lastrod owns): an AccountBook in memory, the
//     reservations written behind their calls (DeferredReservations);
//   - the process decides against leases (PostgreSQL, several instances): a LeaseBook spends
//     credits and per-minute tokens leased from the database, and a batch leases more.
// Every strategy asks the one admission rule (admission_rule.hpp) with the room it knows.
// The writer (ledger_writer.hpp) owns the queue, the thread, the refunds owed and availability;
// a strategy owns its book and what it has not written yet. docs/billing.md, "Who decides".
#pragma once

#include "core/billing/batch_connection.hpp"
#include "core/billing/credit_ledger.hpp"
#include "core/billing/lease_book.hpp"
#include "core/billing/ledger_writer_options.hpp"

#include <chrono>
#include <ctime>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace lastro::billing {

// A charged call whose charge is to be taken back (LedgerWriter::TakeBack).
struct TakenBack {
    SettlementRequest settled;
};

// A call queued for the writer: an admission or a settlement waiting for its result, or a
// reservation decided in the process or a charge taken back, to be written (nobody waits for
// them; the writer owes the charges back before a strategy sees the batch).
struct QueuedCall {
    using Request = std::variant<AdmissionRequest, SettlementRequest, Reservation, TakenBack>;
    using Outcome = std::variant<Admission, SettleResult, std::exception_ptr>;
    Request request;
    std::function<void(Outcome)> done;  // empty for a reservation
};

// What a strategy's batch did: `failure` empty when it committed. On failure the writer answers
// the batch's calls 503 (but admissions already answered) and owes back what they reserved.
struct BatchOutcome {
    std::string failure;
    bool admissions_answered = false;
    bool wrote = false;  // it reached the database with a write: the database is back
};

class AdmissionPolicy {
public:
    virtual ~AdmissionPolicy() = default;

    // On the request's thread: the admission decided without the writer, or nullopt when the
    // call must wait for a batch. A reservation decided here is handed to `write_later`.
    virtual std::optional<Admission> Admit(const AdmissionRequest& request) = 0;

    // On the writer's thread: records the batch (the admissions waiting, the reservations decided,
    // the settlements) and `owed_refunds` (cleared once written) in its transactions, then answers
    // every call of the batch that waits; on failure answers none and says why. `available`: the
    // last write reached the database. An empty batch may still have reservations due.
    virtual BatchOutcome Commit(std::vector<QueuedCall>& batch, std::vector<SettlementRequest>& owed_refunds,
                                bool available) = 0;
    // After each batch, while the database answers (leases renewed and returned). Returns false
    // when a write of its own found the database away.
    virtual bool AfterBatch() { return true; }

    // A settlement of a failed batch: its call is answered 503. Returns whether its reservation
    // may be in the ledger (then a refund is owed).
    virtual bool Lost(const SettlementRequest& settlement) = 0;
    // A charged call's charge is being taken back (its answer never reached its client whole).
    virtual void TakenBack(const Reservation&) {}
    // Once a minute, and once a second while the database is away.
    virtual void Maintain(std::time_t) {}
    // Whether the writer's maintenance pays the refunds owed (a leased batch pays them itself).
    virtual bool MaintenancePaysRefunds() const { return true; }
    // The writer's thread has stopped: nothing runs any more.
    virtual void Stopped() {}
};

// The strategies. `connection` is the writer's; `write_later` queues a reservation decided in the
// process for the writer's next batch.
std::unique_ptr<AdmissionPolicy> DatabaseDecides(const LedgerWriterOptions& options,
                                                 BatchConnection& connection);
std::unique_ptr<AdmissionPolicy> ProcessDecides(const LedgerWriterOptions& options,
                                                BatchConnection& connection,
                                                std::function<void(const Reservation&)> write_later);
// Starting, returns what this instance leased in its last run (a crash may have left it).
std::unique_ptr<AdmissionPolicy> LeasedDecides(const LedgerWriterOptions& options,
                                               BatchConnection& connection,
                                               std::function<void(const Reservation&)> write_later);

// The strategy the options choose: the process's when it owns the database (decide_in_process),
// leases on PostgreSQL when they are set, else the database's.
std::unique_ptr<AdmissionPolicy> MakeAdmissionPolicy(const LedgerWriterOptions& options,
                                                     BatchConnection& connection,
                                                     std::function<void(const Reservation&)> write_later);

}  // namespace lastro::billing
