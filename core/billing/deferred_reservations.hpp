// Reservations decided in this process (by the AccountBook or the LeaseBook) and written behind
// their calls: a call settled within the write delay gets its settled entry alone (one row
// written, not three); one still running after it gets its reservation written, so that a crash
// leaves it for the start-up recovery rule. Tracks which reservations are unwritten, by age, and
// which are written. Owned by the writer's thread: not thread-safe.
#pragma once

#include "core/billing/credit_ledger.hpp"

#include <chrono>
#include <deque>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace lastro::billing {

class DeferredReservations {
public:
    using Clock = std::chrono::steady_clock;

    explicit DeferredReservations(Clock::duration write_delay) : write_delay_(write_delay) {}

    // A reservation decided, to be written if its call runs longer than the delay.
    void Decided(const Reservation& reservation, Clock::time_point now);
    // Its settlement arrived before it was written: it is never to be written on its own.
    void SettledUnwritten(const std::string& request_id) { unwritten_.erase(request_id); }
    bool Written(const std::string& request_id) const { return written_.contains(request_id); }
    // The call is over (settled, or failed): forgotten. Returns whether its reservation had been
    // written.
    bool Forget(const std::string& request_id);

    // The reservations unsettled for longer than the delay, oldest first, for the batch to write.
    std::vector<Reservation> Overdue(Clock::time_point now);
    // The batch that wrote Overdue()'s committed (or there were none): they are written. After a
    // failed batch nothing is called, and the next Overdue() goes through them again.
    void Wrote(const std::vector<Reservation>& overdue);

private:
    struct Unwritten {
        Reservation reservation;
        Clock::time_point since;
    };
    Clock::duration write_delay_;
    std::unordered_map<std::string, Unwritten> unwritten_;
    std::deque<std::string> order_;  // request ids by age; settled ones are skipped
    std::size_t decided_ = 0;        // how many names of order_ the last Overdue() went through
    std::unordered_set<std::string> written_;
};

}  // namespace lastro::billing
