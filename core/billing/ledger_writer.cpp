#include "core/billing/ledger_writer.hpp"

#include "core/storage/database.hpp"

#include <odb/exceptions.hxx>
#include <odb/transaction.hxx>

#include <chrono>
#include <ctime>

namespace lastro::billing {
namespace {

constexpr int kAttempts = 3;                     // per batch, on busy/deadlock/lost connection
constexpr std::time_t kMaintenanceSeconds = 60;  // stale reservations and old windows
constexpr std::time_t kWindowKeepSeconds = 3600;
constexpr std::size_t kMaxOwedRefunds = 100000;  // beyond: the stale rule refunds them

}  // namespace

LedgerWriter::LedgerWriter(odb::database& db, LedgerWriterOptions options)
    : db_(db), options_(std::move(options)) {
    const std::time_t now = std::time(nullptr);
    recovered_at_start_ = RefundOpenReservations(
        db_, options_.instance, now - options_.stale_reservation_seconds, now, options_.decide_in_process);
    if (options_.decide_in_process) {
        book_ = std::make_unique<AccountBook>(db_);
    }
    last_maintenance_ = now;
    thread_ = std::thread([this] { Run(); });
}

LedgerWriter::~LedgerWriter() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    thread_.join();
}

Admission LedgerWriter::Admit(AdmissionRequest request) {
    if (!book_) {
        return std::get<Admission>(Enqueue(std::move(request)));
    }
    Admission admission = book_->Admit(request);
    if (admission.reservation) {
        // Written with the next batch; the call goes on meanwhile.
        {
            std::lock_guard lock(mutex_);
            queue_.push_back(Pending{*admission.reservation, {}});
        }
        wake_.notify_one();
    }
    return admission;
}

SettleResult LedgerWriter::Settle(SettlementRequest request) {
    return std::get<SettleResult>(Enqueue(std::move(request)));
}

std::variant<Admission, SettleResult> LedgerWriter::Enqueue(Request request) {
    std::future<std::variant<Admission, SettleResult>> result;
    {
        std::lock_guard lock(mutex_);
        if (stopping_) {
            throw BillingUnavailable("the server is stopping");
        }
        queue_.push_back(Pending{std::move(request), {}});
        result = queue_.back().done.get_future();
    }
    wake_.notify_one();
    return result.get();
}

void LedgerWriter::Run() {
    std::vector<Pending> batch;
    for (;;) {
        {
            std::unique_lock lock(mutex_);
            wake_.wait_for(lock, std::chrono::seconds(1), [this] { return stopping_ || !queue_.empty(); });
            if (queue_.empty() && stopping_) {
                return;
            }
            while (!queue_.empty() && batch.size() < options_.max_batch) {
                batch.push_back(std::move(queue_.front()));
                queue_.pop_front();
            }
        }
        if (!batch.empty()) {
            if (book_) {
                CommitInProcess(batch);
            } else {
                Commit(batch);
            }
            batch.clear();
        }
        const std::time_t now = std::time(nullptr);
        // While the database is away this is also the probe, once a second, that notices its
        // return (and pays back the refunds owed meanwhile).
        if (now - last_maintenance_ >= (available_ ? kMaintenanceSeconds : 1)) {
            Maintain(now);
        }
    }
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
    std::string failure;
    bool wrote = false;
    bool admissions_released = false;
    for (int attempt = 1; attempt <= kAttempts && !admissions_released; ++attempt) {
        try {
            odb::transaction t(storage::BeginWrite(db_));
            LedgerBatch ledger(db_, options_.instance);
            ledger.Lock(admissions, settlements);
            for (const SettlementRequest& owed : owed_refunds_) {
                ledger.Settle(owed);
            }
            for (std::size_t i = 0; i < batch.size(); ++i) {
                if (auto* admission = std::get_if<AdmissionRequest>(&batch[i].request)) {
                    results[i] = ledger.Admit(*admission);
                } else {
                    results[i] = ledger.Settle(std::get<SettlementRequest>(batch[i].request));
                }
            }
            ledger.Flush();
            wrote = ledger.Wrote();
            // Decided under the write lock: admitted calls may run while the commit syncs.
            for (std::size_t i = 0; i < batch.size(); ++i) {
                if (std::holds_alternative<AdmissionRequest>(batch[i].request)) {
                    batch[i].done.set_value(std::move(results[i]));
                }
            }
            admissions_released = true;
            t.commit();
            failure.clear();
            owed_refunds_.clear();
        } catch (const odb::recoverable& e) {
            failure = e.what();
            if (!admissions_released) {
                std::this_thread::sleep_for(std::chrono::milliseconds(1 << attempt));
            }
        } catch (const std::exception& e) {
            failure = e.what();
            break;
        }
    }
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
        if (!(admission && admissions_released)) {  // admissions were answered already
            batch[i].done.set_value(std::move(results[i]));
        }
    }
}

void LedgerWriter::CommitInProcess(std::vector<Pending>& batch) {
    std::vector<SettleResult> results(batch.size());
    std::vector<SettlementRequest> settlements = owed_refunds_;
    std::unordered_set<std::string> settled_here;
    for (const Pending& p : batch) {
        if (auto* settlement = std::get_if<SettlementRequest>(&p.request)) {
            settlements.push_back(*settlement);
            settled_here.insert(settlement->reservation.request_id);
        }
    }
    std::string failure;
    bool wrote = false;
    for (int attempt = 1; attempt <= kAttempts; ++attempt) {
        try {
            odb::transaction t(storage::BeginWrite(db_));
            LedgerBatch ledger(db_, options_.instance);
            ledger.Lock({}, settlements);
            for (const SettlementRequest& owed : owed_refunds_) {
                ledger.Settle(owed);
            }
            for (std::size_t i = 0; i < batch.size(); ++i) {
                if (auto* reservation = std::get_if<Reservation>(&batch[i].request)) {
                    // Settled in this same batch: only the settled entry is written.
                    if (!settled_here.contains(reservation->request_id)) {
                        ledger.Reserve(*reservation);
                    }
                } else {
                    const auto& settlement = std::get<SettlementRequest>(batch[i].request);
                    results[i] = written_.contains(settlement.reservation.request_id)
                                     ? ledger.Settle(settlement)
                                     : ledger.Record(settlement);
                }
            }
            ledger.Flush();
            wrote = ledger.Wrote();
            t.commit();
            failure.clear();
            owed_refunds_.clear();
            break;
        } catch (const odb::recoverable& e) {
            failure = e.what();
            std::this_thread::sleep_for(std::chrono::milliseconds(1 << attempt));
        } catch (const std::exception& e) {
            failure = e.what();
            break;
        }
    }
    if (!failure.empty()) {
        available_ = false;
        Fail(batch, failure, false);
        return;
    }
    if (wrote) {
        available_ = true;
    }
    for (std::size_t i = 0; i < batch.size(); ++i) {
        if (auto* reservation = std::get_if<Reservation>(&batch[i].request)) {
            if (!settled_here.contains(reservation->request_id)) {
                written_.insert(reservation->request_id);
            }
            continue;
        }
        const auto& settlement = std::get<SettlementRequest>(batch[i].request);
        written_.erase(settlement.reservation.request_id);
        results[i].credits =
            book_->Settled(settlement.reservation, results[i].charged, settlement.allowance, settlement.now);
        batch[i].done.set_value(std::move(results[i]));
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
            // Where the database decides, every reservation is in it; where the process does,
            // only those already written are, and the book releases the price in any case.
            const bool stored = !book_ || written_.erase(id) > 0;
            if (stored && owed_refunds_.size() < kMaxOwedRefunds) {
                SettlementRequest refund = *settlement;
                refund.status = 503;
                owed_refunds_.push_back(refund);
            }
            if (book_) {
                book_->Release(settlement->reservation);
            }
        }
        pending.done.set_exception(std::make_exception_ptr(
            BillingUnavailable("the credit ledger could not be written: " + failure)));
    }
}

void LedgerWriter::Maintain(std::time_t now) {
    last_maintenance_ = now;
    if (book_) {
        book_->ForgetMonthsBefore(MonthOf(now - 32 * 24 * 3600));
    }
    try {
        RefundOpenReservations(db_, std::nullopt, now - options_.stale_reservation_seconds, now);
        ForgetRateWindows(db_, now - kWindowKeepSeconds);
        if (!owed_refunds_.empty()) {
            storage::WithWriteTransaction(db_, [&] {
                LedgerBatch ledger(db_, options_.instance);
                for (const SettlementRequest& owed : owed_refunds_) {
                    ledger.Settle(owed);
                }
                ledger.Flush();
            });
            owed_refunds_.clear();
            available_ = true;
        }
    } catch (const std::exception&) {
        available_ = false;
    }
}

}  // namespace lastro::billing
