// Admission decided in memory, for a database that one lastrod owns (SQLite: one lastrod per
// database file, held by storage::ServingLock). Nobody else writes its usage rows, so a mirror
// of them in this process is the truth: a call is counted in its key's minute and its price
// reserved against the month's allowance under one mutex, without waiting for the ledger
// writer. The writer records the reservation (write-behind) and the settlement, and tells the
// book once a settlement is durable. On PostgreSQL, where several instances share the rows, the
// database decides instead (LedgerBatch::Admit). docs/billing.md, "Who decides".
#pragma once

#include "core/billing/credit_ledger.hpp"

#include <odb/database.hxx>

#include <cstdint>
#include <ctime>
#include <mutex>
#include <string>
#include <unordered_map>

namespace lastro::billing {

class AccountBook {
public:
    explicit AccountBook(odb::database& db) : db_(db) {}

    // The minute window, then the reservation; like LedgerBatch::Admit. Reads a key's stored
    // month once, on its first call of the month in this process.
    Admission Admit(const AdmissionRequest& request);
    // The reservation's settlement is durable: its price moves from reserved to charged
    // (`charged` > 0) or is released. Returns the key's credits in the month of `now`.
    CreditState Settled(const Reservation& reservation, std::int64_t charged, std::int64_t allowance,
                        std::time_t now);
    // The reservation ends without a charge (its settlement could not be written).
    void Release(const Reservation& reservation);
    // A charged call's charge is taken back (its answer never reached its client whole).
    void TakenBack(const Reservation& reservation);
    // Forgets months before `month` ("YYYY-MM") that hold no reservation.
    void ForgetMonthsBefore(const std::string& month);

private:
    struct Month {
        std::int64_t charged = 0;
        std::int64_t reserved = 0;
    };
    struct Window {
        std::time_t minute = 0;
        std::int64_t calls = 0;
    };

    // The key's month, loaded from the database when the book has not seen it; called with
    // `lock` held, which it releases while reading.
    Month& MonthOf(std::unique_lock<std::mutex>& lock, std::int64_t key_id, const std::string& month);
    CreditState StateOf(const Month& month, std::int64_t allowance, std::time_t now) const;

    odb::database& db_;
    std::mutex mutex_;
    std::unordered_map<std::string, Month> months_;     // "key:YYYY-MM"
    std::unordered_map<std::int64_t, Window> windows_;  // by key: its current minute
};

}  // namespace lastro::billing
