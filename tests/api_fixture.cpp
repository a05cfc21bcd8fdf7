#include "api_fixture.hpp"

#include <chrono>
#include <ctime>
#include <random>
#include <stdexcept>
#include <thread>

namespace lastro::e2e {

INSTANTIATE_TEST_SUITE_P(Sqlite, ApiTest, ::testing::Values(Backend::kSqlite), BackendParamName);
INSTANTIATE_TEST_SUITE_P(Postgres, ApiTest, ::testing::Values(Backend::kPostgres), BackendParamName);

std::vector<std::string> ApiTest::Ids(const std::vector<boost::json::object>& items) {
    std::vector<std::string> ids;
    for (const auto& item : items) {
        ids.push_back(Str(item, "fund_id"));
    }
    return ids;
}

std::set<std::string> ApiTest::IdSet(const std::vector<boost::json::object>& items) {
    std::set<std::string> ids;
    for (const auto& item : items) {
        ids.insert(Str(item, "fund_id"));
    }
    return ids;
}

std::set<std::string> ApiTest::DataIds(const HttpResponse& response) {
    const boost::json::value body = response.Json();
    std::set<std::string> ids;
    for (const auto& item : At(AsObject(body), "data").as_array()) {
        ids.insert(Str(AsObject(item), "fund_id"));
    }
    return ids;
}

boost::json::object ApiTest::FundWithClasses() {
    for (const auto& item : D().AllFunds()) {
        if (!At(item, "classes").as_array().empty()) {
            return item;
        }
    }
    throw std::runtime_error("no FIDC of the sample has a class");
}

std::string RandomUuid() {
    std::random_device device;
    std::mt19937_64 rng(device());
    static const char* kHex = "0123456789abcdef";
    std::string id;
    for (int i = 0; i < 32; ++i) {
        if (i == 8 || i == 12 || i == 16 || i == 20) {
            id.push_back('-');
        }
        unsigned nibble = static_cast<unsigned>(rng() & 0xF);
        if (i == 12) {
            nibble = 4;
        }
        if (i == 16) {
            nibble = 8 | (nibble & 3);
        }
        id.push_back(kHex[nibble]);
    }
    return id;
}

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
