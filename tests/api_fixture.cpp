#include "api_fixture.hpp"

#include <chrono>
#include <ctime>
#include <sstream>
#include <stdexcept>
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

std::map<std::string, double> MetricSamples(const std::string& text) {
    std::map<std::string, double> samples;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') {
            continue;
        }
        const std::size_t space = line.rfind(' ');
        samples[line.substr(0, space)] = std::stod(line.substr(space + 1));
    }
    return samples;
}

std::uint16_t MetricsPort(Lastrod& server) {
    static constexpr std::string_view kMetricsAt = "lastrod: metrics on http://127.0.0.1:";
    const auto line = server.Process().WaitForLine(
        [](std::string_view l) { return l.rfind(kMetricsAt, 0) == 0; }, std::chrono::seconds(10));
    if (!line) {
        throw std::runtime_error("lastrod printed no metrics address:\n" + server.Process().Output());
    }
    return static_cast<std::uint16_t>(
        std::stoi(line->substr(kMetricsAt.size(), line->find('/', kMetricsAt.size()) - kMetricsAt.size())));
}

}  // namespace lastro::e2e
