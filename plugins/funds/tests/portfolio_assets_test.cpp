#include "src/portfolio_assets.hpp"
#include "class_data_fixture.hpp"

#include <lastro/sdk/problem.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

namespace lastro::funds::testing {
namespace {

using ::testing::HasSubstr;

constexpr const char* kClassCnpj = "77777777000191";  // class 2002

class ClassPortfolioAssetsTest : public ClassDataTest {
protected:
    void SetUp() override {
        ClassDataTest::SetUp();
        CdaHolder holder = Holder(kClassCnpj, "2024-05", 1500000.75);
        holder.positions = 8;
        holder.confidential_rows = 2;
        Persist(holder);
        CdaPosition bond = Position(kClassCnpj, "2024-05", 1000001, "BLC_1");
        bond.application_type = "Títulos Públicos";
        bond.asset_type = "Título público federal";
        bond.related_issuer = "N";
        bond.trade_type = "Para negociação";
        bond.quantity_sold = 10;
        bond.value_sold = 10500.25;
        bond.quantity_acquired = 20;
        bond.value_acquired = 21000.5;
        bond.quantity = 100;
        bond.market_value = 105000.12;
        bond.cost_value = 100000;
        bond.confidential_until = "2024-12-31";
        bond.asset_code = "760199";
        bond.isin = "BRSTNCLF1RC4";
        bond.description = "LFT";
        bond.issuer = "TESOURO NACIONAL";
        bond.issuer_document = "00394460000141";
        bond.maturity = "2029-03-01";
        bond.details_json = R"({"DT_EMISSAO":"2019-01-01","CD_SELIC":"210100"})";
        Persist(bond);
        CdaPosition fund = FundPosition(kClassCnpj, "2024-05", 2000001, kSeniorClassCnpj, 250000);
        fund.invested_name = "FIDC MULTI SENIOR";
        Persist(fund);
        // Six bare rows, stored out of order, in three more blocks.
        for (std::int64_t ordinal : {8000003, 4000001, 8000001, 4000002, 8000002, 7000001}) {
            Persist(Position(kClassCnpj, "2024-05", ordinal, "BLC_" + std::to_string(ordinal / 1000000)));
        }
        // Another month and another class must never leak in.
        Persist(Holder(kClassCnpj, "2024-04", 1.0));
        Persist(Position(kClassCnpj, "2024-04", 1000001, "BLC_1"));
        Persist(Holder(kSeniorClassCnpj, "2024-05", 2.0));
        Persist(Position(kSeniorClassCnpj, "2024-05", 1000002, "BLC_1"));
    }

    sdk::Result Assets(const std::string& month, std::optional<std::int64_t> limit = std::nullopt,
                       const std::optional<boost::json::value>& position = std::nullopt,
                       const std::string& registry_class_id = "2002") {
        std::vector<Param> params = {{"class_id", ClassIdFor(registry_class_id)}, {"month", MonthOf(month)}};
        if (limit) {
            params.push_back({"limit", *limit});
        }
        return Run(&HandleClassPortfolioAssets, params, position);
    }
};

TEST_F(ClassPortfolioAssetsTest, EveryFieldOfAPositionAsPublished) {
    const sdk::Result result = Assets("2024-05");
    ExpectManifestShape("funds.class_portfolio_assets", result.data);
    const auto& rows = result.data.as_array();
    ASSERT_EQ(rows.size(), 8u);
    const auto& bond = rows[0].as_object();
    EXPECT_EQ(bond.size(), 24u);
    EXPECT_EQ(bond.at("position_id").as_string(), "2024-05:1000001");
    EXPECT_EQ(bond.at("block").as_string(), "BLC_1");
    EXPECT_EQ(bond.at("block_name").as_string(), "Títulos Públicos do SELIC");
    EXPECT_EQ(bond.at("application_type").as_string(), "Títulos Públicos");
    EXPECT_EQ(bond.at("asset_type").as_string(), "Título público federal");
    EXPECT_EQ(bond.at("related_issuer").as_string(), "N");
    EXPECT_EQ(bond.at("trade_type").as_string(), "Para negociação");
    EXPECT_DOUBLE_EQ(bond.at("quantity_sold").to_number<double>(), 10);
    EXPECT_DOUBLE_EQ(bond.at("value_sold_brl").to_number<double>(), 10500.25);
    EXPECT_DOUBLE_EQ(bond.at("quantity_acquired").to_number<double>(), 20);
    EXPECT_DOUBLE_EQ(bond.at("value_acquired_brl").to_number<double>(), 21000.5);
    EXPECT_DOUBLE_EQ(bond.at("quantity").to_number<double>(), 100);
    EXPECT_DOUBLE_EQ(bond.at("market_value_brl").to_number<double>(), 105000.12);
    EXPECT_DOUBLE_EQ(bond.at("cost_value_brl").to_number<double>(), 100000);
    EXPECT_EQ(bond.at("confidential_until").as_string(), "2024-12-31");
    EXPECT_EQ(bond.at("asset_code").as_string(), "760199");
    EXPECT_EQ(bond.at("isin").as_string(), "BRSTNCLF1RC4");
    EXPECT_EQ(bond.at("description").as_string(), "LFT");
    EXPECT_EQ(bond.at("issuer").as_string(), "TESOURO NACIONAL");
    EXPECT_EQ(bond.at("issuer_document").as_string(), "00394460000141");
    EXPECT_EQ(bond.at("maturity").as_string(), "2029-03-01");
    EXPECT_TRUE(bond.at("invested_cnpj").is_null());
    EXPECT_EQ(bond.at("details"),
              (boost::json::object{{"DT_EMISSAO", "2019-01-01"}, {"CD_SELIC", "210100"}}));

    const auto& fund = rows[1].as_object();
    EXPECT_EQ(fund.at("block_name").as_string(), "Cotas de Fundos");
    EXPECT_EQ(fund.at("invested_cnpj").as_string(), kSeniorClassCnpj);
    EXPECT_EQ(fund.at("invested_name").as_string(), "FIDC MULTI SENIOR");

    // A row with nothing published keeps every value null: nothing becomes 0.
    const auto& bare = rows[2].as_object();
    EXPECT_EQ(bare.at("position_id").as_string(), "2024-05:4000001");
    for (const auto& member : bare) {
        if (member.key() != "position_id" && member.key() != "block" && member.key() != "block_name" &&
            member.key() != "details") {
            EXPECT_TRUE(member.value().is_null()) << member.key();
        }
    }
    EXPECT_TRUE(bare.at("details").as_object().empty());

    EXPECT_EQ(result.meta.extra.at("month").as_string(), "2024-05");
    EXPECT_EQ(result.meta.extra.at("holder_cnpj").as_string(), kClassCnpj);
    EXPECT_DOUBLE_EQ(result.meta.extra.at("holder_nav_brl").to_number<double>(), 1500000.75);
    EXPECT_EQ(result.meta.extra.at("positions_total").as_int64(), 8);
    EXPECT_EQ(result.meta.extra.at("confidential_rows_absent").as_int64(), 2);
    EXPECT_FALSE(result.meta.next_position.has_value());
    EXPECT_EQ(result.meta.data_release, "release-of-cvm.cda_fi");
    EXPECT_EQ(result.meta.as_of, "2024-05") << "the reference period is the portfolio's month";
    EXPECT_EQ(result.meta.sources[0].dataset, "cda_fi");
    ExpectSourcesForEveryField("funds.class_portfolio_assets", bond, result.meta);
}

TEST_F(ClassPortfolioAssetsTest, PagesReachTheEndInOrdinalOrderWithoutGapsOrDuplicates) {
    std::vector<std::string> ids;
    std::optional<boost::json::value> position;
    std::size_t pages = 0;
    do {
        const sdk::Result page = Assets("2024-05", 3, position);
        ++pages;
        for (const auto& row : page.data.as_array()) {
            ids.emplace_back(row.at("position_id").as_string());
        }
        position = page.meta.next_position;
        ASSERT_LE(pages, 5u);
    } while (position);
    EXPECT_EQ(pages, 3u);
    EXPECT_EQ(ids, (std::vector<std::string>{"2024-05:1000001", "2024-05:2000001", "2024-05:4000001",
                                             "2024-05:4000002", "2024-05:7000001", "2024-05:8000001",
                                             "2024-05:8000002", "2024-05:8000003"}));
    EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), ids.size());

    // A page that ends exactly at the last row says there is no more.
    EXPECT_FALSE(Assets("2024-05", 8).meta.next_position.has_value());
    EXPECT_TRUE(Assets("2024-05", 7).meta.next_position.has_value());
}

TEST_F(ClassPortfolioAssetsTest, TheExactMonthOnly) {
    const sdk::Result april = Assets("2024-04");
    ASSERT_EQ(april.data.as_array().size(), 1u);
    EXPECT_DOUBLE_EQ(april.meta.extra.at("holder_nav_brl").to_number<double>(), 1.0);
    try {
        Assets("2024-06");
        FAIL() << "expected NotFound";
    } catch (const sdk::NotFound& problem) {
        EXPECT_THAT(problem.what(), HasSubstr(ClassIdFor("2002")));
        EXPECT_THAT(problem.what(), HasSubstr("2024-06"));
        EXPECT_EQ(problem.Parameter(), "month");
    }
}

TEST_F(ClassPortfolioAssetsTest, AHolderWithoutPositionsIsAnEmptyPageAndANullNavStaysNull) {
    Persist(Holder(kClassCnpj, "2024-03", std::nullopt));
    const sdk::Result result = Assets("2024-03");
    EXPECT_TRUE(result.data.as_array().empty());
    EXPECT_TRUE(result.meta.extra.at("holder_nav_brl").is_null());
}

TEST_F(ClassPortfolioAssetsTest, AnOnlyClassFindsTheCdaFiledUnderItsFundsCnpjAndPrefersItsOwn) {
    Persist(Holder(kNoCnpjFundCnpj, "2024-05", 10.0));
    Persist(Position(kNoCnpjFundCnpj, "2024-05", 1000001, "BLC_1"));
    EXPECT_EQ(Assets("2024-05", std::nullopt, std::nullopt, "2012").meta.extra.at("holder_cnpj").as_string(),
              kNoCnpjFundCnpj);

    Persist(Holder(kTwinFundCnpj, "2024-05", 20.0));
    Persist(Holder(kTwinClassCnpj, "2024-05", 30.0));
    const sdk::Result twin = Assets("2024-05", std::nullopt, std::nullopt, "2013");
    EXPECT_EQ(twin.meta.extra.at("holder_cnpj").as_string(), kTwinClassCnpj);
    EXPECT_DOUBLE_EQ(twin.meta.extra.at("holder_nav_brl").to_number<double>(), 30.0);
}

TEST_F(ClassPortfolioAssetsTest, ACursorThisOperationDidNotIssueIsABadRequest) {
    EXPECT_THROW(Assets("2024-05", 3, boost::json::value(boost::json::object{{"after", "x"}})),
                 sdk::BadRequest);
    EXPECT_THROW(Assets("2024-05", 3, boost::json::value(boost::json::object{{"after", -1}})),
                 sdk::BadRequest);
    EXPECT_THROW(Assets("2024-05", 3, boost::json::value("2024-05")), sdk::BadRequest);
}

TEST_F(ClassPortfolioAssetsTest, BlockNamesFollowTheCdaLayout) {
    EXPECT_EQ(CdaBlockName("BLC_5"), "Depósitos a Prazo e outros Títulos de Instituições Financeiras");
    EXPECT_EQ(CdaBlockName("BLC_8"), "Demais Ativos Não Codificados");
    EXPECT_EQ(CdaBlockName("BLC_9"), std::nullopt);
}

}  // namespace
}  // namespace lastro::funds::testing
