// The ranking served from its stored blocks of ranks (derive/ranking_blocks.hpp): every page of
// every ordering equals the ranks cut from the managers' rows, across block boundaries, in months
// of many and of few managers; the migration to industry schema 2 writes the blocks the
// derivation writes. On the backend LASTRO_TEST_BACKEND names.
#include "derive/ranking_blocks.hpp"
#include "derive/derivation.hpp"
#include "industry_model-odb.hxx"
#include "industry_model.hxx"
#include "src/handlers.hpp"

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/query_once.hpp>
#include <lastro/sdk/schema_sql.hpp>
#include <lastro/sdk/testing/fake_host.hpp>
#include <lastro/sdk/testing/plugin_calls.hpp>
#include <lastro/sdk/testing/plugin_database.hpp>

#include <gtest/gtest.h>
#include <boost/json.hpp>
#include <odb/exception.hxx>
#include <odb/schema-catalog.hxx>
#include <odb/transaction.hxx>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace lastro::industry {
namespace {

// Managers per month: more than two blocks, exactly one block, and fewer than a block.
const std::map<std::string, std::int64_t> kManagersPerMonth{{"2026-06", 60}, {"2026-07", 25}, {"2026-08", 3}};

// Manager i (1-based) of n: a different permutation of ranks under each ordering, and a rank a
// year before for some.
ManagerMonth ManagerOf(const std::string& month, bool include_fic, std::int64_t i, std::int64_t n) {
    ManagerMonth m;
    m.month = month;
    m.include_fic_fidc = include_fic;
    m.manager_key = "manager " + std::to_string(i) + (include_fic ? "" : " ex-FIC");
    m.rank_pl = i;
    m.rank_vehicles = n + 1 - i;
    m.rank_net_flow = (i * 7) % n + 1;  // 7 and 11 share no factor with 60, 25 or 3
    m.rank_share_change = (i * 11) % n + 1;
    if (i % 3 != 0) {
        m.rank_pl_12m_ago = i + 2;
        m.rank_vehicles_12m_ago = 1;
        m.rank_net_flow_12m_ago = n;
        m.rank_share_change_12m_ago = i;
    }
    m.json = R"({"manager_id":")" + m.manager_key + R"(","pl_rank":)" + std::to_string(i) + "}";
    return m;
}

class RankingBlocksTest : public ::testing::Test {
protected:
    void SetUp() override {
        host_.SetRelease(kAggregatesDataset, "2026-08");
        odb::transaction transaction(Db().begin());
        for (const auto& [month, n] : kManagersPerMonth) {
            IndustryMonth m;
            m.month = month;
            m.completeness = "complete";
            m.completeness_reason = "every expected vehicle reported";
            m.derived_at = "2026-09-01T00:00:00Z";
            Db().persist(m);
            for (const bool include : {true, false}) {
                UniverseMonth u;
                u.month = month;
                u.include_fic_fidc = include;
                u.by_month_json = R"({"month":")" + month + R"("})";
                u.warnings_json = "[]";
                Db().persist(u);
                std::vector<ManagerMonth> managers;
                for (std::int64_t i = 1; i <= n; ++i) {
                    managers.push_back(ManagerOf(month, include, i, n));
                    Db().persist(managers.back());
                    rows_[{month, include}].push_back(managers.back());
                }
                ReplaceRankingBlocks(Db(), month, include, managers);
            }
        }
        transaction.commit();
    }

    odb::database& Db() { return database_.Db(); }

    boost::json::object Page(const std::string& order_by, std::int64_t limit, std::int64_t offset,
                             bool include_fic) {
        sdk::Params params;
        params.Set("order_by", order_by);
        params.Set("limit", limit);
        params.Set("offset", offset);
        params.Set("months", std::int64_t{3});
        params.Set("include_fic_fidc", include_fic);
        const sdk::Result result = sdk::testing::CallHandler(&HandleManagerRanking, Db(), params, host_,
                                                             std::nullopt, "industry.test");
        EXPECT_TRUE(result.data_json.has_value());
        return boost::json::parse(result.data_json.value_or("{}")).as_object();
    }

    // The managers a page must hold for one month, as the ranking answers them.
    boost::json::array Expected(const std::string& month, bool include_fic, const RankOrdering& ordering,
                                std::int64_t limit, std::int64_t offset) {
        std::map<std::int64_t, const ManagerMonth*> by_rank;
        for (const ManagerMonth& m : rows_.at({month, include_fic})) {
            by_rank[m.*ordering.rank] = &m;
        }
        boost::json::array managers;
        for (const auto& [rank, m] : by_rank) {
            if (rank <= offset || rank > offset + limit) {
                continue;
            }
            boost::json::object one;
            const std::optional<std::int64_t> before = m->*ordering.rank_12m_ago;
            one["rank"] = rank;
            one["rank_12m_ago"] = before ? boost::json::value(*before) : nullptr;
            one["rank_change_12m"] = before ? boost::json::value(*before - rank) : nullptr;
            const boost::json::value figures = boost::json::parse(m->json);
            for (const auto& member : figures.as_object()) {
                one[member.key()] = member.value();
            }
            managers.push_back(std::move(one));
        }
        return managers;
    }

    sdk::testing::PluginDatabase database_{"industry"};
    sdk::testing::FakeHost host_;
    std::map<std::pair<std::string, bool>, std::vector<ManagerMonth>> rows_;
};

TEST_F(RankingBlocksTest, EveryPageOfEveryOrderingIsTheRanksCutFromTheManagers) {
    for (const RankOrdering& ordering : kRankOrderings) {
        for (const bool include_fic : {true, false}) {
            for (const std::int64_t limit : {1, 7, 9, 10, 11, 24, 25, 26, 50, 100}) {
                for (const std::int64_t offset :
                     {0, 1, 2, 3, 9, 10, 11, 19, 20, 24, 25, 26, 49, 50, 59, 60, 75, 100}) {
                    SCOPED_TRACE(std::string(ordering.name) + " limit " + std::to_string(limit) + " offset " +
                                 std::to_string(offset) + (include_fic ? "" : " without FIC-FIDC"));
                    const boost::json::object data = Page(ordering.name, limit, offset, include_fic);
                    boost::json::array items;
                    for (const auto& [month, n] : kManagersPerMonth) {
                        boost::json::array managers = Expected(month, include_fic, ordering, limit, offset);
                        if (!managers.empty()) {  // a month with no manager at the page's ranks has no item
                            items.push_back(
                                boost::json::object{{"month", month}, {"managers", std::move(managers)}});
                        }
                    }
                    const boost::json::array& served = data.at("items").as_array();
                    ASSERT_EQ(served.size(), items.size());
                    for (std::size_t i = 0; i < items.size(); ++i) {
                        EXPECT_EQ(served[i].at("month"), items[i].at("month"));
                        EXPECT_EQ(served[i].at("managers"), items[i].at("managers"));
                        EXPECT_TRUE(served[i].at("units").is_object());
                    }
                    const bool more = offset + limit < 60;  // the month of 60 managers
                    const boost::json::object& pagination = data.at("pagination").as_object();
                    EXPECT_EQ(pagination.at("has_more").as_bool(), more);
                    EXPECT_EQ(pagination.at("next_offset"),
                              more ? boost::json::value(offset + limit) : boost::json::value(nullptr));
                }
            }
        }
    }
}

TEST_F(RankingBlocksTest, ABlockHoldsItsRunOfRanksAndWhereEachEnds) {
    const std::vector<RankingBlock> blocks = RankingBlocksOf("2026-06", true, rows_.at({"2026-06", true}));
    ASSERT_EQ(blocks.size(), 4u * 6u);  // 60 ranks: six blocks of ten under each ordering
    for (const RankingBlock& block : blocks) {
        SCOPED_TRACE(block.ordering + " block " + std::to_string(block.block));
        EXPECT_EQ(block.first_rank, block.block * kRanksPerBlock + 1);
        EXPECT_EQ(block.ranks, 10);
        // A block's row stays within one page of SQLite's file (4 KB): no overflow page to read.
        EXPECT_LT(block.managers_json.size() + block.ends.size(), 3500u);
        const boost::json::array managers = boost::json::parse("[" + block.managers_json + "]").as_array();
        ASSERT_EQ(managers.size(), static_cast<std::size_t>(block.ranks));
        for (std::size_t i = 0; i < managers.size(); ++i) {
            EXPECT_EQ(managers[i].at("rank").as_int64(), block.first_rank + static_cast<std::int64_t>(i));
        }
        EXPECT_EQ(block.ends.substr(block.ends.rfind(',') + 1), std::to_string(block.managers_json.size()));
    }
}

// Before the first derivation both operations answer that the aggregates are not derived yet:
// the period's ends, read in one statement, are null.
TEST(RankingBeforeTheFirstDerivation, AnswersThatTheAggregatesAreNotDerivedYet) {
    sdk::testing::PluginDatabase database{"industry"};
    sdk::testing::FakeHost host;
    host.SetRelease(kAggregatesDataset, "2026-08");
    for (const sdk::Handler& handler :
         {sdk::Handler(&HandleManagerRanking), sdk::Handler(&HandleIndicators)}) {
        try {
            sdk::testing::CallHandler(handler, database.Db(), sdk::Params(), host, std::nullopt,
                                      "industry.test");
            ADD_FAILURE() << "answered without aggregates";
        } catch (const sdk::Unavailable& e) {
            EXPECT_NE(std::string(e.what()).find("not derived yet"), std::string::npos) << e.what();
        }
    }
}

// What the blocks of a database hold, by universe, ordering, month and block.
using StoredBlocks = std::map<std::tuple<bool, std::string, std::string, std::int64_t>,
                              std::tuple<std::int64_t, std::int64_t, std::string, std::string>>;

StoredBlocks BlocksOf(odb::database& db) {
    StoredBlocks stored;
    for (const RankingBlock& b : sdk::testing::AllRows<RankingBlock>(db)) {
        stored[{b.include_fic_fidc, b.ordering, b.month, b.block}] = {b.first_rank, b.ranks, b.managers_json,
                                                                      b.ends};
    }
    return stored;
}

// A database at industry 1 (the ranking read a row per rank, by four indexes) migrates to 3 with
// every month's blocks, as the derivation writes them (lastro db migrate runs the same).
TEST_F(RankingBlocksTest, ASchema1DatabaseMigratesWithEveryMonthsBlocks) {
    const StoredBlocks derived = BlocksOf(Db());
    ASSERT_EQ(derived.size(), 2u * 4u * (6u + 3u + 1u));  // 60, 25 and 3 managers, by ten
    {
        odb::transaction transaction(Db().begin());
        Db().execute("DROP TABLE industry_ranking_block");
        for (const auto& [name, rank] : std::map<std::string, std::string>{
                 {"pl", "pl"}, {"vehicles", "vehicles"}, {"flow", "net_flow"}, {"share", "share_change"}}) {
            Db().execute("CREATE INDEX industry_manager_month_" + name +
                         "_i ON industry_manager_month (include_fic_fidc, rank_" + rank + ", month)");
        }
        Db().execute("UPDATE schema_version SET version = 1 WHERE name = 'industry'");
        transaction.commit();
    }
    Db().schema_version_migration(1, false, "industry");  // ODB keeps the version it read
    {
        odb::transaction transaction(Db().begin());
        odb::schema_catalog::migrate(Db(), 3, "industry");
        EXPECT_EQ(Db().schema_version("industry"), 3u);
        transaction.commit();
    }
    EXPECT_EQ(BlocksOf(Db()), derived);
    odb::transaction transaction(Db().begin());
    EXPECT_THROW(Db().execute("DROP INDEX industry_manager_month_pl_i"), odb::exception);  // gone
    transaction.rollback();
}

// A database at industry 2 holds blocks of 25 ranks; the migration to 3 writes every block again
// with ten (here the old blocks are simply gone: what 3 holds is the derivation's, whatever 2 had).
TEST_F(RankingBlocksTest, ASchema2DatabaseMigratesWithBlocksOfTenRanks) {
    const StoredBlocks derived = BlocksOf(Db());
    {
        odb::transaction transaction(Db().begin());
        Db().execute("DELETE FROM industry_ranking_block");
        Db().execute("UPDATE schema_version SET version = 2 WHERE name = 'industry'");
        transaction.commit();
    }
    Db().schema_version_migration(2, false, "industry");
    {
        odb::transaction transaction(Db().begin());
        odb::schema_catalog::migrate(Db(), 3, "industry");
        EXPECT_EQ(Db().schema_version("industry"), 3u);
        transaction.commit();
    }
    EXPECT_EQ(BlocksOf(Db()), derived);
}

// On PostgreSQL a block's text is stored plain, though its row passes the 2 KB past which
// PostgreSQL would compress it, and the migration to 4 writes the compressed blocks of a
// database at 3 plain again (derive/ranking_blocks.cpp).
// (Always on PostgreSQL, whatever LASTRO_TEST_BACKEND says: SQLite compresses nothing.)
TEST(RankingBlocksOnPostgresql, ABlocksTextIsStoredUncompressed) {
    sdk::testing::PluginDatabase database("industry", sdk::testing::Backend::kPostgres);
    odb::database& db = database.Db();
    // The bytes the block's text takes in its row.
    auto stored = [&] {
        const sdk::TextRows rows = sdk::RunOnceAsText(
            db, odb::pgsql::query_base(
                    "SELECT pg_column_size(managers_json) FROM industry_ranking_block WHERE block = 99"));
        return rows.size() == 1 ? std::stol(rows[0].at(0).value_or("0")) : -1L;
    };
    odb::transaction transaction(db.begin());
    RankingBlock block;
    block.ordering = "pl";
    block.month = "2026-09";
    block.block = 99;
    block.first_rank = 991;
    block.ranks = 10;
    for (int i = 0; i < 10; ++i) {  // 3 KB that compress to a tenth of it
        block.managers_json +=
            (i ? "," : "") + std::string(R"({"manager_id":")") + std::string(280, 'a') + "\"}";
    }
    block.ends = "1";
    db.persist(block);
    const long plain = static_cast<long>(block.managers_json.size());
    EXPECT_GE(stored(), plain);

    // As a database at 3 holds it.
    db.execute("ALTER TABLE industry_ranking_block RESET (toast_tuple_target)");
    db.execute("UPDATE industry_ranking_block SET managers_json = managers_json || ''");
    ASSERT_LT(stored(), plain / 2) << "compressed";
    EXPECT_EQ(sdk::RunSchemaSql(db, "industry", 3, 4), 2u);
    EXPECT_GE(stored(), plain);
    transaction.rollback();
}

}  // namespace
}  // namespace lastro::industry
