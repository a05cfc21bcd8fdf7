// The admission part of the request pipeline, a facade over billing: whether an authenticated
// call may run (its key's per-minute count, then its price reserved against the month), its
// settlement once answered (charged or refunded by the status, durable before the answer
// leaves), and a charge taken back when the answer never reached its client. Owns the ledger
// writer and the strategy the configuration chose (billing/admission_policy.hpp).
// docs/billing.md.
#pragma once

#include "core/auth/authentication.hpp"
#include "core/billing/ledger_writer.hpp"
#include "core/request/refusal.hpp"

#include <odb/database.hxx>

#include <cstdint>
#include <ctime>
#include <functional>
#include <optional>
#include <string>

namespace lastro::admission {

// What the gate decided, with the figures every /v1 answer's headers carry.
struct Decision {
    billing::RateDecision rate;
    billing::CreditState credits;
    std::optional<billing::Reservation> reservation;  // set when a price above 0 was reserved
    std::optional<request::Refusal> refusal;          // 429 or 503: nothing reserved
};

class AdmissionGate {
public:
    // Starts the ledger writer on `billing` (which first refunds what a previous run of this
    // instance left open).
    AdmissionGate(odb::database& billing, billing::LedgerWriterOptions options)
        : ledger_(billing, std::move(options)) {}

    // A call of `operation` costing `price` (0: an included page, or a path no operation
    // prices, only counted in the minute).
    Decision Admit(const std::string& request_id, const auth::Caller& caller, const std::string& operation,
                   std::int64_t price, std::time_t now);

    // Settles a reservation by the answer's status, then runs `then` on the writer's thread once
    // durable (or with the error that kept it from being written).
    void Settle(billing::SettlementRequest settlement,
                std::function<void(billing::LedgerWriter::SettleOutcome)> then) {
        ledger_.SettleAsync(std::move(settlement), std::move(then));
    }
    // A charged answer that never reached its client whole: the charge is taken back.
    void TakeBack(billing::SettlementRequest charged) { ledger_.TakeBack(std::move(charged)); }

    bool DatabaseAvailable() const { return ledger_.DatabaseAvailable(); }
    std::size_t RecoveredReservations() const { return ledger_.RecoveredAtStart(); }
    // After the transport stopped: the settlements queued are written and answered.
    void Stop() { ledger_.Stop(); }

private:
    billing::LedgerWriter ledger_;
};

}  // namespace lastro::admission
