#include "funds_fixture.hpp"

#include <stdexcept>

namespace lastro::funds::e2e {

// docs/plugins.md quotes from here: e2e-instantiate
INSTANTIATE_TEST_SUITE_P(Sqlite, ApiTest, ::testing::Values(Backend::kSqlite), BackendParamName);
INSTANTIATE_TEST_SUITE_P(Postgres, ApiTest, ::testing::Values(Backend::kPostgres), BackendParamName);
// docs/plugins.md quotes up to here

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
    for (const auto& item : D().AllItems("/v1/fundos")) {
        if (!At(item, "classes").as_array().empty()) {
            return item;
        }
    }
    throw std::runtime_error("no FIDC of the sample has a class");
}

}  // namespace lastro::funds::e2e
