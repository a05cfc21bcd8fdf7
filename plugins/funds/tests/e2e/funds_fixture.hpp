// The funds plugin's end-to-end fixtures, on the SDK's test kit (docs/testing.md): a real lastrod
// that loads the build's plugins (funds among them) and the funds sample, on SQLite and
// PostgreSQL. ApiTest: the tests that share one server per backend. Each test makes its own
// keys, so credit arithmetic never crosses tests.
#pragma once

#include <lastro/funds/testing/funds_checks.hpp>
#include <lastro/sdk/testing/backend_fixture.hpp>
#include <lastro/sdk/testing/checks.hpp>

#include <boost/json.hpp>

#include <set>
#include <string>
#include <vector>

namespace lastro::funds::e2e {

using namespace ::lastro::sdk::testing;

// docs/plugins.md quotes from here: e2e-fixture
// The build's plugin directory, where liblastro-funds.so and its manifest land.
inline DeploymentOptions FundsOptions() {
    return {.plugin_dirs = {LASTRO_PLUGIN_DIR}};
}

class ApiTest : public BackendTest<ApiTest> {
public:
    static constexpr const char* kLabel = "api";
    static DeploymentOptions Options() { return FundsOptions(); }

protected:
    // fund_id of every item.
    static std::vector<std::string> Ids(const std::vector<boost::json::object>& items);
    static std::set<std::string> IdSet(const std::vector<boost::json::object>& items);
    // fund_id of every item of the answer's data.
    static std::set<std::string> DataIds(const HttpResponse& response);
    // The first fund of the universe that has at least one class.
    boost::json::object FundWithClasses();
};
// docs/plugins.md quotes up to here

}  // namespace lastro::funds::e2e
