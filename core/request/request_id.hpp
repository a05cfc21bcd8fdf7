// Request ids: RFC 9562 version 7 UUIDs (Unix milliseconds, then random bits). Time-ordered,
// so the credit ledger, keyed by request id, takes its inserts at the end of its index instead
// of on a random page each (fewer pages per group commit), and ids sort by arrival.
#pragma once

#include <chrono>
#include <string>

namespace lastro::request {

std::string NewRequestId(std::chrono::system_clock::time_point now = std::chrono::system_clock::now());

}  // namespace lastro::request
