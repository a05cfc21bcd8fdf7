// Every handler these tests call on SQLite has the plan of each SELECT it ran checked: no read
// of a whole table or index (sdk/testing/query_plans.hpp; docs/performance.md, "Query plans
// (issue 21)"). The check is on for the whole binary, so every filter, cursor and edge case the
// handler tests exercise is also a plan test.
#include "registry_fixture.hpp"

#include <lastro/sdk/testing/query_plans.hpp>

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <memory>

namespace lastro::funds::testing {
namespace {

class QueryPlansEverywhere : public ::testing::Environment {
public:
    void SetUp() override { check_ = std::make_unique<sdk::testing::QueryPlanCheck>(); }
    void TearDown() override { check_.reset(); }

private:
    std::unique_ptr<sdk::testing::QueryPlanCheck> check_;
};

[[maybe_unused]] ::testing::Environment* const kQueryPlans =
    ::testing::AddGlobalTestEnvironment(new QueryPlansEverywhere);

TEST(QueryPlans, TheCheckIsOnForEveryTestOfThisBinary) {
    EXPECT_TRUE(sdk::testing::QueryPlanCheck::Active());
}

TEST(QueryPlans, FullScansAreTheScanLines) {
    using sdk::testing::FullScans;
    EXPECT_EQ(FullScans({"SCAN funds_fund"}).size(), 1u);
    EXPECT_EQ(FullScans({"SCAN funds_fund USING INDEX funds_fund_universe_i"}).size(), 1u);
    EXPECT_EQ(FullScans({"SCAN funds_fund_search VIRTUAL TABLE INDEX 0:"}).size(), 1u);
    EXPECT_TRUE(
        FullScans({"SEARCH funds_fund USING INDEX funds_fund_universe_i (fidc_universe=? AND fund_id>?)",
                   "USE TEMP B-TREE FOR ORDER BY", "SCAN funds_fund_search VIRTUAL TABLE INDEX 0:M3",
                   "SCAN CONSTANT ROW", "LIST SUBQUERY 2", "SCAN 3-ROW VALUES CLAUSE"})
            .empty());
}

// The check sees what a handler runs: a read by an unindexed column fails the test, naming it.
TEST(QueryPlans, AHandlerThatScansFailsTheTest) {
    FundsDatabase database;
    if (database.Db().id() != odb::id_sqlite) {
        GTEST_SKIP() << "plans are checked on SQLite";
    }
    Ingest(database.Db(), WriteCsvs(database.Dir(), BaseSnapshot()));
    const sdk::Handler scanning = [](const sdk::RequestContext& context) {
        using Q = odb::query<Fund>;
        sdk::Result result;
        result.data = boost::json::array();
        for (const Fund& fund : context.db.query<Fund>(Q::name == "FIC FIDC DELTA")) {
            result.data.as_array().emplace_back(fund.fund_id);
        }
        return result;
    };
    EXPECT_NONFATAL_FAILURE(Call(scanning, database.Db(), sdk::Params()), "SCAN funds_fund");
    const sdk::Handler indexed = [](const sdk::RequestContext& context) {
        using Q = odb::query<Fund>;
        sdk::Result result;
        result.data = boost::json::array();
        for (const Fund& fund : context.db.query<Fund>(Q::cnpj == "44444444000191")) {
            result.data.as_array().emplace_back(fund.fund_id);
        }
        return result;
    };
    EXPECT_EQ(Call(indexed, database.Db(), sdk::Params()).data.as_array().size(), 1u);
}

}  // namespace
}  // namespace lastro::funds::testing
