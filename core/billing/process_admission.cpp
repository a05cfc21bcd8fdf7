// The process decides admission (SQLite: one lastrod owns the database, so its mirror of the
// usage rows is the truth): the AccountBook decides in memory, the reservation is written behind
// its call (DeferredReservations), and a batch records the settlements.
#include "core/billing/account_book.hpp"
#include "core/billing/admission_policy.hpp"
#include "core/billing/deferred_reservations.hpp"

#include "core/storage/database.hpp"

#include <odb/transaction.hxx>

namespace lastro::billing {
namespace {

class ProcessAdmission final : public AdmissionPolicy {
public:
    ProcessAdmission(const LedgerWriterOptions& options, BatchConnection& connection,
                     std::function<void(const Reservation&)> write_later)
        : options_(options),
          connection_(connection),
          write_later_(std::move(write_later)),
          book_(connection.Database()),
          deferred_(options.reservation_write_delay) {}

    std::optional<Admission> Admit(const AdmissionRequest& request) override {
        Admission admission = book_.Admit(request);
        if (admission.reservation) {
            write_later_(*admission.reservation);  // the call goes on meanwhile
        }
        return admission;
    }

    BatchOutcome Commit(std::vector<QueuedCall>& batch, std::vector<SettlementRequest>& owed_refunds,
                        bool available) override;

    bool Lost(const SettlementRequest& settlement) override {
        // Only a reservation already written is in the ledger; the book releases the price in any case.
        const bool written = deferred_.Forget(settlement.reservation.request_id);
        book_.Release(settlement.reservation);
        return written;
    }
    void TakenBack(const Reservation& reservation) override { book_.TakenBack(reservation); }
    void Maintain(std::time_t now) override { book_.ForgetMonthsBefore(MonthOf(now - 32 * 24 * 3600)); }

private:
    const LedgerWriterOptions& options_;
    BatchConnection& connection_;
    std::function<void(const Reservation&)> write_later_;
    AccountBook book_;
    DeferredReservations deferred_;  // writer thread only
};

BatchOutcome ProcessAdmission::Commit(std::vector<QueuedCall>& batch,
                                      std::vector<SettlementRequest>& owed_refunds, bool available) {
    BatchOutcome outcome;
    const auto now = std::chrono::steady_clock::now();
    std::vector<SettleResult> results(batch.size());
    std::vector<SettlementRequest> settlements = owed_refunds;
    for (const QueuedCall& p : batch) {
        if (const auto* reservation = std::get_if<Reservation>(&p.request)) {
            deferred_.Decided(*reservation, now);
        } else if (const auto* settlement = std::get_if<SettlementRequest>(&p.request)) {
            deferred_.SettledUnwritten(settlement->reservation.request_id);
            settlements.push_back(*settlement);
        }
    }
    const std::vector<Reservation> overdue = deferred_.Overdue(now);
    // Refunds owed are paid by the next batch; alone, only while the database answers (when it
    // is away, the writer's maintenance probes it once a second and pays them on its return).
    if (batch.empty() && overdue.empty() && (owed_refunds.empty() || !available)) {
        deferred_.Wrote(overdue);
        return outcome;
    }
    const auto deadline = now + connection_.WriteTimeout();
    outcome.failure = connection_.WithRetries(deadline, [&](odb::connection& connection) {
        odb::transaction t(storage::BeginWrite(connection));
        LedgerBatch ledger(connection_.Database(), options_.instance);
        ledger.Lock({}, settlements);
        for (const SettlementRequest& owed : owed_refunds) {
            ledger.Settle(owed);
        }
        for (const Reservation& reservation : overdue) {
            ledger.Reserve(reservation);
        }
        for (std::size_t i = 0; i < batch.size(); ++i) {
            if (const auto* settlement = std::get_if<SettlementRequest>(&batch[i].request)) {
                results[i] = deferred_.Written(settlement->reservation.request_id)
                                 ? ledger.Settle(*settlement)
                                 : ledger.Record(*settlement);
            }
        }
        ledger.Flush();
        outcome.wrote = ledger.Wrote();
        t.commit();
        owed_refunds.clear();
    });
    if (!outcome.failure.empty()) {
        return outcome;  // the overdue reservations stay unwritten, for the next batch
    }
    deferred_.Wrote(overdue);
    for (std::size_t i = 0; i < batch.size(); ++i) {
        if (const auto* settlement = std::get_if<SettlementRequest>(&batch[i].request)) {
            deferred_.Forget(settlement->reservation.request_id);
            results[i].credits = book_.Settled(settlement->reservation, results[i].charged,
                                               settlement->allowance, settlement->now);
            batch[i].done(std::move(results[i]));
        }
    }
    return outcome;
}

}  // namespace

std::unique_ptr<AdmissionPolicy> ProcessDecides(const LedgerWriterOptions& options,
                                                BatchConnection& connection,
                                                std::function<void(const Reservation&)> write_later) {
    return std::make_unique<ProcessAdmission>(options, connection, std::move(write_later));
}

}  // namespace lastro::billing
