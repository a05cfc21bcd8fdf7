// The plans of both operations' reads on SQLite (sdk/testing/query_plans.hpp; docs/performance.md,
// "Query plans (issue 21)"): no whole table or index read, over stored aggregates of a few months.
#include "derive/derivation.hpp"
#include "derive/ranking_blocks.hpp"
#include "industry_model-odb.hxx"
#include "industry_model.hxx"
#include "src/handlers.hpp"

#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/testing/fake_host.hpp>
#include <lastro/sdk/testing/plugin_calls.hpp>
#include <lastro/sdk/testing/plugin_database.hpp>
#include <lastro/sdk/testing/query_plans.hpp>

#include <gtest/gtest.h>
#include <odb/transaction.hxx>

#include <cstdint>
#include <string>
#include <vector>

namespace lastro::industry {
namespace {

using sdk::testing::Backend;

class IndustryQueryPlans : public ::testing::Test {
protected:
    void SetUp() override {
        host_.SetRelease(kAggregatesDataset, "2026-08");
        odb::transaction transaction(database_.Db().begin());
        for (const std::string month : {"2026-06", "2026-07", "2026-08"}) {
            IndustryMonth m;
            m.month = month;
            m.completeness = "complete";
            m.completeness_reason = "every expected vehicle reported";
            m.derived_at = "2026-09-01T00:00:00Z";
            database_.Db().persist(m);
            for (bool include : {true, false}) {
                UniverseMonth u;
                u.month = month;
                u.include_fic_fidc = include;
                u.by_month_json = R"({"month":")" + month + R"("})";
                u.warnings_json = "[]";
                database_.Db().persist(u);
                IndicatorItem item;
                item.indicator = "resumo";
                item.include_fic_fidc = include;
                item.month = month;
                item.item_json = R"({"month":")" + month + R"("})";
                database_.Db().persist(item);
                std::vector<ManagerMonth> managers;
                for (std::int64_t rank = 1; rank <= 3; ++rank) {
                    ManagerMonth manager;
                    manager.month = month;
                    manager.include_fic_fidc = include;
                    manager.manager_key = "manager " + std::to_string(rank);
                    manager.rank_pl = manager.rank_vehicles = manager.rank_net_flow =
                        manager.rank_share_change = rank;
                    manager.json = R"({"manager_id":")" + manager.manager_key + R"("})";
                    database_.Db().persist(manager);
                    managers.push_back(manager);
                }
                ReplaceRankingBlocks(database_.Db(), month, include, managers);
            }
        }
        transaction.commit();
    }

    sdk::Result Call(const sdk::Handler& handler, const sdk::Params& params) {
        return sdk::testing::CallHandler(handler, database_.Db(), params, host_, std::nullopt,
                                         "industry.test");
    }

    sdk::testing::PluginDatabase database_{"industry", Backend::kSqlite};
    sdk::testing::FakeHost host_;
    sdk::testing::QueryPlanCheck check_;
};

TEST_F(IndustryQueryPlans, IndicatorsReadByIndexes) {
    for (const char* months : {"1", "3", "120"}) {
        sdk::Params params;
        params.Set("indicador", std::string("resumo"));
        params.Set("months", std::int64_t{std::stoi(months)});
        const sdk::Result result = Call(&HandleIndicators, params);
        ASSERT_TRUE(result.data_json.has_value());
        EXPECT_NE(result.data_json->find("\"items\":[{"), std::string::npos) << months;
    }
    sdk::Params params;
    params.Set("month", sdk::Month::Parse("2026-07").value());
    params.Set("include_fic_fidc", false);
    Call(&HandleIndicators, params);
}

TEST_F(IndustryQueryPlans, RankingReadsByIndexes) {
    for (const char* order_by : {"pl", "vehicles", "net_flow", "share_change"}) {
        sdk::Params params;
        params.Set("order_by", std::string(order_by));
        params.Set("limit", std::int64_t{2});
        params.Set("offset", std::int64_t{1});
        params.Set("months", std::int64_t{3});
        const sdk::Result result = Call(&HandleManagerRanking, params);
        ASSERT_TRUE(result.data_json.has_value());
        EXPECT_NE(result.data_json->find("manager 2"), std::string::npos) << order_by;
    }
}

}  // namespace
}  // namespace lastro::industry
