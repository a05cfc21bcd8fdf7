#include "core/billing/ledger_writer.hpp"

#include "billing_model-odb.hxx"
#include "core/billing/wall_clock.hpp"
#include "core/storage/billing_model.hxx"
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

constexpr std::time_t kMaintenanceSeconds = 60;  // stale reservations and old windows
constexpr std::time_t kWindowKeepSeconds = 3600;
constexpr std::size_t kMaxOwedRefunds = 100000;  // beyond: the stale rule refunds them

}  // namespace

LedgerWriter::LedgerWriter(odb::database& db, LedgerWriterOptions options)
    : db_(db), options_(std::move(options)), connection_(db, options_.write_timeout) {
    const std::time_t now = WallNow();
    recovered_at_start_ = RefundOpenReservations(
        db_, options_.instance, now - options_.stale_reservation_seconds, now, options_.decide_in_process);
    policy_ = MakeAdmissionPolicy(options_, connection_,
                                  [this](const Reservation& reservation) { WriteLater(reservation); });
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
    if (!stopped_) {
        stopped_ = true;
        policy_->Stopped();
    }
}

Admission LedgerWriter::Admit(AdmissionRequest request) {
    if (std::optional<Admission> decided = policy_->Admit(request)) {
        return *std::move(decided);
    }
    return std::get<Admission>(EnqueueAndWait(std::move(request)));
}

void LedgerWriter::WriteLater(const Reservation& reservation) {
    try {
        Enqueue(Pending{reservation, {}});
    } catch (const BillingUnavailable&) {
    }
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
            policy_->TakenBack(taken->settled.reservation);
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

std::variant<Admission, SettleResult> LedgerWriter::EnqueueAndWait(QueuedCall::Request request) {
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
        OweTakenBack(batch);
        std::vector<Pending> unread;
        std::string unread_why;
        std::vector<Pending> outdated = SetAsideOutdated(batch, unread, unread_why);
        const auto began = std::chrono::steady_clock::now();
        // Also when empty: reservations may be due for writing, refunds owed.
        const BatchOutcome outcome = policy_->Commit(batch, owed_refunds_, available_);
        // Only a write that reached the database says it is back: a batch whose settlements
        // found nothing to settle wrote nothing and proves nothing.
        if (!outcome.failure.empty()) {
            available_ = false;
            Fail(batch, outcome.failure, outcome.admissions_answered);
        } else if (outcome.wrote) {
            available_ = true;
        }
        if (options_.on_batch && !batch.empty()) {
            options_.on_batch(batch.size(), std::chrono::steady_clock::now() - began);
        }
        batch.clear();
        if (!unread.empty()) {
            // The database did not answer: answering these anew would meet it again (a read
            // that waits its own timeout), so they are 503 and refunded at once.
            available_ = false;
            Fail(unread, unread_why, false);
        }
        for (Pending& pending : outdated) {
            SettleResult result;
            result.outdated = true;
            pending.done(result);
        }
        if (available_ && !policy_->AfterBatch()) {  // while the database is away, Maintain() probes it
            available_ = false;
        }
        const std::time_t now = WallNow();
        // While the database is away this is also the probe, once a second, that notices its
        // return (and pays back the refunds owed meanwhile).
        if (now - last_maintenance_ >= (available_ ? kMaintenanceSeconds : 1)) {
            Maintain(now);
        }
    }
}

std::vector<LedgerWriter::Pending> LedgerWriter::SetAsideOutdated(std::vector<Pending>& batch,
                                                                  std::vector<Pending>& unread,
                                                                  std::string& unread_why) {
    auto condition = [](const Pending& p) -> const Precondition* {
        const auto* settlement = std::get_if<SettlementRequest>(&p.request);
        return settlement && settlement->only_if ? &*settlement->only_if : nullptr;
    };
    std::vector<Pending> outdated;
    if (std::none_of(batch.begin(), batch.end(), condition)) {
        return outdated;
    }
    // Each source read once, after every call of the batch arrived: a version read here is the
    // one it has now. When one cannot be read, the settlements that name it go to `unread`.
    std::vector<std::pair<VersionSource*, std::optional<std::int64_t>>> read;
    auto current = [&](VersionSource* source) -> std::optional<std::int64_t> {
        for (const auto& [seen, version] : read) {
            if (seen == source) {
                return version;
            }
        }
        std::optional<std::int64_t> version;
        try {
            const auto deadline = std::chrono::steady_clock::now() + options_.write_timeout;
            odb::connection& connection = connection_.Get(deadline);  // its page cache is warm
            storage::ReplyDeadline bound(connection, deadline);
            version = source->Current(connection);
        } catch (const std::exception& e) {
            connection_.Drop();
            unread_why = e.what();
        }
        read.emplace_back(source, version);
        return version;
    };
    std::vector<Pending> kept;
    kept.reserve(batch.size());
    for (Pending& pending : batch) {
        const Precondition* only_if = condition(pending);
        const std::optional<std::int64_t> now = only_if ? current(only_if->source) : std::nullopt;
        if (only_if && !now) {
            unread.push_back(std::move(pending));
        } else if (only_if && *now != only_if->version) {
            outdated.push_back(std::move(pending));
        } else {
            kept.push_back(std::move(pending));
        }
    }
    batch = std::move(kept);
    return outdated;
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
            // The strategy says whether the call's reservation may be in the ledger, and releases
            // what it held of it.
            if (policy_->Lost(*settlement) && owed_refunds_.size() < kMaxOwedRefunds) {
                SettlementRequest refund = *settlement;
                refund.status = 503;
                // The batch may have committed after all (a reply lost, not the commit): a
                // charge it recorded for this call, answered 503, is taken back.
                refund.reverse_charge = true;
                owed_refunds_.push_back(refund);
            }
        }
        pending.done(std::make_exception_ptr(
            BillingUnavailable("the credit ledger could not be written: " + failure)));
    }
}

void LedgerWriter::Maintain(std::time_t now) {
    last_maintenance_ = now;
    policy_->Maintain(now);
    // One transaction on the writer's connection, bounded like a batch: while the database is
    // away this runs once a second as the probe, and must not hold the calls queued behind it.
    try {
        const auto deadline = std::chrono::steady_clock::now() + options_.write_timeout;
        odb::connection& connection = connection_.Get(deadline);
        storage::ReplyDeadline bound(connection, deadline);
        odb::transaction t(storage::BeginWrite(connection));
        if (!available_) {
            // The probe writes: a transaction that changes nothing commits without writing a
            // page, even on a full disk, and would say the database is back while every billed
            // write still fails. A row put and taken away again dirties a page, so the commit
            // reaches the disk (and never leaves the row behind).
            storage::RateWindow probe{"probe:" + options_.instance, 0, now, 0};
            db_.persist(probe);
            db_.erase(probe);
        }
        RefundOpenReservationsIn(db_, std::nullopt, now - options_.stale_reservation_seconds, now);
        ForgetRateWindowsIn(db_, now - kWindowKeepSeconds);
        LedgerBatch ledger(db_, options_.instance);
        const bool pays = policy_->MaintenancePaysRefunds();  // else the strategy's batches do
        if (pays) {
            for (const SettlementRequest& owed : owed_refunds_) {
                ledger.Settle(owed);
            }
        }
        ledger.Flush();
        t.commit();
        if (pays) {
            owed_refunds_.clear();
        }
        available_ = true;
    } catch (const std::exception&) {
        connection_.Drop();
        available_ = false;
    }
}

}  // namespace lastro::billing
