// How the ledger writer (ledger_writer.hpp) runs: its instance's name, its batches' size and time
// bound, and which admission strategy (admission_policy.hpp) the configuration chose.
#pragma once

#include "core/billing/lease_book.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <ctime>
#include <functional>
#include <optional>
#include <string>

namespace lastro::billing {

struct LedgerWriterOptions {
    std::string instance;                         // server.instance: names this process's reservations
    std::size_t max_batch = 512;                  // calls per transaction
    std::time_t stale_reservation_seconds = 600;  // older open reservations of any instance are refunded
    // The process owns the database (one lastrod per SQLite file): admission in memory
    // (AccountBook), and at start every open reservation is refunded, whoever made it.
    bool decide_in_process = false;
    // In the process, a reservation is written only once its call has run this long without
    // being settled; a call settled sooner gets its settled entry alone (one row written, not
    // three). A crash forgets the unwritten ones: their calls were never answered nor charged.
    std::chrono::milliseconds reservation_write_delay{1000};
    // PostgreSQL: admission decided in the process against credits and per-minute tokens leased
    // from the database (LeaseBook, docs/billing.md "Several instances"). Unset: the database
    // decides every admission.
    std::optional<LeaseSettings> leases{};
    // How long one batch may try to reach the database (lock waits and retries together) before
    // its calls are answered 503, unbilled: well under the client-facing timeouts
    // (billing.write_timeout_ms, docs/billing.md "The database away").
    std::chrono::milliseconds write_timeout{2000};
    // Told of each group commit that carried calls: how many, and how long it took (metrics).
    std::function<void(std::size_t, std::chrono::steady_clock::duration)> on_batch{};
};

}  // namespace lastro::billing
