// Monthly credits per key: reserve the price before a call, settle it after (contract section
// 3). Each step is one durable transaction in the database, so several server instances share
// one truth (docs/billing.md). Months are calendar months in UTC.
#pragma once

#include "core/billing/settlement.hpp"

#include <odb/database.hxx>

#include <cstdint>
#include <ctime>
#include <optional>
#include <string>

namespace lastro::billing {

struct CreditState {
    std::int64_t limit = 0;      // the month's allowance
    std::int64_t remaining = 0;  // allowance - charged - reserved
    std::time_t reset_at = 0;    // epoch seconds of the next month's start (UTC)
};

struct Reservation {
    std::string request_id;
    std::int64_t key_id = 0;
    std::string operation;
    std::int64_t price = 0;
    std::string month;  // YYYY-MM (UTC) of the reservation
};

struct ReserveResult {
    bool reserved = false;  // false: the allowance cannot cover the price (429)
    CreditState state;
    std::optional<Reservation> reservation;
};

struct SettleResult {
    std::int64_t charged = 0;
    CreditState state;
};

// "YYYY-MM" of `now` in UTC, and the epoch second the next month starts.
std::string MonthOf(std::time_t now);
std::time_t NextMonthStart(std::time_t now);

class CreditLedger {
public:
    explicit CreditLedger(odb::database& db) : db_(db) {}

    ReserveResult Reserve(const std::string& request_id, std::int64_t key_id, std::int64_t allowance,
                          const std::string& operation, std::int64_t price, std::time_t now);
    // Settles by the HTTP status through SettlementFor(); durable when it returns.
    SettleResult Settle(const Reservation& reservation, std::int64_t allowance, int status, std::time_t now);
    // The month's state without changing it.
    CreditState State(std::int64_t key_id, std::int64_t allowance, std::time_t now);

private:
    odb::database& db_;
};

}  // namespace lastro::billing
