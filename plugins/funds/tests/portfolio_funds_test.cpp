#include "src/portfolio_funds.hpp"
#include "class_data_fixture.hpp"
#include "src/portfolio_fund_answers.hpp"

#include <lastro/sdk/problem.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "funds_model-odb.hxx"

#include <odb/transaction.hxx>

#include <map>

namespace lastro::funds::testing {
namespace {

using ::testing::HasSubstr;

constexpr const char* kInvestorCnpj = "77777777000191";   // class 2002
constexpr const char* kAmbiguousCnpj = "66666666000191";  // class 2006 of fund 1004, and fund 1006

class ClassPortfolioFundsTest : public ClassDataTest {
protected:
    void SetUp() override {
        ClassDataTest::SetUp();
        Persist(Holder(kInvestorCnpj, "2024-05", 10000.0));
        CdaPosition first = FundPosition(kInvestorCnpj, "2024-05", 2000001, kSeniorClassCnpj, 1000);
        first.value_acquired = 200;
        first.value_sold = 0.0;  // published 0.00: a sum with an empty row would be null
        first.invested_name = "FIDC MULTI SENIOR (CDA)";
        Persist(first);
        CdaPosition second = FundPosition(kInvestorCnpj, "2024-05", 2000002, kSeniorClassCnpj, 500);
        second.value_sold = 50;
        second.value_acquired = 0.0;
        Persist(second);
        Persist(FundPosition(kInvestorCnpj, "2024-05", 2000003, kMultiFundCnpj, 800));
        Persist(FundPosition(kInvestorCnpj, "2024-05", 2000004, kClasslessFundCnpj, 100));
        Persist(FundPosition(kInvestorCnpj, "2024-05", 2000005, kNoCnpjFundCnpj, 2000));
        Persist(FundPosition(kInvestorCnpj, "2024-05", 2000006, kAmbiguousCnpj, 300));
        Persist(FundPosition(kInvestorCnpj, "2024-05", 2000007, kOutsideCnpj, 400));
        Persist(FundPosition(kInvestorCnpj, "2024-05", 2000008, kOutsideCnpj, std::nullopt));
        Persist(FundPosition(kInvestorCnpj, "2024-05", 2000009, kTwinClassCnpj, std::nullopt));
        // Neither a BLC_2 row without the invested CNPJ nor another block counts.
        Persist(Position(kInvestorCnpj, "2024-05", 2000010, "BLC_2"));
        CdaPosition other_block = FundPosition(kInvestorCnpj, "2024-05", 4000001, kSeniorClassCnpj, 99999);
        other_block.block = "BLC_4";
        Persist(other_block);

        Persist(Holder(kInvestorCnpj, "2024-04", 9000.0));
        Persist(FundPosition(kInvestorCnpj, "2024-04", 2000001, kSeniorClassCnpj, 1200));
        Persist(FundPosition(kInvestorCnpj, "2024-04", 2000002, kMultiFundCnpj, 800));
        Persist(FundPosition(kInvestorCnpj, "2024-04", 2000003, kClasslessFundCnpj, 300));
        Persist(FundPosition(kInvestorCnpj, "2024-04", 2000004, kTwinClassCnpj, 50));
        Persist(FundPosition(kInvestorCnpj, "2024-04", 2000005, kAmbiguousCnpj, 300));

        // Reports of class 2010: the asked month lacks delinquency, which 2024-03 has; the
        // later month and the fund-level filing of its several-class fund never count.
        FidcReport may = Report(kSeniorClassCnpj, "2024-05");
        may.nav = 5000000;
        may.subordination_with_mezzanine_ratio = 0.25;
        may.subordination_without_mezzanine_ratio = 0.1;
        may.pdd_ratio = 0.03;
        may.segments_total = 1000;
        may.segments_json =
            R"([{"code":"industria","name":"Industrial","source":"TAB_II_A_VL_INDUST","value":600},)"
            R"({"code":"comercio","name":"Comercial","source":"TAB_II_B_VL_COMERC","value":0},)"
            R"({"code":"financeiro","name":"Financeiro","source":"TAB_II_C_VL_FINANC","value":400},)"
            R"({"code":"servicos","name":"Serviços","source":"TAB_II_D_VL_SERV","value":null}])";
        may.positive_segment_count = 2;  // set with segments_json, as the ingester does
        may.primary_segment_code = "industria";
        may.primary_segment_ratio = 0.6;
        Persist(may);
        FidcReport march = Report(kSeniorClassCnpj, "2024-03");
        march.delinquency_ratio = 0.04;
        march.nav = 4000000;
        Persist(march);
        FidcReport june = Report(kSeniorClassCnpj, "2024-06");
        june.delinquency_ratio = 0.9;
        Persist(june);
        FidcReport fund_level = Report(kMultiFundCnpj, "2024-04");
        fund_level.delinquency_ratio = 0.5;
        Persist(fund_level);
        // Class 2012 reports under its fund's CNPJ, only after May.
        FidcReport july = Report(kNoCnpjFundCnpj, "2024-07");
        july.nav = 700;
        july.subordination_with_mezzanine_ratio = 0.7;
        july.delinquency_ratio = 0.07;
        july.pdd_ratio = 0.007;
        july.segments_json = "[]";
        july.positive_segment_count = 0;
        Persist(july);

        AnbimaSubclass untyped = Anbima("A0", kSeniorClassCnpj, kMultiFundCnpj);
        Persist(untyped);
        AnbimaSubclass typed = Anbima("A1", kSeniorClassCnpj, kMultiFundCnpj);
        typed.type = "Fomento Mercantil";
        Persist(typed);
    }

    // Each answer twice: built from the data (no answer is stored until an ingest or this
    // helper stores them), then read back from the answers RebuildPortfolioFundAnswers stores
    // (src/portfolio_fund_answers.hpp), which must be the same text and meta. The built one
    // is returned.
    sdk::Result Funds(const std::string& month, const std::string& registry_class_id = "2002") {
        const std::vector<Param> params = {{"class_id", ClassIdFor(registry_class_id)},
                                           {"month", MonthOf(month)}};
        const sdk::Result built = Run(&HandleClassPortfolioFunds, params);
        {
            odb::transaction transaction(Db().begin());
            RebuildPortfolioFundAnswers(Db());
            if (!built.data.as_array().empty()) {
                // A holder with an invested fund of the registry has its answer stored.
                EXPECT_TRUE(StoredPortfolioFundAnswer(
                    Db(), std::string(built.meta.extra.at("holder_cnpj").as_string()), month));
            }
            transaction.commit();
        }
        const sdk::Result stored = Run(&HandleClassPortfolioFunds, params);
        {
            odb::transaction transaction(Db().begin());
            Db().erase_query<PortfolioFundAnswer>();
            transaction.commit();
        }
        EXPECT_EQ(boost::json::serialize(stored.data), boost::json::serialize(built.data));
        EXPECT_EQ(stored.meta.extra, built.meta.extra);
        EXPECT_EQ(stored.meta.row_count, built.meta.row_count);
        return built;
    }

    static std::map<std::string, boost::json::object> ByCnpj(const sdk::Result& result) {
        std::map<std::string, boost::json::object> rows;
        for (const auto& row : result.data.as_array()) {
            rows[std::string(row.at("invested_cnpj").as_string())] = row.as_object();
        }
        return rows;
    }
};

TEST_F(ClassPortfolioFundsTest, OneRowPerInvestedCnpjOfTheRegistryLargestFirst) {
    const sdk::Result result = Funds("2024-05");
    ExpectManifestShape("funds.class_portfolio_funds", result.data);
    std::vector<std::string> order;
    for (const auto& row : result.data.as_array()) {
        order.emplace_back(row.at("invested_cnpj").as_string());
    }
    EXPECT_EQ(order, (std::vector<std::string>{kNoCnpjFundCnpj, kSeniorClassCnpj, kMultiFundCnpj,
                                               kAmbiguousCnpj, kClasslessFundCnpj, kTwinClassCnpj}));
    EXPECT_EQ(result.meta.extra.at("outside_positions").as_int64(), 2);
    // 400 and an empty value: the sum is unknown (it was 400 before missing values made sums null).
    EXPECT_TRUE(result.meta.extra.at("outside_position_brl").is_null());
    EXPECT_EQ(result.meta.extra.at("month").as_string(), "2024-05");
    EXPECT_EQ(result.meta.extra.at("previous_month").as_string(), "2024-04");
    EXPECT_TRUE(result.meta.extra.at("previous_month_filed").as_bool());
    EXPECT_EQ(result.meta.extra.at("holder_cnpj").as_string(), kInvestorCnpj);
    EXPECT_EQ(result.meta.data_release, "release-of-cvm.cda_fi");
    std::vector<std::string> sources;
    for (const sdk::Source& source : result.meta.sources) {
        sources.push_back(source.provider + "." + source.dataset);
    }
    EXPECT_EQ(sources, (std::vector<std::string>{"cvm.cda_fi", "cvm.registro_fundo_classe",
                                                 "cvm.inf_mensal_fidc", "anbima.subclasses"}));
    ExpectSourcesForEveryField("funds.class_portfolio_funds", result.data.as_array()[0].as_object(),
                               result.meta);
}

TEST_F(ClassPortfolioFundsTest, AUniqueClassCarriesEveryFieldAggregatedAndItsMetricsAsOfTheirMonths) {
    const auto rows = ByCnpj(Funds("2024-05"));
    const boost::json::object& senior = rows.at(kSeniorClassCnpj);
    EXPECT_EQ(senior.size(),
              39u);  // with held_subclass_ids, held_seniority, held_protection_ratio, held_as_of
    EXPECT_EQ(senior.at("month").as_string(), "2024-05");
    EXPECT_EQ(senior.at("invested_fund_id").as_string(), FundIdFor("1010"));
    EXPECT_EQ(senior.at("invested_class_id").as_string(), ClassIdFor("2010"));
    EXPECT_EQ(senior.at("invested_class_ids"), (boost::json::array{ClassIdFor("2010")}));
    EXPECT_EQ(senior.at("identity_status").as_string(), "unique_class");
    EXPECT_EQ(senior.at("invested_name").as_string(), "CLASSE SÊNIOR MULTI");
    EXPECT_EQ(senior.at("published_name").as_string(), "FIDC MULTI SENIOR (CDA)");
    EXPECT_EQ(senior.at("manager").as_string(), "GESTORA MULTI");
    EXPECT_EQ(senior.at("administrator").as_string(), "ADMINISTRADORA MULTI");
    EXPECT_EQ(senior.at("status").as_string(), "Em Funcionamento Normal");
    EXPECT_EQ(senior.at("position_count").as_int64(), 2);
    EXPECT_DOUBLE_EQ(senior.at("position_brl").to_number<double>(), 1500);
    EXPECT_DOUBLE_EQ(senior.at("previous_position_brl").to_number<double>(), 1200);
    EXPECT_DOUBLE_EQ(senior.at("position_variation_brl").to_number<double>(), 300);
    EXPECT_DOUBLE_EQ(senior.at("position_variation_pct").to_number<double>(), 25);
    EXPECT_DOUBLE_EQ(senior.at("position_share_of_investor_nav_pct").to_number<double>(), 15);
    EXPECT_DOUBLE_EQ(senior.at("investor_nav_brl").to_number<double>(), 10000);
    EXPECT_DOUBLE_EQ(senior.at("invested_nav_brl").to_number<double>(), 5000000);
    EXPECT_EQ(senior.at("invested_nav_as_of").as_string(), "2024-05");
    EXPECT_DOUBLE_EQ(senior.at("acquisitions_brl").to_number<double>(), 200);
    EXPECT_DOUBLE_EQ(senior.at("sales_brl").to_number<double>(), 50);
    EXPECT_EQ(senior.at("movement").as_string(), "increased");
    EXPECT_DOUBLE_EQ(senior.at("subordination_ratio").to_number<double>(), 0.25);
    EXPECT_EQ(senior.at("subordination_as_of").as_string(), "2024-05");
    // Not in May's report: the latest earlier report that has it, never June's.
    EXPECT_DOUBLE_EQ(senior.at("delinquency_ratio").to_number<double>(), 0.04);
    EXPECT_EQ(senior.at("delinquency_as_of").as_string(), "2024-03");
    EXPECT_DOUBLE_EQ(senior.at("pdd_ratio").to_number<double>(), 0.03);
    EXPECT_EQ(senior.at("pdd_as_of").as_string(), "2024-05");
    EXPECT_EQ(senior.at("segment_as_of").as_string(), "2024-05");
    EXPECT_EQ(senior.at("primary_segment_code").as_string(), "industria");
    EXPECT_EQ(senior.at("primary_segment_name").as_string(), "Industrial");
    EXPECT_DOUBLE_EQ(senior.at("primary_segment_ratio").to_number<double>(), 0.6);
    EXPECT_EQ(senior.at("segments"),
              (boost::json::array{
                  boost::json::object{{"code", "industria"}, {"name", "Industrial"}, {"ratio", 0.6}},
                  boost::json::object{{"code", "financeiro"}, {"name", "Financeiro"}, {"ratio", 0.4}}}));
    EXPECT_EQ(senior.at("anbima_type").as_string(), "Fomento Mercantil");
}

TEST_F(ClassPortfolioFundsTest, IdentityStatusOfEachKindOfInvestedCnpj) {
    const auto rows = ByCnpj(Funds("2024-05"));

    const boost::json::object& multi = rows.at(kMultiFundCnpj);
    EXPECT_EQ(multi.at("identity_status").as_string(), "fund_with_multiple_classes");
    EXPECT_EQ(multi.at("invested_fund_id").as_string(), FundIdFor("1010"));
    EXPECT_TRUE(multi.at("invested_class_id").is_null());
    EXPECT_EQ(multi.at("invested_class_ids"), (boost::json::array{ClassIdFor("2010"), ClassIdFor("2011")}));
    EXPECT_EQ(multi.at("invested_name").as_string(), "FIDC MULTICLASSE");
    EXPECT_EQ(multi.at("manager").as_string(), "GESTORA MULTI");
    // No single class: no class metrics, never another class's.
    for (const char* field :
         {"subordination_ratio", "delinquency_ratio", "pdd_ratio", "invested_nav_brl", "segment_as_of",
          "primary_segment_code", "anbima_type", "held_seniority", "held_protection_ratio", "held_as_of"}) {
        EXPECT_TRUE(multi.at(field).is_null()) << field;
    }
    EXPECT_TRUE(multi.at("segments").as_array().empty());

    const boost::json::object& classless = rows.at(kClasslessFundCnpj);
    EXPECT_EQ(classless.at("identity_status").as_string(), "fund_without_classes");
    EXPECT_EQ(classless.at("invested_fund_id").as_string(), FundIdFor("1012"));
    EXPECT_TRUE(classless.at("invested_class_id").is_null());
    EXPECT_TRUE(classless.at("invested_class_ids").as_array().empty());
    EXPECT_EQ(classless.at("status").as_string(), "Fase Pré-Operacional");

    // The fund's CNPJ of an only class is that class.
    const boost::json::object& agro = rows.at(kNoCnpjFundCnpj);
    EXPECT_EQ(agro.at("identity_status").as_string(), "unique_class");
    EXPECT_EQ(agro.at("invested_class_id").as_string(), ClassIdFor("2012"));
    EXPECT_EQ(agro.at("invested_fund_id").as_string(), FundIdFor("1011"));
    EXPECT_EQ(agro.at("invested_name").as_string(), "CLASSE ÚNICA AGRO");
    EXPECT_EQ(agro.at("anbima_type").as_string(), "FIDC Agro");  // no ANBIMA row: the registry's

    // A class of fund 1004 and fund 1006 share the CNPJ: nothing is picked.
    const boost::json::object& ambiguous = rows.at(kAmbiguousCnpj);
    EXPECT_EQ(ambiguous.at("identity_status").as_string(), "ambiguous");
    EXPECT_TRUE(ambiguous.at("invested_fund_id").is_null());
    EXPECT_TRUE(ambiguous.at("invested_class_id").is_null());
    EXPECT_EQ(ambiguous.at("invested_class_ids"), (boost::json::array{ClassIdFor("2006")}));
    EXPECT_TRUE(ambiguous.at("invested_name").is_null());
    EXPECT_TRUE(ambiguous.at("manager").is_null());
}

TEST_F(ClassPortfolioFundsTest, MovementAgainstTheSameHoldersPreviousMonth) {
    const auto rows = ByCnpj(Funds("2024-05"));
    EXPECT_EQ(rows.at(kMultiFundCnpj).at("movement").as_string(), "unchanged");
    EXPECT_DOUBLE_EQ(rows.at(kMultiFundCnpj).at("position_variation_brl").to_number<double>(), 0);

    const boost::json::object& decreased = rows.at(kClasslessFundCnpj);
    EXPECT_EQ(decreased.at("movement").as_string(), "decreased");
    EXPECT_DOUBLE_EQ(decreased.at("position_variation_brl").to_number<double>(), -200);
    EXPECT_NEAR(decreased.at("position_variation_pct").to_number<double>(), -66.6667, 1e-4);

    // Filed in April without it: new, and the previous position is unknown rather than 0.
    const boost::json::object& fresh = rows.at(kNoCnpjFundCnpj);
    EXPECT_EQ(fresh.at("movement").as_string(), "new");
    EXPECT_TRUE(fresh.at("previous_position_brl").is_null());
    EXPECT_TRUE(fresh.at("position_variation_brl").is_null());
    EXPECT_TRUE(fresh.at("position_variation_pct").is_null());

    // A position without a published value cannot be compared.
    const boost::json::object& unvalued = rows.at(kTwinClassCnpj);
    EXPECT_TRUE(unvalued.at("position_brl").is_null());
    EXPECT_DOUBLE_EQ(unvalued.at("previous_position_brl").to_number<double>(), 50);
    EXPECT_TRUE(unvalued.at("movement").is_null());
    EXPECT_TRUE(unvalued.at("position_share_of_investor_nav_pct").is_null());
    EXPECT_TRUE(unvalued.at("acquisitions_brl").is_null());
    EXPECT_TRUE(unvalued.at("sales_brl").is_null());
}

TEST_F(ClassPortfolioFundsTest, WithoutThePreviousMonthsCdaNothingIsCompared) {
    Persist(Holder(kInvestorCnpj, "2024-08", std::nullopt));
    Persist(FundPosition(kInvestorCnpj, "2024-08", 2000001, kNoCnpjFundCnpj, 900));
    const sdk::Result result = Funds("2024-08");
    EXPECT_FALSE(result.meta.extra.at("previous_month_filed").as_bool());
    EXPECT_EQ(result.meta.as_of, "2024-08") << "the reference period is the portfolio's month";
    EXPECT_EQ(Funds("2024-05").meta.as_of, "2024-05");
    const auto rows = ByCnpj(result);
    const boost::json::object& agro = rows.at(kNoCnpjFundCnpj);
    EXPECT_TRUE(agro.at("previous_position_brl").is_null());
    EXPECT_TRUE(agro.at("movement").is_null());
    EXPECT_TRUE(agro.at("investor_nav_brl").is_null());
    EXPECT_TRUE(agro.at("position_share_of_investor_nav_pct").is_null());
    // July is now the latest report up to August.
    EXPECT_DOUBLE_EQ(agro.at("invested_nav_brl").to_number<double>(), 700);
    for (const char* field :
         {"invested_nav_as_of", "subordination_as_of", "delinquency_as_of", "pdd_as_of", "segment_as_of"}) {
        EXPECT_EQ(agro.at(field).as_string(), "2024-07") << field;
    }
    EXPECT_TRUE(agro.at("segments").as_array().empty());
    EXPECT_TRUE(agro.at("primary_segment_code").is_null());
    EXPECT_EQ(result.meta.extra.at("outside_positions").as_int64(), 0);
    EXPECT_TRUE(result.meta.extra.at("outside_position_brl").is_null());
}

TEST_F(ClassPortfolioFundsTest, MoneyIsSummedToTheCent) {
    Persist(Holder(kInvestorCnpj, "2024-10", 1.0));
    Persist(FundPosition(kInvestorCnpj, "2024-10", 2000001, kSeniorClassCnpj, 0.1));
    Persist(FundPosition(kInvestorCnpj, "2024-10", 2000002, kSeniorClassCnpj, 0.2));
    Persist(Holder(kInvestorCnpj, "2024-09", 1.0));
    Persist(FundPosition(kInvestorCnpj, "2024-09", 2000001, kSeniorClassCnpj, 0.3));
    const boost::json::object senior = ByCnpj(Funds("2024-10")).at(kSeniorClassCnpj);
    EXPECT_EQ(senior.at("position_brl").to_number<double>(), 0.3);
    EXPECT_EQ(senior.at("position_variation_brl").to_number<double>(), 0.0);
    EXPECT_EQ(senior.at("movement").as_string(), "unchanged");
}

TEST_F(ClassPortfolioFundsTest, MetricsComeFromNoLaterMonth) {
    const auto rows = ByCnpj(Funds("2024-05"));
    const boost::json::object& agro = rows.at(kNoCnpjFundCnpj);
    for (const char* field : {"subordination_ratio", "delinquency_ratio", "pdd_ratio", "invested_nav_brl",
                              "invested_nav_as_of", "subordination_as_of", "delinquency_as_of", "pdd_as_of",
                              "segment_as_of", "primary_segment_name", "primary_segment_ratio"}) {
        EXPECT_TRUE(agro.at(field).is_null()) << field;
    }
}

TEST_F(ClassPortfolioFundsTest, OfTwoReportsOfOneMonthThePreferredCnpjsCounts) {
    FidcReport own = Report(kTwinClassCnpj, "2024-05");
    own.delinquency_ratio = 0.1;
    Persist(own);
    FidcReport funds = Report(kTwinFundCnpj, "2024-05");
    funds.delinquency_ratio = 0.2;
    funds.nav = 999;
    Persist(funds);
    const boost::json::object twin = ByCnpj(Funds("2024-05")).at(kTwinClassCnpj);
    EXPECT_DOUBLE_EQ(twin.at("delinquency_ratio").to_number<double>(), 0.1);
    EXPECT_TRUE(twin.at("invested_nav_brl").is_null());
}

// Past the last three months too: the walk back skips reports that publish nothing it still
// needs, but not those of a class's preferred CNPJ, which hide its other CNPJ's of that month.
TEST_F(ClassPortfolioFundsTest, OfTwoOlderReportsOfOneMonthThePreferredCnpjsCountsEvenEmpty) {
    Persist(Holder(kInvestorCnpj, "2024-08", 10000.0));
    Persist(FundPosition(kInvestorCnpj, "2024-08", 2000001, kTwinClassCnpj, 300));
    Persist(Report(kTwinClassCnpj, "2024-04"));  // publishes nothing
    FidcReport funds = Report(kTwinFundCnpj, "2024-04");
    funds.nav = 999;
    Persist(funds);
    FidcReport march = Report(kTwinClassCnpj, "2024-03");
    march.nav = 700;
    Persist(march);
    const boost::json::object twin = ByCnpj(Funds("2024-08")).at(kTwinClassCnpj);
    EXPECT_DOUBLE_EQ(twin.at("invested_nav_brl").to_number<double>(), 700);
    EXPECT_EQ(twin.at("invested_nav_as_of").as_string(), "2024-03");
}

TEST_F(ClassPortfolioFundsTest, NoCdaForTheMonthIsNotFoundNamingClassAndMonth) {
    try {
        Funds("2024-06");
        FAIL() << "expected NotFound";
    } catch (const sdk::NotFound& problem) {
        EXPECT_THAT(problem.what(), HasSubstr(ClassIdFor("2002")));
        EXPECT_THAT(problem.what(), HasSubstr("2024-06"));
        EXPECT_EQ(problem.Parameter(), "month");
    }
    EXPECT_THROW(Run(&HandleClassPortfolioFunds, {{"class_id", ClassIdFor("2002")}}), sdk::InvalidParameter);
}

// The handler asks about every invested CNPJ at once (a few IN (...) statements, in slices) and
// joins in memory: nothing of one invested class may reach another's row.

TEST_F(ClassPortfolioFundsTest, MetricsOlderThanTheRecentMonthsAreStillFound) {
    // In August the last three months (June to August) give only June's delinquency; the rest
    // comes from May, and nothing from March, whose delinquency June's replaces.
    Persist(Holder(kInvestorCnpj, "2024-08", 10000.0));
    Persist(FundPosition(kInvestorCnpj, "2024-08", 2000001, kSeniorClassCnpj, 100));
    Persist(FundPosition(kInvestorCnpj, "2024-08", 2000002, kNoCnpjFundCnpj, 100));
    const auto rows = ByCnpj(Funds("2024-08"));
    const boost::json::object& senior = rows.at(kSeniorClassCnpj);
    EXPECT_DOUBLE_EQ(senior.at("delinquency_ratio").to_number<double>(), 0.9);
    EXPECT_EQ(senior.at("delinquency_as_of").as_string(), "2024-06");
    EXPECT_DOUBLE_EQ(senior.at("invested_nav_brl").to_number<double>(), 5000000);
    EXPECT_EQ(senior.at("invested_nav_as_of").as_string(), "2024-05");
    EXPECT_DOUBLE_EQ(senior.at("subordination_ratio").to_number<double>(), 0.25);
    EXPECT_EQ(senior.at("subordination_as_of").as_string(), "2024-05");
    EXPECT_EQ(senior.at("segment_as_of").as_string(), "2024-05");
    EXPECT_EQ(senior.at("segments").as_array().size(), 2u);
    // Class 2012 found everything in July; none of class 2010's reports.
    const boost::json::object& agro = rows.at(kNoCnpjFundCnpj);
    EXPECT_DOUBLE_EQ(agro.at("invested_nav_brl").to_number<double>(), 700);
    EXPECT_DOUBLE_EQ(agro.at("delinquency_ratio").to_number<double>(), 0.07);
    EXPECT_EQ(agro.at("delinquency_as_of").as_string(), "2024-07");
    EXPECT_EQ(agro.at("anbima_type").as_string(), "FIDC Agro");
    EXPECT_EQ(senior.at("anbima_type").as_string(), "Fomento Mercantil");
}

TEST_F(ClassPortfolioFundsTest, AClassHeldUnderItsOwnAndItsFundsCnpjIsTheSameClassInBothRows) {
    Persist(Holder(kInvestorCnpj, "2024-08", 10000.0));
    Persist(FundPosition(kInvestorCnpj, "2024-08", 2000001, kTwinClassCnpj, 300));
    Persist(FundPosition(kInvestorCnpj, "2024-08", 2000002, kTwinFundCnpj, 200));
    FidcReport own = Report(kTwinClassCnpj, "2024-08");
    own.nav = 1000;
    Persist(own);
    FidcReport funds = Report(kTwinFundCnpj, "2024-07");
    funds.nav = 999;
    funds.pdd_ratio = 0.5;
    Persist(funds);
    const auto rows = ByCnpj(Funds("2024-08"));
    for (const char* cnpj : {kTwinClassCnpj, kTwinFundCnpj}) {
        const boost::json::object& twin = rows.at(cnpj);
        EXPECT_EQ(twin.at("identity_status").as_string(), "unique_class") << cnpj;
        EXPECT_EQ(twin.at("invested_class_id").as_string(), ClassIdFor("2013")) << cnpj;
        EXPECT_DOUBLE_EQ(twin.at("invested_nav_brl").to_number<double>(), 1000) << cnpj;
        EXPECT_EQ(twin.at("invested_nav_as_of").as_string(), "2024-08") << cnpj;
        EXPECT_DOUBLE_EQ(twin.at("pdd_ratio").to_number<double>(), 0.5) << cnpj;
        EXPECT_EQ(twin.at("pdd_as_of").as_string(), "2024-07") << cnpj;
        EXPECT_TRUE(twin.at("delinquency_ratio").is_null()) << cnpj;
        EXPECT_TRUE(twin.at("anbima_type").is_null()) << cnpj;
    }
    EXPECT_DOUBLE_EQ(rows.at(kTwinClassCnpj).at("position_brl").to_number<double>(), 300);
    EXPECT_DOUBLE_EQ(rows.at(kTwinFundCnpj).at("position_brl").to_number<double>(), 200);
}

// More invested CNPJs than one statement asks about (the handler's slices of 250), known and
// unknown interleaved: each class keeps its own name, NAV and ANBIMA type, and the rows their
// order.
TEST_F(ClassPortfolioFundsTest, HundredsOfInvestedFundsEachKeepTheirOwnRow) {
    constexpr int kKnown = 300;
    constexpr int kUnknown = 300;
    const auto cnpj_of = [](int i, bool known) {
        std::string digits = std::to_string(i);
        return std::string(known ? "3" : "4") + std::string(13 - digits.size(), '0') + digits;
    };
    {
        odb::transaction transaction(Db().begin());
        CdaHolder holder = Holder(kInvestorCnpj, "2024-09", 1000000.0);
        Db().persist(holder);
        std::int64_t ordinal = 2000001;
        for (int i = 0; i < kKnown; ++i) {
            Fund fund;
            fund.fund_id = "bulk-fund-" + std::to_string(i);
            fund.registry_id = 900000 + i;
            fund.cnpj = cnpj_of(i, true) + "F";  // the class is invested by its own CNPJ
            fund.name = "BULK FUND " + std::to_string(i);
            fund.search_text = "bulk";
            Db().persist(fund);
            FundClass fund_class;
            fund_class.class_id = "bulk-class-" + std::to_string(i);
            fund_class.fund_id = fund.fund_id;
            fund_class.registry_id = 900000 + i;
            fund_class.fund_registry_id = fund.registry_id;
            fund_class.cnpj = cnpj_of(i, true);
            fund_class.name = "BULK CLASS " + std::to_string(i);
            fund_class.anbima_classification = "registry " + std::to_string(i);
            Db().persist(fund_class);
            FidcReport report = Report(cnpj_of(i, true), i % 2 == 0 ? "2024-09" : "2023-01");
            report.nav = 1000 + i;
            Db().persist(report);
            if (i % 7 == 0) {
                AnbimaSubclass subclass = Anbima("B" + std::to_string(i), cnpj_of(i, true), fund.cnpj);
                subclass.type = "anbima " + std::to_string(i);
                Db().persist(subclass);
            }
            CdaPosition known = FundPosition(kInvestorCnpj, "2024-09", ordinal++, cnpj_of(i, true), 10.0 + i);
            Db().persist(known);
        }
        for (int i = 0; i < kUnknown; ++i) {
            CdaPosition unknown = FundPosition(kInvestorCnpj, "2024-09", ordinal++, cnpj_of(i, false), 1.0);
            Db().persist(unknown);
        }
        transaction.commit();
    }
    const sdk::Result result = Funds("2024-09");
    const boost::json::array& data = result.data.as_array();
    ASSERT_EQ(data.size(), static_cast<std::size_t>(kKnown));
    EXPECT_EQ(result.meta.extra.at("outside_positions").as_int64(), kUnknown);
    for (std::size_t row = 0; row < data.size(); ++row) {
        const int i = kKnown - 1 - static_cast<int>(row);  // largest position first
        const boost::json::object& item = data[row].as_object();
        ASSERT_EQ(item.at("invested_cnpj").as_string(), cnpj_of(i, true)) << row;
        EXPECT_EQ(item.at("identity_status").as_string(), "unique_class") << i;
        EXPECT_EQ(item.at("invested_class_id").as_string(), "bulk-class-" + std::to_string(i));
        EXPECT_EQ(item.at("invested_fund_id").as_string(), "bulk-fund-" + std::to_string(i));
        EXPECT_EQ(item.at("invested_name").as_string(), "BULK CLASS " + std::to_string(i));
        EXPECT_DOUBLE_EQ(item.at("invested_nav_brl").to_number<double>(), 1000 + i);
        EXPECT_EQ(item.at("invested_nav_as_of").as_string(), i % 2 == 0 ? "2024-09" : "2023-01");
        EXPECT_TRUE(item.at("delinquency_ratio").is_null()) << i;
        EXPECT_EQ(item.at("anbima_type").as_string(),
                  (i % 7 == 0 ? "anbima " : "registry ") + std::to_string(i));
    }
}

// The subclass held (docs/api/portfolio.md): class 2010's report of 2024-08 has a senior
// (1,000), a mezzanine (200) and a subordinated (200) series, each naming its subclass in X_1.
class HeldSubclassTest : public ClassPortfolioFundsTest {
protected:
    void SetUp() override {
        ClassPortfolioFundsTest::SetUp();
        FidcReport august = Report(kSeniorClassCnpj, "2024-08");
        {
            odb::transaction transaction(Db().begin());
            Db().persist(august);
            transaction.commit();
        }
        AddSeries(august, "Subclasse Senior Serie 1", "senior", "SEN1", 1000, 1.0);
        AddSeries(august, "Subclasse Subordinada Cota Mezanino | Serie 1", "mezzanine", "MEZ1", 100, 2.0);
        AddSeries(august, "Subclasse Subordinada Sub | Subordinada 1", "subordinated", "SUB1", 50, 4.0);
    }

    void AddSeries(const FidcReport& report, const std::string& label, const std::string& seniority,
                   const std::string& code, std::optional<double> quotas, std::optional<double> value) {
        FidcSeries series;
        series.report_id = report.id;
        series.cnpj = report.cnpj;
        series.month = report.month;
        series.label = label;
        series.series_key = label;
        series.seniority = seniority;
        series.subclass_code = code;
        series.quota_count = quotas;
        series.quota_value = value;
        Persist(series);
    }

    // The row of class 2010 when the investor holds `subclasses` of it in `month`.
    boost::json::object HeldRow(const std::string& month, const std::vector<std::string>& subclasses) {
        Persist(Holder(kInvestorCnpj, month, 10000.0));
        std::int64_t ordinal = 2000001;
        for (const std::string& subclass : subclasses) {
            CdaPosition position = FundPosition(kInvestorCnpj, month, ordinal++, kSeniorClassCnpj, 100);
            position.invested_subclass = subclass;
            Persist(position);
        }
        if (subclasses.empty()) {  // a row whose ID_SUBCLASSE is blank
            Persist(FundPosition(kInvestorCnpj, month, ordinal, kSeniorClassCnpj, 100));
        }
        const sdk::Result result = Funds(month);
        ExpectManifestShape("funds.class_portfolio_funds", result.data);
        return ByCnpj(result).at(kSeniorClassCnpj);
    }
};

TEST_F(HeldSubclassTest, TheSubclassHeldHasItsOwnProtection) {
    const boost::json::object junior = HeldRow("2024-09", {"SUB1"});
    EXPECT_EQ(junior.at("held_subclass_ids"), boost::json::array({"SUB1"}));
    EXPECT_EQ(junior.at("held_seniority").as_string(), "subordinated");
    EXPECT_DOUBLE_EQ(junior.at("held_protection_ratio").to_number<double>(), 0.0) << "nothing is beneath it";
    EXPECT_EQ(junior.at("held_as_of").as_string(), "2024-08") << "the latest report up to the month";
    // The class's senior subordination is still served, and is not the holder's protection.
    EXPECT_DOUBLE_EQ(junior.at("subordination_ratio").to_number<double>(), 0.25);

    const boost::json::object mezzanine = HeldRow("2024-10", {"MEZ1"});
    EXPECT_EQ(mezzanine.at("held_seniority").as_string(), "mezzanine");
    EXPECT_DOUBLE_EQ(mezzanine.at("held_protection_ratio").to_number<double>(), 200.0 / 1400.0);

    const boost::json::object senior = HeldRow("2024-11", {"SEN1", "SEN1"});
    EXPECT_EQ(senior.at("held_subclass_ids"), boost::json::array({"SEN1"}));
    EXPECT_EQ(senior.at("held_seniority").as_string(), "senior");
    EXPECT_DOUBLE_EQ(senior.at("held_protection_ratio").to_number<double>(), 400.0 / 1400.0);
}

TEST_F(HeldSubclassTest, NothingIsGuessedWhenTheSubclassHeldIsNotKnown) {
    const boost::json::object mixed = HeldRow("2024-09", {"SEN1", "SUB1"});
    EXPECT_EQ(mixed.at("held_seniority").as_string(), "mixed");
    EXPECT_TRUE(mixed.at("held_protection_ratio").is_null());

    const boost::json::object unnamed = HeldRow("2024-10", {});
    EXPECT_EQ(unnamed.at("held_subclass_ids"), boost::json::array());
    EXPECT_TRUE(unnamed.at("held_seniority").is_null());
    EXPECT_TRUE(unnamed.at("held_protection_ratio").is_null());
    EXPECT_TRUE(unnamed.at("held_as_of").is_null());

    // One held id the report does not name: the rank of what is held is not known.
    const boost::json::object partly = HeldRow("2024-11", {"SEN1", "OTHER"});
    EXPECT_TRUE(partly.at("held_seniority").is_null());
    EXPECT_TRUE(partly.at("held_protection_ratio").is_null());

    // Before any report names it: null, never a later report's figure.
    const boost::json::object early = HeldRow("2024-07", {"SUB1"});
    EXPECT_TRUE(early.at("held_seniority").is_null());
    EXPECT_TRUE(early.at("held_as_of").is_null());
}

TEST_F(HeldSubclassTest, ASeriesOfUnknownNavLeavesTheProtectionUnknown) {
    FidcReport december = Report(kSeniorClassCnpj, "2024-12");
    {
        odb::transaction transaction(Db().begin());
        Db().persist(december);
        transaction.commit();
    }
    AddSeries(december, "Subclasse Senior Serie 1", "senior", "SEN1", 1000, 1.0);
    AddSeries(december, "Subclasse Subordinada Sub | Subordinada 1", "subordinated", "SUB1", std::nullopt,
              4.0);
    const boost::json::object senior = HeldRow("2024-12", {"SEN1"});
    EXPECT_EQ(senior.at("held_seniority").as_string(), "senior");
    EXPECT_EQ(senior.at("held_as_of").as_string(), "2024-12");
    EXPECT_TRUE(senior.at("held_protection_ratio").is_null()) << "a missing NAV is not a zero";
}

TEST_F(HeldSubclassTest, EachClassRanksOnlyTheSubclassesHeldOfIt) {
    // Class 2012 (reports under its fund's CNPJ) names SEN1 too, as its subordinated series,
    // and X9 as its senior one; the investor holds SEN1 of class 2010 and X9 of class 2012.
    FidcReport agro = Report(kNoCnpjFundCnpj, "2024-08");
    {
        odb::transaction transaction(Db().begin());
        Db().persist(agro);
        transaction.commit();
    }
    AddSeries(agro, "Subclasse Senior X9", "senior", "X9", 30, 1.0);
    AddSeries(agro, "Subclasse Subordinada", "subordinated", "SEN1", 10, 1.0);
    Persist(Holder(kInvestorCnpj, "2024-09", 10000.0));
    CdaPosition senior = FundPosition(kInvestorCnpj, "2024-09", 2000001, kSeniorClassCnpj, 100);
    senior.invested_subclass = "SEN1";
    Persist(senior);
    CdaPosition other = FundPosition(kInvestorCnpj, "2024-09", 2000002, kNoCnpjFundCnpj, 50);
    other.invested_subclass = "X9";
    Persist(other);
    const auto rows = ByCnpj(Funds("2024-09"));
    const boost::json::object& multi = rows.at(kSeniorClassCnpj);
    EXPECT_EQ(multi.at("held_seniority").as_string(), "senior");
    EXPECT_DOUBLE_EQ(multi.at("held_protection_ratio").to_number<double>(), 400.0 / 1400.0);
    EXPECT_EQ(multi.at("held_as_of").as_string(), "2024-08");
    const boost::json::object& only = rows.at(kNoCnpjFundCnpj);
    EXPECT_EQ(only.at("held_subclass_ids"), boost::json::array({"X9"}));
    EXPECT_EQ(only.at("held_seniority").as_string(), "senior");
    EXPECT_DOUBLE_EQ(only.at("held_protection_ratio").to_number<double>(), 10.0 / 40.0);
    EXPECT_EQ(only.at("held_as_of").as_string(), "2024-08");
}

}  // namespace
}  // namespace lastro::funds::testing
