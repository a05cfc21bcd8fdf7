#include "core/billing/deferred_reservations.hpp"

namespace lastro::billing {

void DeferredReservations::Decided(const Reservation& reservation, Clock::time_point now) {
    unwritten_.emplace(reservation.request_id, Unwritten{reservation, now});
    order_.push_back(reservation.request_id);
}

bool DeferredReservations::Forget(const std::string& request_id) {
    unwritten_.erase(request_id);
    return written_.erase(request_id) > 0;
}

std::vector<Reservation> DeferredReservations::Overdue(Clock::time_point now) {
    std::vector<Reservation> overdue;
    for (decided_ = 0; decided_ < order_.size(); ++decided_) {
        const auto it = unwritten_.find(order_[decided_]);
        if (it == unwritten_.end()) {
            continue;  // settled meanwhile
        }
        if (now - it->second.since < write_delay_) {
            break;
        }
        overdue.push_back(it->second.reservation);
    }
    return overdue;
}

void DeferredReservations::Wrote(const std::vector<Reservation>& overdue) {
    for (const Reservation& reservation : overdue) {
        unwritten_.erase(reservation.request_id);
        written_.insert(reservation.request_id);
    }
    order_.erase(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(decided_));
    decided_ = 0;
}

}  // namespace lastro::billing
