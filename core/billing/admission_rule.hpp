// The admission rule of contract section 3, alone and pure: a call counts in its key's minute
// when the minute has a call left, and runs when its price also fits in what the month has left.
// Every strategy that admits calls (the database's batch, LedgerBatch; the process's book,
// AccountBook; the book of leases, LeaseBook) knows its room differently and asks this rule.
#pragma once

#include "core/billing/credit_ledger.hpp"

#include <cstdint>
#include <optional>

namespace lastro::billing {

// What the key has left where the decision is taken: calls in its current minute and credits in
// its month (the database's figures, the process's mirror of them, or what this instance leased).
struct AdmissionRoom {
    std::int64_t calls = 0;
    std::int64_t credits = 0;
};

struct AdmissionVerdict {
    // Within the minute's limit: the call counts, whatever its outcome later (a refund never
    // lowers the count).
    bool counted = false;
    // Counted and its price fits: it runs. Its reservation is set when the price is above 0.
    bool runs = false;
    std::optional<Reservation> reservation;
};

AdmissionVerdict DecideAdmission(const AdmissionRequest& request, AdmissionRoom room);

// The Admission answered for `request`: the verdict with the rate figures (`calls_remaining`
// after it) and the key's credits.
Admission AdmissionOf(const AdmissionRequest& request, const AdmissionVerdict& verdict,
                      std::int64_t calls_remaining, CreditState credits);

// The UTC minute of `now` (epoch seconds of its start).
inline std::time_t MinuteOf(std::time_t now) {
    return now - now % 60;
}

}  // namespace lastro::billing
