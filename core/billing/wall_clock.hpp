// The wall clock billing goes by: calendar months of the allowance, minutes of the per-minute
// limit, the times the ledger records. The system's, unless the environment sets a test clock:
// LASTRO_TEST_CLOCK=YYYY-MM-DDTHH:MM:SSZ starts it at that instant when the process starts and
// lets it run at the real pace, so that a test sees a month turn without waiting for one
// (tests/month_rollover_test.cpp; docs/testing.md). Monotonic clocks (timeouts, batches) are
// never shifted.
#pragma once

#include <ctime>
#include <optional>
#include <string>

namespace lastro::billing {

std::time_t WallNow();

// The test clock's start when LASTRO_TEST_CLOCK is set (lastrod says so when it starts);
// throws std::invalid_argument naming the variable when it is set but not such an instant.
std::optional<std::string> TestClockStart();

}  // namespace lastro::billing
