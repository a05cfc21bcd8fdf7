// ApiTest: the fixture of the tests that share one server per backend (everything but the
// lifecycle tests). Each test makes its own keys, so credit arithmetic never crosses tests.
#pragma once

#include "support/backend_fixture.hpp"
#include "support/checks.hpp"

#include <boost/json.hpp>

#include <set>
#include <string>
#include <vector>

namespace lastro::e2e {

class ApiTest : public BackendTest<ApiTest> {
public:
    static constexpr const char* kLabel = "api";

protected:
    // fund_id of every item.
    static std::vector<std::string> Ids(const std::vector<boost::json::object>& items);
    static std::set<std::string> IdSet(const std::vector<boost::json::object>& items);
    // fund_id of every item of the answer's data.
    static std::set<std::string> DataIds(const HttpResponse& response);
    // The first fund of the universe that has at least one class.
    boost::json::object FundWithClasses();
};

// A UUID v4 that no registry entry has (ids of the registry are v5).
std::string RandomUuid();

// Epoch second at which the calendar month after `now` starts (UTC).
std::int64_t NextMonthStartUtc(std::int64_t now);

// Blocks (bounded, at most six seconds) while the UTC second is 55 or later, so that a
// sequence of calls that must share one per-minute window starts early in a minute.
void AvoidMinuteBoundary();

}  // namespace lastro::e2e
