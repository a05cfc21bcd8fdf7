#include "src/screening.hpp"
#include "domain/registry/registry_rules.hpp"
#include "fidc_report_fixture.hpp"

#include <lastro/sdk/problem.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <set>

namespace lastro::funds::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

struct Metrics {
    std::optional<double> nav;
    std::optional<double> delinquency;
    std::optional<double> subordination;
    std::optional<double> pdd;
    std::optional<std::string> segment;
};

std::string SegmentsJson(const std::string& code, const std::string& name) {
    return boost::json::serialize(boost::json::array{
        boost::json::object{{"code", "industrial"},
                            {"name", "Industrial"},
                            {"source", "TAB_II_A_VL_INDUST"},
                            {"value", nullptr}},
        boost::json::object{{"code", code}, {"name", name}, {"source", "TAB_II_X"}, {"value", 80.0}},
    });
}

// Month 2025-05: the universe's classes 2001 2002 2003 (through its fund's CNPJ) 2004 2006,
// plus filings that are not in the universe or not a class's: an FI, a fund of two classes, a
// fund without classes and an unknown CNPJ. Month 2025-04: classes 2001 and 2002.
class ScreeningTest : public FidcReportTest {
protected:
    void SetUp() override {
        FidcReportTest::SetUp();
        File(kAlfaCnpj, "2025-05", {500.0, 0.02, 0.30, 0.01, "payroll_loans"}, 10);
        File(kAlfaMezzCnpj, "2025-05", {std::nullopt, 0.10, 0.25, std::nullopt, "vehicles"}, 4);
        File(kGamaFundCnpj, "2025-05", {300.0, std::nullopt, 0.40, 0.03, "payroll_loans"}, 7);
        File(kDeltaCnpj, "2025-05", {300.0, 0.05, std::nullopt, 0.02, std::nullopt}, std::nullopt);
        File(kMultiSeniorCnpj, "2025-05", {50.0, 0.20, 0.10, 0.05, "factoring_companies"}, 2);
        File(kEpsilonCnpj, "2025-05", {1000.0, 0.0, 0.0, 0.0, "industrial"}, 1);
        File(kMultiCnpj, "2025-05", {900.0, 0.0, 0.0, 0.0, "industrial"}, 1);
        File(kClasslessCnpj, "2025-05", {800.0, 0.0, 0.0, 0.0, "industrial"}, 1);
        File(kUnknownCnpj, "2025-05", {700.0, 0.0, 0.0, 0.0, "industrial"}, 1);
        File(kAlfaCnpj, "2025-04", {450.0, 0.03, 0.31, 0.01, "payroll_loans"}, 9);
        File(kAlfaMezzCnpj, "2025-04", {60.0, 0.09, 0.26, 0.02, "vehicles"}, 4);
    }

    void File(const std::string& cnpj, const std::string& month, const Metrics& metrics,
              std::optional<std::int64_t> investors) {
        FidcReport report = MonthlyReport(cnpj, month);
        report.nav = metrics.nav;
        report.investor_count = investors;
        report.delinquency_ratio = metrics.delinquency;
        report.subordination_with_mezzanine_ratio = metrics.subordination;
        report.subordination_without_mezzanine_ratio =
            metrics.subordination ? std::optional<double>(*metrics.subordination / 2) : std::nullopt;
        report.pdd_ratio = metrics.pdd;
        if (metrics.segment) {
            report.primary_segment_code = metrics.segment;
            report.primary_segment_ratio = 0.8;
            report.segments_json = SegmentsJson(*metrics.segment, "Nome de " + *metrics.segment);
        }
        AddReport(report);
    }

    // The handler answers its rows as stored JSON text (data_json, schema 6); CallHandler refuses
    // an answer with both `data` and `data_json` and parses the text into `data`, as a client reads it.
    sdk::Result Run(const sdk::Handler& handler, const std::vector<Param>& params,
                    const std::optional<boost::json::value>& position = std::nullopt) {
        sdk::Result result = FidcReportTest::Run(handler, params, position);
        EXPECT_TRUE(result.data_json.has_value());
        EXPECT_TRUE(result.data.is_array());
        EXPECT_EQ(result.meta.row_count, result.data.is_array() ? result.data.as_array().size() : 0u);
        return result;
    }

    sdk::Result Screen(std::vector<Param> params,
                       const std::optional<boost::json::value>& position = std::nullopt) {
        params.push_back({"limit", std::int64_t{100}});
        return Run(&HandleScreening, params, position);
    }

    // Registry ids ("2001"...) of the classes a screening returns, in order.
    std::vector<std::string> Classes(const std::vector<Param>& params) {
        const sdk::Result result = Screen(params);
        std::vector<std::string> ids;
        for (const auto& row : result.data.as_array()) {
            ids.push_back(RegistryIdOf(std::string(row.at("class_id").as_string())));
        }
        return ids;
    }

    static std::string RegistryIdOf(const std::string& class_id) {
        for (int id = 2001; id <= 2007; ++id) {
            if (ClassIdFor(std::to_string(id)) == class_id) {
                return std::to_string(id);
            }
        }
        return class_id;
    }

    // The row of class `registry_id`, or null.
    static const boost::json::object* RowOf(const sdk::Result& result, const std::string& registry_id) {
        for (const auto& row : result.data.as_array()) {
            if (row.at("class_id").as_string() == ClassIdFor(registry_id)) {
                return &row.as_object();
            }
        }
        return nullptr;
    }

    // The two classes tied at NAV 300, in class_id order.
    static std::vector<std::string> TiedAt300() {
        return ClassIdFor("2003") < ClassIdFor("2004") ? std::vector<std::string>{"2003", "2004"}
                                                       : std::vector<std::string>{"2004", "2003"};
    }

    // Every page of `params` with `limit`, following next_position to the end.
    std::vector<std::string> AllPages(std::vector<Param> params, std::int64_t limit) {
        params.push_back({"limit", limit});
        std::vector<std::string> ids;
        std::optional<boost::json::value> position;
        for (int page = 0; page < 20; ++page) {
            const sdk::Result result = Run(&HandleScreening, params, position);
            EXPECT_LE(result.data.as_array().size(), static_cast<std::size_t>(limit));
            for (const auto& row : result.data.as_array()) {
                ids.push_back(RegistryIdOf(std::string(row.at("class_id").as_string())));
            }
            if (!result.meta.next_position) {
                return ids;
            }
            // As the host does: the position travels as JSON text inside the cursor.
            position = boost::json::parse(boost::json::serialize(*result.meta.next_position));
        }
        ADD_FAILURE() << "paging did not end";
        return ids;
    }
};

TEST_F(ScreeningTest, TheUniverseIsEveryFidcClassWithAReportOnce) {
    EXPECT_THAT(Classes({}), UnorderedElementsAre("2001", "2002", "2003", "2004", "2006"));
}

TEST_F(ScreeningTest, RowsCarryTheRegistryAndTheMonthsIndicators) {
    const sdk::Result result = Screen({{"month", MonthOf("2025-05")}});
    const boost::json::object* alfa = RowOf(result, "2001");
    const boost::json::object* gama = RowOf(result, "2003");
    const boost::json::object* delta = RowOf(result, "2004");
    ASSERT_TRUE(alfa && gama && delta);
    EXPECT_EQ(alfa->at("fund_id").as_string(), FundIdFor("1001"));
    EXPECT_EQ(alfa->at("cnpj").as_string(), kAlfaCnpj);
    EXPECT_EQ(alfa->at("class_name").as_string(), "CLASSE SÊNIOR ALFA");
    EXPECT_EQ(alfa->at("fund_name").as_string(), "FIDC ALFA CRÉDITO");
    EXPECT_EQ(alfa->at("fund_type").as_string(), "FIDC");
    EXPECT_EQ(alfa->at("manager").as_string(), "GESTORA AÇÃO LTDA");
    EXPECT_EQ(alfa->at("administrator").as_string(), "ADMINISTRADORA BETA S.A.");
    EXPECT_EQ(alfa->at("status").as_string(), "Em Funcionamento Normal");
    EXPECT_EQ(alfa->at("month").as_string(), "2025-05");
    EXPECT_DOUBLE_EQ(alfa->at("nav_brl").to_number<double>(), 500.0);
    EXPECT_EQ(alfa->at("investor_count").as_int64(), 10);
    EXPECT_DOUBLE_EQ(alfa->at("delinquency_ratio").to_number<double>(), 0.02);
    EXPECT_DOUBLE_EQ(alfa->at("pdd_ratio").to_number<double>(), 0.01);
    EXPECT_DOUBLE_EQ(alfa->at("subordination_with_mezzanine_ratio").to_number<double>(), 0.30);
    EXPECT_DOUBLE_EQ(alfa->at("subordination_without_mezzanine_ratio").to_number<double>(), 0.15);
    EXPECT_EQ(alfa->at("primary_segment_code").as_string(), "payroll_loans");
    EXPECT_EQ(alfa->at("primary_segment_name").as_string(), "Nome de payroll_loans");
    EXPECT_DOUBLE_EQ(alfa->at("primary_segment_ratio").to_number<double>(), 0.8);

    // Class 2003 filed under its fund's CNPJ: the filing CNPJ is shown.
    EXPECT_EQ(gama->at("cnpj").as_string(), kGamaFundCnpj);
    EXPECT_EQ(gama->at("fund_type").as_string(), "FIDC-NP");
    EXPECT_TRUE(gama->at("delinquency_ratio").is_null());
    // "FIC FIDC" in the registry is served as FIC-FIDC; a missing segment stays null.
    EXPECT_EQ(delta->at("fund_type").as_string(), "FIC-FIDC");
    EXPECT_TRUE(delta->at("primary_segment_code").is_null());
    EXPECT_TRUE(delta->at("primary_segment_name").is_null());
    EXPECT_TRUE(delta->at("investor_count").is_null());

    ExpectManifestShape("funds.screening", result.data);
    ExpectSourcesForEveryField("funds.screening", *alfa, result.meta);
    EXPECT_EQ(result.meta.as_of, "2025-05");
    EXPECT_EQ(result.meta.data_release, "release-of-cvm.inf_mensal_fidc");
    EXPECT_EQ(result.meta.extra.at("universe_filter").at("fund_type").as_string(), "FIDC");
    EXPECT_EQ(result.meta.extra.at("match_count").as_uint64(), 5u);
}

TEST_F(ScreeningTest, AClassOwnReportWinsOverItsFundsFiling) {
    File(kGamaClassCnpj, "2025-05", {310.0, 0.01, 0.41, 0.02, "payroll_loans"}, 8);
    const sdk::Result result = Screen({{"sort", std::string("name")}, {"order", std::string("asc")}});
    int seen = 0;
    for (const auto& row : result.data.as_array()) {
        if (row.at("class_id").as_string() == ClassIdFor("2003")) {
            ++seen;
            EXPECT_EQ(row.at("cnpj").as_string(), kGamaClassCnpj);
            EXPECT_DOUBLE_EQ(row.at("nav_brl").to_number<double>(), 310.0);
        }
    }
    EXPECT_EQ(seen, 1);
}

TEST_F(ScreeningTest, TheDefaultMonthIsTheLatestInTheReports) {
    const sdk::Result latest = Screen({});
    EXPECT_EQ(latest.meta.as_of, "2025-05");
    EXPECT_EQ(latest.meta.extra.at("month_selection").as_string(), "latest_month");

    EXPECT_THAT(Classes({{"month", MonthOf("2025-04")}}), ElementsAre("2001", "2002"));

    // A later month filed only by a CNPJ outside the universe is still the latest month.
    File(kUnknownCnpj, "2025-06", {1.0, 0.0, 0.0, 0.0, std::nullopt}, 1);
    const sdk::Result june = Screen({});
    EXPECT_EQ(june.meta.as_of, "2025-06");
    EXPECT_TRUE(june.data.as_array().empty());
}

TEST_F(ScreeningTest, AMonthWithoutReportsIsNotFound) {
    try {
        Screen({{"month", MonthOf("2025-03")}});
        FAIL() << "expected NotFound";
    } catch (const sdk::NotFound& problem) {
        EXPECT_THAT(problem.what(), HasSubstr("2025-03"));
        EXPECT_EQ(problem.Parameter(), "month");
    }
}

TEST_F(ScreeningTest, FundTypeSegmentAndRegistryFilters) {
    EXPECT_THAT(Classes({{"fund_type", std::string("FIDC")}}), UnorderedElementsAre("2001", "2002", "2006"));
    EXPECT_THAT(Classes({{"fund_type", std::string("FIDC-NP")}}), ElementsAre("2003"));
    EXPECT_THAT(Classes({{"fund_type", std::string("FIC-FIDC")}}), ElementsAre("2004"));
    EXPECT_THAT(Classes({{"segment", std::string("payroll_loans")}}), UnorderedElementsAre("2001", "2003"));
    EXPECT_TRUE(Classes({{"segment", std::string("industrial")}}).empty());
    EXPECT_THAT(Classes({{"manager", std::string("acao")}}), UnorderedElementsAre("2001", "2002"));
    EXPECT_THAT(Classes({{"manager", std::string("ÔMEGA")}}), ElementsAre("2003"));
    EXPECT_THAT(Classes({{"administrator", std::string("zeta")}}), ElementsAre("2004"));
    EXPECT_THAT(Classes({{"status", std::string("cancelado")}}), ElementsAre("2004"));
    EXPECT_TRUE(Classes({{"status", std::string("cancel")}}).empty());
    EXPECT_THAT(Classes({{"administrator", std::string("beta")}, {"fund_type", std::string("FIDC")}}),
                UnorderedElementsAre("2001", "2002"));

    const sdk::Result np = Screen({{"fund_type", std::string("FIDC-NP")}});
    EXPECT_EQ(np.meta.extra.at("universe_filter").at("fund_type").as_string(), "FIDC-NP");
}

TEST_F(ScreeningTest, MetricFiltersAreInclusiveAndExcludeNulls) {
    EXPECT_THAT(Classes({{"min_nav_brl", 300.0}}), UnorderedElementsAre("2001", "2003", "2004"));
    EXPECT_THAT(Classes({{"max_nav_brl", 300.0}}), UnorderedElementsAre("2003", "2004", "2006"));
    EXPECT_THAT(Classes({{"min_nav_brl", 300.0}, {"max_nav_brl", 300.0}}),
                UnorderedElementsAre("2003", "2004"));
    EXPECT_THAT(Classes({{"max_delinquency_ratio", 0.05}}), UnorderedElementsAre("2001", "2004"));
    EXPECT_THAT(Classes({{"min_delinquency_ratio", 0.10}}), UnorderedElementsAre("2002", "2006"));
    EXPECT_THAT(Classes({{"min_subordination_ratio", 0.25}, {"max_subordination_ratio", 0.30}}),
                UnorderedElementsAre("2001", "2002"));
    EXPECT_THAT(Classes({{"max_subordination_ratio", 1.0}}),
                UnorderedElementsAre("2001", "2002", "2003", "2006"));
}

TEST_F(ScreeningTest, AMinimumAboveItsMaximumIsABadRequestNamingBoth) {
    try {
        Screen({{"min_delinquency_ratio", 0.5}, {"max_delinquency_ratio", 0.1}});
        FAIL() << "expected BadRequest";
    } catch (const sdk::BadRequest& problem) {
        EXPECT_THAT(problem.what(), HasSubstr("min_delinquency_ratio"));
        EXPECT_THAT(problem.what(), HasSubstr("max_delinquency_ratio"));
        EXPECT_EQ(problem.Parameter(), "min_delinquency_ratio");
    }
    EXPECT_THROW(Screen({{"min_nav_brl", 2.0}, {"max_nav_brl", 1.0}}), sdk::BadRequest);
    EXPECT_THROW(Screen({{"min_subordination_ratio", 0.3}, {"max_subordination_ratio", 0.2}}),
                 sdk::BadRequest);
}

TEST_F(ScreeningTest, SortsBothWaysWithNullsLastAndTiesByClassId) {
    const auto tied = TiedAt300();
    EXPECT_THAT(Classes({}), ElementsAre("2001", tied[0], tied[1], "2006", "2002"));
    EXPECT_THAT(Classes({{"order", std::string("asc")}}),
                ElementsAre("2006", tied[0], tied[1], "2001", "2002"));

    EXPECT_THAT(Classes({{"sort", std::string("delinquency_ratio")}}),
                ElementsAre("2006", "2002", "2004", "2001", "2003"));
    EXPECT_THAT(Classes({{"sort", std::string("delinquency_ratio")}, {"order", std::string("asc")}}),
                ElementsAre("2001", "2004", "2002", "2006", "2003"));
    EXPECT_THAT(Classes({{"sort", std::string("subordination_ratio")}}),
                ElementsAre("2003", "2001", "2002", "2006", "2004"));
    EXPECT_THAT(Classes({{"sort", std::string("pdd_ratio")}, {"order", std::string("asc")}}),
                ElementsAre("2001", "2004", "2003", "2006", "2002"));
    // Names folded: "FIC DELTA" < "FIDC ALFA CREDITO" (2001, 2002 tied) < "FIDC MULTI" < "FIDC NP GAMA".
    const std::vector<std::string> alfa = ClassIdFor("2001") < ClassIdFor("2002")
                                              ? std::vector<std::string>{"2001", "2002"}
                                              : std::vector<std::string>{"2002", "2001"};
    EXPECT_THAT(Classes({{"sort", std::string("name")}, {"order", std::string("asc")}}),
                ElementsAre("2004", alfa[0], alfa[1], "2006", "2003"));
    EXPECT_THAT(Classes({{"sort", std::string("name")}}),
                ElementsAre("2003", "2006", alfa[0], alfa[1], "2004"));
}

TEST_F(ScreeningTest, PagingToTheEndReturnsEveryRowOnceInOrder) {
    const std::vector<std::vector<Param>> cases = {
        {},
        {{"order", std::string("asc")}},
        {{"sort", std::string("delinquency_ratio")}},
        {{"sort", std::string("subordination_ratio")}, {"order", std::string("asc")}},
        {{"sort", std::string("pdd_ratio")}},
        {{"sort", std::string("name")}, {"order", std::string("asc")}},
        {{"sort", std::string("name")}},
        {{"fund_type", std::string("FIDC")}},
    };
    for (const auto& params : cases) {
        const std::vector<std::string> whole = Classes(params);
        for (std::int64_t limit : {1, 2, 3}) {
            SCOPED_TRACE("limit " + std::to_string(limit));
            const std::vector<std::string> paged = AllPages(params, limit);
            EXPECT_EQ(paged, whole);
            EXPECT_EQ(std::set<std::string>(paged.begin(), paged.end()).size(), paged.size());
        }
    }
}

TEST_F(ScreeningTest, TheLastPageHasNoNextPosition) {
    const sdk::Result all = Run(&HandleScreening, {{"limit", std::int64_t{5}}});
    EXPECT_EQ(all.data.as_array().size(), 5u);
    EXPECT_FALSE(all.meta.next_position.has_value());
    const sdk::Result first = Run(&HandleScreening, {{"limit", std::int64_t{4}}});
    ASSERT_TRUE(first.meta.next_position.has_value());
    EXPECT_EQ(first.meta.next_position->at("month").as_string(), "2025-05");
}

TEST_F(ScreeningTest, APositionKeepsItsNumberExactly) {
    // A value whose decimal text needs 17 digits: the position carries it as text, so no JSON
    // number parsing can move it by a bit and repeat or skip the row at the page boundary.
    File(kGamaClassCnpj, "2025-05", {0.1 + 0.2, 0.04926700000045242, 0.1 + 0.2, 0.0, std::nullopt}, 1);
    const sdk::Result first = Run(&HandleScreening, {{"sort", std::string("delinquency_ratio")},
                                                     {"order", std::string("asc")},
                                                     {"limit", std::int64_t{2}}});
    ASSERT_TRUE(first.meta.next_position.has_value());
    EXPECT_EQ(first.meta.next_position->at("value").as_string(), "0.04926700000045242");
    EXPECT_THAT(AllPages({{"sort", std::string("subordination_ratio")}}, 1),
                ElementsAre("2003", "2001", "2002", "2006", "2004"));
}

TEST_F(ScreeningTest, LaterPagesStayOnTheFirstPagesMonth) {
    const sdk::Result first = Run(&HandleScreening, {{"limit", std::int64_t{2}}});
    ASSERT_TRUE(first.meta.next_position.has_value());
    // A newer month arrives between pages: the cursor keeps screening 2025-05.
    File(kAlfaCnpj, "2025-06", {1.0, 0.0, 0.0, 0.0, std::nullopt}, 1);
    const sdk::Result second = Run(&HandleScreening, {{"limit", std::int64_t{2}}}, first.meta.next_position);
    EXPECT_EQ(second.meta.as_of, "2025-05");
    ASSERT_FALSE(second.data.as_array().empty());
    EXPECT_EQ(second.data.as_array()[0].at("month").as_string(), "2025-05");
}

TEST_F(ScreeningTest, AForeignPositionIsABadRequest) {
    const std::vector<boost::json::value> foreign = {
        boost::json::object{{"after", ClassIdFor("2001")}},
        boost::json::object{{"month", "2025-05"}, {"value", "text"}, {"class_id", ClassIdFor("2001")}},
        boost::json::object{{"month", "2025-13"}, {"value", 1.0}, {"class_id", ClassIdFor("2001")}},
        boost::json::object{{"month", "2025-05"}, {"value", 1.0}, {"class_id", "not-a-uuid"}},
        boost::json::value("2025-05"),
    };
    for (const auto& position : foreign) {
        EXPECT_THROW(Run(&HandleScreening, {{"limit", std::int64_t{2}}}, position), sdk::BadRequest)
            << boost::json::serialize(position);
    }
    // A position of another month than the one asked.
    const boost::json::value april =
        boost::json::object{{"month", "2025-04"}, {"value", 1.0}, {"class_id", ClassIdFor("2001")}};
    EXPECT_THROW(Run(&HandleScreening, {{"month", MonthOf("2025-05")}, {"limit", std::int64_t{2}}}, april),
                 sdk::BadRequest);
}

TEST_F(ScreeningTest, CanonicalFundTypes) {
    EXPECT_EQ(CanonicalFidcType("FIDC"), "FIDC");
    EXPECT_EQ(CanonicalFidcType("fidc-np"), "FIDC-NP");
    EXPECT_EQ(CanonicalFidcType("FIC FIDC"), "FIC-FIDC");
    EXPECT_EQ(CanonicalFidcType("FIC-FIDC"), "FIC-FIDC");
    EXPECT_EQ(CanonicalFidcType("FI"), std::nullopt);
}

}  // namespace
}  // namespace lastro::funds::testing
