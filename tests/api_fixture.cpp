#include "api_fixture.hpp"

#include <chrono>
#include <ctime>
#include <thread>

namespace lastro::e2e {

INSTANTIATE_TEST_SUITE_P(Sqlite, ApiTest, ::testing::Values(Backend::kSqlite), BackendParamName);
INSTANTIATE_TEST_SUITE_P(Postgres, ApiTest, ::testing::Values(Backend::kPostgres), BackendParamName);

std::int64_t NextMonthStartUtc(std::int64_t now) {
    const std::time_t t = static_cast<std::time_t>(now);
    std::tm tm{};
    gmtime_r(&t, &tm);
    std::tm next{};
    next.tm_year = tm.tm_mon == 11 ? tm.tm_year + 1 : tm.tm_year;
    next.tm_mon = (tm.tm_mon + 1) % 12;
    next.tm_mday = 1;
    return static_cast<std::int64_t>(timegm(&next));
}

void AvoidMinuteBoundary() {
    for (int i = 0; i < 70 && std::time(nullptr) % 60 >= 55; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
}

}  // namespace lastro::e2e
