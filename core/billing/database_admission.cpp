// The database decides every admission (PostgreSQL without leases): a call waits for the writer's
// batch, which locks the rows the batch needs, settles, admits and commits (LedgerBatch).
#include "core/billing/admission_policy.hpp"

#include "core/storage/database.hpp"

#include <odb/transaction.hxx>

namespace lastro::billing {
namespace {

class DatabaseAdmission final : public AdmissionPolicy {
public:
    DatabaseAdmission(const LedgerWriterOptions& options, BatchConnection& connection)
        : options_(options), connection_(connection) {}

    std::optional<Admission> Admit(const AdmissionRequest&) override { return std::nullopt; }

    BatchOutcome Commit(std::vector<QueuedCall>& batch, std::vector<SettlementRequest>& owed_refunds,
                        bool available) override;

    bool Lost(const SettlementRequest&) override { return true; }  // every reservation is in the ledger

private:
    const LedgerWriterOptions& options_;
    BatchConnection& connection_;
};

BatchOutcome DatabaseAdmission::Commit(std::vector<QueuedCall>& batch,
                                       std::vector<SettlementRequest>& owed_refunds, bool available) {
    BatchOutcome outcome;
    if (batch.empty() && (owed_refunds.empty() || !available)) {
        return outcome;
    }
    std::vector<std::variant<Admission, SettleResult>> results(batch.size());
    std::vector<AdmissionRequest> admissions;
    std::vector<SettlementRequest> settlements = owed_refunds;
    for (const QueuedCall& p : batch) {
        if (auto* a = std::get_if<AdmissionRequest>(&p.request)) {
            admissions.push_back(*a);
        } else if (auto* settlement = std::get_if<SettlementRequest>(&p.request)) {
            settlements.push_back(*settlement);
        }
    }
    const auto deadline = std::chrono::steady_clock::now() + connection_.WriteTimeout();
    // Once the admissions were answered, the batch is not tried again: they stand or fall with
    // this commit (their settlements find no reservation if it failed).
    outcome.failure = connection_.WithRetries(
        deadline,
        [&](odb::connection& connection) {
            odb::transaction t(storage::BeginWrite(connection));
            LedgerBatch ledger(connection_.Database(), options_.instance);
            ledger.Lock(admissions, settlements);
            // Settlements first (the refunds owed, then the batch's): what they release is
            // there for the batch's admissions.
            std::vector<SettleResult> settled = ledger.SettleAll(settlements);
            for (std::size_t i = 0, k = owed_refunds.size(); i < batch.size(); ++i) {
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
            outcome.wrote = ledger.Wrote();
            // Decided under the write lock: admitted calls may run while the commit syncs.
            for (std::size_t i = 0; i < batch.size(); ++i) {
                if (std::holds_alternative<AdmissionRequest>(batch[i].request)) {
                    batch[i].done(std::get<Admission>(std::move(results[i])));
                }
            }
            outcome.admissions_answered = true;
            t.commit();
            owed_refunds.clear();
        },
        [&] { return !outcome.admissions_answered; });
    if (!outcome.failure.empty()) {
        return outcome;
    }
    for (std::size_t i = 0; i < batch.size(); ++i) {
        if (std::holds_alternative<AdmissionRequest>(batch[i].request)) {
            continue;  // answered already
        }
        if (std::holds_alternative<SettlementRequest>(batch[i].request)) {
            batch[i].done(std::get<SettleResult>(std::move(results[i])));
        }
    }
    return outcome;
}

}  // namespace

std::unique_ptr<AdmissionPolicy> DatabaseDecides(const LedgerWriterOptions& options,
                                                 BatchConnection& connection) {
    return std::make_unique<DatabaseAdmission>(options, connection);
}

}  // namespace lastro::billing
