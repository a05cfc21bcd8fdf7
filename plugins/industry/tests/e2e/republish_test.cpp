// A republished month (CVM republishes whole ranges): ingesting a month again rebuilds the
// aggregates of that month and of those that depend on it in the same transaction, so the next
// call sees the new figures (plugins/industry/docs/README.md, "When the aggregates change"). A
// deployment of its own: the other suites keep the sample's figures.
#include <lastro/funds/testing/cvm_files.hpp>
#include <lastro/sdk/testing/backend_fixture.hpp>
#include <lastro/sdk/testing/checks.hpp>
#include <lastro/sdk/zip_archive.hpp>

#include <boost/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace lastro::industry::e2e {
namespace {

namespace fs = std::filesystem;
using namespace ::lastro::sdk::testing;

class RepublishTest : public BackendTest<RepublishTest> {
public:
    static constexpr const char* kLabel = "industry-republish";
    static DeploymentOptions Options() { return {.plugin_dirs = {LASTRO_PLUGIN_DIR}}; }
};

INSTANTIATE_TEST_SUITE_P(Sqlite, RepublishTest, ::testing::Values(Backend::kSqlite), BackendParamName);
INSTANTIATE_TEST_SUITE_P(Postgres, RepublishTest, ::testing::Values(Backend::kPostgres), BackendParamName);

boost::json::object Resumo(Deployment& d, const std::string& key, const std::string& month) {
    const HttpResponse r = d.Get("/v1/industria?indicador=resumo&month=" + month, key);
    EXPECT_EQ(r.status, 200) << r.body;
    const boost::json::object data = At(AsObject(r.Json()), "data").as_object();
    const auto& items = At(data, "items").as_array();
    EXPECT_EQ(items.size(), 1u);
    boost::json::object item = items.at(0).as_object();
    item["updated_at"] = At(data, "updated_at");
    return item;
}

TEST_P(RepublishTest, ARepublishedMonthIsServedWithItsNeighboursFromTheNextCall) {
    const std::string key = D().RoomyKey();
    // A month in the middle of the sample with a zip of its own, and the month after it.
    std::vector<std::string> zips = D().SampleFiles("inf_mensal_fidc_", ".zip");
    zips.erase(std::remove_if(zips.begin(), zips.end(), [](const std::string& z) { return z.size() != 26; }),
               zips.end());  // inf_mensal_fidc_YYYYMM.zip; the yearly zips hold several months
    ASSERT_GE(zips.size(), 3u);
    const std::string name = zips[zips.size() / 2];
    const std::string month = name.substr(16, 4) + "-" + name.substr(20, 2);
    const std::string next_name = zips[zips.size() / 2 + 1];
    const std::string next = next_name.substr(16, 4) + "-" + next_name.substr(20, 2);
    const fs::path original = D().SampleDir() / name;

    const boost::json::object before = Resumo(D(), key, month);
    const boost::json::object after_before = Resumo(D(), key, next);

    constexpr double kRaise = 1000000.00;
    // A positive, ordinary net worth: far from every sanity filter before and after the raise.
    auto [members, cnpj] =
        funds::e2e::RaiseOneNetWorth(original, kRaise, [](double nav) { return nav > 1e7 && nav < 1e9; });
    ASSERT_FALSE(cnpj.empty());
    const fs::path republished = D().Dir() / "republished" / name;
    fs::create_directories(republished.parent_path());
    {
        sdk::ZipWriter zip(republished);
        for (auto& [member, bytes] : members) {
            zip.Add(member, bytes, std::time(nullptr));
        }
        zip.Close();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));  // updated_at has a resolution of a second
    const CommandResult ingested = D().Lastro({"ingest", "cvm.inf_mensal_fidc", republished.string()});
    ASSERT_EQ(ingested.exit_code, 0) << ingested.Describe();
    EXPECT_NE(ingested.err.find("industry.fidc_aggregates: derived from cvm.inf_mensal_fidc"),
              std::string::npos)
        << ingested.Describe();

    // The month's total moved by exactly the raise; the month after compares with it.
    const boost::json::object raised = Resumo(D(), key, month);
    EXPECT_NEAR(At(raised, "nav_brl").to_number<double>() - At(before, "nav_brl").to_number<double>(), kRaise,
                0.005)
        << cnpj;
    EXPECT_EQ(At(raised, "vehicles"), At(before, "vehicles"));
    EXPECT_GT(Str(raised, "updated_at"), Str(before, "updated_at"));
    const boost::json::object moved = Resumo(D(), key, next);
    EXPECT_NE(At(moved, "nav_change_ratio"), At(after_before, "nav_change_ratio"));
    EXPECT_EQ(At(moved, "nav_brl"), At(after_before, "nav_brl"))
        << "the month after's own reports did not change";

    // The sample's own file again: every figure of both months as it was.
    const CommandResult restored = D().Lastro({"ingest", "cvm.inf_mensal_fidc", original.string()});
    ASSERT_EQ(restored.exit_code, 0) << restored.Describe();
    boost::json::object again = Resumo(D(), key, month);
    boost::json::object again_next = Resumo(D(), key, next);
    for (auto* item : {&again, &again_next}) {
        item->erase("updated_at");
    }
    boost::json::object expected = before, expected_next = after_before;
    expected.erase("updated_at");
    expected_next.erase("updated_at");
    EXPECT_EQ(again, expected);
    EXPECT_EQ(again_next, expected_next);
}

}  // namespace
}  // namespace lastro::industry::e2e
