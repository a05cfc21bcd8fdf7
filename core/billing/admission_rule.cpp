#include "core/billing/admission_rule.hpp"

#include <algorithm>

namespace lastro::billing {

AdmissionVerdict DecideAdmission(const AdmissionRequest& request, AdmissionRoom room) {
    AdmissionVerdict verdict;
    if (room.calls <= 0) {
        return verdict;
    }
    verdict.counted = true;
    if (request.price > 0) {
        if (request.price > room.credits) {
            return verdict;
        }
        verdict.reservation = Reservation{request.request_id,   request.key_id,    request.price,
                                          MonthOf(request.now), request.operation, request.now};
    }
    verdict.runs = true;
    return verdict;
}

Admission AdmissionOf(const AdmissionRequest& request, const AdmissionVerdict& verdict,
                      std::int64_t calls_remaining, CreditState credits) {
    Admission a;
    a.rate.limit = request.calls_per_minute;
    a.rate.reset_at = MinuteOf(request.now) + 60;
    a.rate.allowed = verdict.counted;
    a.rate.remaining = verdict.counted ? std::max<std::int64_t>(0, calls_remaining) : 0;
    a.reserved = verdict.runs;
    a.reservation = verdict.reservation;
    a.credits = credits;
    return a;
}

}  // namespace lastro::billing
