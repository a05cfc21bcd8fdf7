#include "core/billing/wall_clock.hpp"

#include <chrono>
#include <cstdlib>
#include <stdexcept>

namespace lastro::billing {

namespace {

struct Shift {
    std::optional<std::string> start_text;
    std::time_t start = 0;
    std::chrono::steady_clock::time_point since;
};

const Shift& TheShift() {
    static const Shift shift = [] {
        Shift s;
        const char* text = std::getenv("LASTRO_TEST_CLOCK");
        if (!text || !*text) {
            return s;
        }
        std::tm tm{};
        const char* end = strptime(text, "%Y-%m-%dT%H:%M:%SZ", &tm);
        if (!end || *end != '\0') {
            throw std::invalid_argument(
                std::string("LASTRO_TEST_CLOCK: expected YYYY-MM-DDTHH:MM:SSZ, found '") + text + "'");
        }
        s.start_text = text;
        s.start = timegm(&tm);
        s.since = std::chrono::steady_clock::now();
        return s;
    }();
    return shift;
}

}  // namespace

std::time_t WallNow() {
    const Shift& shift = TheShift();
    if (!shift.start_text) {
        return std::time(nullptr);
    }
    const auto elapsed = std::chrono::steady_clock::now() - shift.since;
    return shift.start +
           static_cast<std::time_t>(std::chrono::duration_cast<std::chrono::seconds>(elapsed).count());
}

std::optional<std::string> TestClockStart() {
    return TheShift().start_text;
}

}  // namespace lastro::billing
