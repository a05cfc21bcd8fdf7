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
    recovered_at_start_ =
        RefundOpenReservations(db_, options_.instance, now - options_.stale_reservation_seconds, now);
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
    return std::get<Admission>(Enqueue(std::move(request)));
}

SettleResult LedgerWriter::Settle(SettlementRequest request) {
    return std::get<SettleResult>(Enqueue(std::move(request)));
}

std::variant<Admission, SettleResult> LedgerWriter::Enqueue(
    std::variant<AdmissionRequest, SettlementRequest> request) {
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
            Commit(batch);
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
        } else {
            settlements.push_back(std::get<SettlementRequest>(p.request));
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
    } else if (wrote) {
        available_ = true;
    }
    for (std::size_t i = 0; i < batch.size(); ++i) {
        const bool admission = std::holds_alternative<AdmissionRequest>(batch[i].request);
        if (admission && admissions_released) {
            continue;  // answered already; a failed commit shows at its settlement
        }
        if (failure.empty()) {
            batch[i].done.set_value(std::move(results[i]));
            continue;
        }
        // The call will be answered 503: whatever it had reserved is owed back.
        if (auto* settlement = std::get_if<SettlementRequest>(&batch[i].request)) {
            if (owed_refunds_.size() < kMaxOwedRefunds) {
                SettlementRequest refund = *settlement;
                refund.status = 503;
                owed_refunds_.push_back(refund);
            }
        }
        batch[i].done.set_exception(std::make_exception_ptr(
            BillingUnavailable("the credit ledger could not be written: " + failure)));
    }
}

void LedgerWriter::Maintain(std::time_t now) {
    last_maintenance_ = now;
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
