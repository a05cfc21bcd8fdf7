#include "core/billing/account_book.hpp"

#include "core/billing/admission_rule.hpp"

#include <algorithm>

namespace lastro::billing {

AccountBook::Month& AccountBook::MonthOf(std::unique_lock<std::mutex>& lock, std::int64_t key_id,
                                         const std::string& month) {
    const std::string id = std::to_string(key_id) + ":" + month;
    if (auto it = months_.find(id); it != months_.end()) {
        return it->second;
    }
    // Not seen since start: no call of this key and month is in flight here, so the stored row
    // is settled and stable. Read it without holding up other keys; if another caller loaded it
    // meanwhile, theirs (which may already hold reservations) stays.
    lock.unlock();
    const StoredCredits stored = StoredCreditsOf(db_, key_id, month);
    lock.lock();
    return months_.try_emplace(id, Month{stored.charged, stored.reserved}).first->second;
}

CreditState AccountBook::StateOf(const Month& month, std::int64_t allowance, std::time_t now) const {
    return CreditStateOf(month.charged, month.reserved, allowance, now);
}

Admission AccountBook::Admit(const AdmissionRequest& request) {
    const std::time_t minute = MinuteOf(request.now);
    std::unique_lock lock(mutex_);
    Month& month = MonthOf(lock, request.key_id, billing::MonthOf(request.now));
    Window& window = windows_[request.key_id];
    if (window.minute != minute) {
        window = Window{minute, 0};
    }
    const AdmissionVerdict verdict = DecideAdmission(
        request,
        {request.calls_per_minute - window.calls, request.allowance - month.charged - month.reserved});
    if (verdict.counted) {
        ++window.calls;
    }
    if (verdict.reservation) {
        month.reserved += request.price;
    }
    return AdmissionOf(request, verdict, request.calls_per_minute - window.calls,
                       StateOf(month, request.allowance, request.now));
}

CreditState AccountBook::Settled(const Reservation& reservation, std::int64_t charged, std::int64_t allowance,
                                 std::time_t now) {
    std::unique_lock lock(mutex_);
    Month& reserved_in = MonthOf(lock, reservation.key_id, reservation.month);
    reserved_in.reserved = std::max<std::int64_t>(0, reserved_in.reserved - reservation.price);
    reserved_in.charged += charged;
    // The headers describe the month of the answer: after a month boundary, the new month.
    return StateOf(MonthOf(lock, reservation.key_id, billing::MonthOf(now)), allowance, now);
}

void AccountBook::Release(const Reservation& reservation) {
    std::unique_lock lock(mutex_);
    Month& reserved_in = MonthOf(lock, reservation.key_id, reservation.month);
    reserved_in.reserved = std::max<std::int64_t>(0, reserved_in.reserved - reservation.price);
}

void AccountBook::TakenBack(const Reservation& reservation) {
    std::unique_lock lock(mutex_);
    Month& charged_in = MonthOf(lock, reservation.key_id, reservation.month);
    charged_in.charged = std::max<std::int64_t>(0, charged_in.charged - reservation.price);
}

void AccountBook::ForgetMonthsBefore(const std::string& month) {
    std::lock_guard lock(mutex_);
    std::erase_if(months_, [&](const auto& entry) {
        const std::string& id = entry.first;
        return entry.second.reserved == 0 && id.substr(id.find(':') + 1) < month;
    });
}

}  // namespace lastro::billing
