// The series plugin on a plugin database (SQLite, or PostgreSQL with LASTRO_TEST_BACKEND):
// the real SGS answers in ../shared ingested as downloaded, the figures the authorities publish
// (IBGE's IPCA for 2023, SGS 4390's Selic for December 2023, the CDI of 2023), the ingester's
// refusals, and the handlers' pages and errors.
#include "ingest/sgs/sgs_ingester.hpp"
#include "series_model-odb.hxx"
#include "series_model.hxx"
#include "src/handlers.hpp"
#include "src/series_catalog.hpp"

#include <lastro/sdk/testing/fake_host.hpp>
#include <lastro/sdk/testing/plugin_calls.hpp>
#include <lastro/sdk/testing/plugin_database.hpp>
#include <lastro/sdk/testing/registrations.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace lastro::series {
namespace {

namespace fs = std::filesystem;
using sdk::testing::CallHandler;
using sdk::testing::FakeHost;
using sdk::testing::RunIngest;

const fs::path kManifest = fs::path(LASTRO_SOURCE_DIR) / "plugins/series/manifest.yaml";
const fs::path kReal = fs::path(LASTRO_SOURCE_DIR) / "../shared/datasets/real/bcb_sgs";
constexpr std::time_t kNow = 1795000000;  // 2026-11-18

const SeriesCatalog& Catalog() {
    static const SeriesCatalog catalog(sdk::testing::ReadManifestDeclarations(kManifest).declared);
    return catalog;
}

class SeriesDatabase : public sdk::testing::PluginDatabase {
public:
    SeriesDatabase() : PluginDatabase("series") {}

    sdk::IngestSummary Ingest(std::int64_t code, const std::vector<fs::path>& files) {
        SgsIngester ingester(*Catalog().Find(code));
        host_.SetRelease("bcb.sgs." + std::to_string(code), "test");
        return RunIngest(ingester, Db(), "bcb.sgs." + std::to_string(code), files, kNow);
    }
    fs::path Write(const std::string& name, const std::string& text) {
        const fs::path path = Dir() / name;
        std::ofstream(path, std::ios::binary) << text;
        return path;
    }
    sdk::Result Call(sdk::Result (*handler)(const SeriesCatalog&, const sdk::RequestContext&),
                     const sdk::Params& params,
                     const std::optional<boost::json::value>& position = std::nullopt) {
        return CallHandler([handler](const sdk::RequestContext& c) { return handler(Catalog(), c); }, Db(),
                           params, host_, position);
    }
    FakeHost& Host() { return host_; }

private:
    FakeHost host_;
};

sdk::Params Query(std::int64_t code, std::initializer_list<std::pair<const char*, const char*>> texts) {
    sdk::Params params;
    params.Set("serie_id", code);
    params.Set("transform", std::string("none"));
    for (const auto& [name, value] : texts) {
        params.Set(name, std::string(value));
    }
    return params;
}

double Value(const boost::json::value& row) {
    const boost::json::value& v = row.at("value");
    return v.is_double() ? v.as_double() : static_cast<double>(v.as_int64());
}

TEST(SeriesPlugin, RegistersOneIngesterPerManifestSeriesAndItsOperations) {
    EXPECT_EQ(Catalog().ServedCodes(), "11, 12, 432, 433, 4389, 4390, 4391");
    EXPECT_EQ(Catalog().Find(432)->kind, SeriesKind::kLevel);
    EXPECT_EQ(Catalog().Find(433)->frequency, Frequency::kMonthly);
    EXPECT_EQ(Catalog().Find(4389)->rate_per, RatePer::kYear);
}

TEST(SeriesPlugin, AMalformedSeriesEntryIsRefusedNamingTheDatasetAndProperty) {
    const auto refused = [](const std::string& id, std::map<std::string, std::string> properties) {
        try {
            SeriesCatalog catalog({{id, "", std::move(properties), false}});
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    const std::map<std::string, std::string> good = {{"sgs_code", "189"},
                                                     {"name", "IGP-M"},
                                                     {"kind", "rate"},
                                                     {"rate_per", "month"},
                                                     {"frequency", "monthly"}};
    EXPECT_EQ(refused("bcb.sgs.189", good), "accepted");
    auto bad = good;
    bad["kind"] = "index";
    EXPECT_EQ(refused("bcb.sgs.189", bad), "bcb.sgs.189: property 'kind' is 'index', expected rate or level");
    bad = good;
    bad.erase("name");
    EXPECT_EQ(refused("bcb.sgs.189", bad), "bcb.sgs.189: property 'name' is missing");
    EXPECT_EQ(refused("bcb.sgs.190", good), "bcb.sgs.190: an SGS series' dataset id is bcb.sgs.189");
    bad = good;
    bad["frequency"] = "daily";
    EXPECT_EQ(refused("bcb.sgs.189", bad),
              "bcb.sgs.189: a rate per month observed daily cannot be compounded (docs/transforms.md)");
    bad = good;
    bad["unit"] = "x";
    EXPECT_NE(refused("bcb.sgs.189", bad).find("unknown property 'unit'"), std::string::npos);
    EXPECT_NE(refused("cvm.other", good).find("reads SGS series only"), std::string::npos);
}

// IBGE published the IPCA of 2023 as 4.62 %: the product of SGS 433's twelve months.
TEST(SeriesAuthorities, IpcaOf2023CompoundsTo462) {
    SeriesDatabase db;
    const sdk::IngestSummary summary = db.Ingest(433, {kReal / "sgs433_ipca_monthly_1980-2026.json"});
    EXPECT_EQ(summary.inserted, 557u);
    sdk::Params params = Query(433, {{"frequency", "yearly"}, {"from_date", "2023"}, {"to_date", "2023"}});
    const sdk::Result year = db.Call(&HandleMacroValues, params);
    ASSERT_EQ(year.data.as_array().size(), 1u);
    EXPECT_EQ(Value(year.data.at(0)), 4.62111393) << year.data_json.value_or("");
    EXPECT_EQ(year.data.at(0).at("observations").as_int64(), 12);
    // The same through accumulated_12m at December, and accumulated over the year's months.
    params = Query(433, {{"transform", "accumulated_12m"}, {"from_date", "2023-12"}, {"to_date", "2023-12"}});
    EXPECT_EQ(Value(db.Call(&HandleMacroValues, params).data.at(0)), 4.62111393);
    params = Query(433, {{"transform", "accumulated"}, {"from_date", "2023-01"}, {"to_date", "2023-12"}});
    const sdk::Result running = db.Call(&HandleMacroValues, params);
    EXPECT_EQ(Value(running.data.as_array().back()), 4.62111393);
    EXPECT_EQ(running.meta.extra.at("series").at("unit"), "percent_accumulated_over_range");
}

// SGS 4390 publishes the Selic of December 2023 as 0.89 % a month: SGS 11's days compounded.
TEST(SeriesAuthorities, SelicOfDecember2023CompoundsTo089FromTheCsvAnswer) {
    SeriesDatabase db;
    EXPECT_EQ(db.Ingest(11, {kReal / "sgs11_selic_daily_2023.csv"}).inserted, 249u);
    const sdk::Result month =
        db.Call(&HandleMacroValues, Query(11, {{"frequency", "monthly"}, {"from_date", "2023-12"}}));
    ASSERT_EQ(month.data.as_array().size(), 1u);
    const double value = Value(month.data.at(0));
    EXPECT_NEAR(value, 0.89, 0.005);
    EXPECT_EQ(month.data.at(0).at("period"), "2023-12");
    EXPECT_EQ(month.meta.extra.at("series").at("unit"), "percent_per_month");
    // The data ends on 2023-12-29, the month's last business day, and nothing follows it yet.
    EXPECT_TRUE(month.data.at(0).at("partial").as_bool());
}

// The CDI of 2023: 249 business days of SGS 12 compounded give 13.0394 %.
TEST(SeriesAuthorities, CdiOf2023Compounds) {
    SeriesDatabase db;
    db.Ingest(12, {kReal / "sgs12_cdi_daily_2016-2026.json"});
    const sdk::Result year = db.Call(
        &HandleMacroValues, Query(12, {{"frequency", "yearly"}, {"from_date", "2023"}, {"to_date", "2023"}}));
    ASSERT_EQ(year.data.as_array().size(), 1u);
    EXPECT_EQ(year.data.at(0).at("observations").as_int64(), 249);
    EXPECT_NEAR(Value(year.data.at(0)), 13.0394, 0.00005);
    EXPECT_FALSE(year.data.at(0).at("partial").as_bool());
    // The CDI operation accumulates the same days by B3's truncated product.
    sdk::Params params;
    params.Set("from_date", std::string("2023-01-01"));
    params.Set("to_date", std::string("2023-12-31"));
    params.Set("frequency", std::string("yearly"));
    params.Set("transform", std::string("none"));
    const sdk::Result cdi = db.Call(&HandleCdiDaily, params);
    ASSERT_EQ(cdi.data.as_array().size(), 1u);
    EXPECT_NEAR(Value(cdi.data.at(0)), 13.0394, 0.00005);
    EXPECT_TRUE(cdi.data.at(0).at("annual_rate_pct").is_double());
    EXPECT_EQ(cdi.data.at(0).at("factor"), cdi.data.at(0).at("accumulated_factor"));
}

TEST(SgsIngest, OverlappingWindowsMustAgreeAndNothingIsWrittenOtherwise) {
    SeriesDatabase db;
    const fs::path a = db.Write(
        "a.json", R"([{"data":"02/01/2023","valor":"0.050788"},{"data":"03/01/2023","valor":"0.050788"}])");
    const fs::path same = db.Write(
        "b.json", R"([{"data":"03/01/2023","valor":"0.050788"},{"data":"04/01/2023","valor":"0.050788"}])");
    const fs::path other = db.Write("c.csv", "\"data\";\"valor\"\r\n\"03/01/2023\";\"0,050787\"\r\n");
    const sdk::IngestSummary merged = db.Ingest(12, {a, same});
    EXPECT_EQ(merged.inserted, 3u);
    EXPECT_EQ(merged.release_label, "sgs-12-2023-01-04");
    try {
        db.Ingest(12, {a, other});
        ADD_FAILURE() << "disagreeing windows were accepted";
    } catch (const sdk::IngestError& e) {
        EXPECT_EQ(
            std::string(e.what()),
            "c.csv:2: 03/01/2023 is '0.050787' here and '0.050788' in a.json line 1: overlapping windows "
            "disagree");
    }
    EXPECT_EQ(sdk::testing::AllRows<StoredObservation>(db.Db()).size(), 3u);
    // A revision from SGS alone is applied, and counted.
    const sdk::IngestSummary revised = db.Ingest(12, {other});
    EXPECT_EQ(revised.updated, 1u);
    EXPECT_EQ(db.Ingest(12, {a, same}).updated, 1u);
    EXPECT_EQ(db.Ingest(12, {a, same}).unchanged, 3u);
}

TEST(SgsIngest, WhatIsNotAnSgsAnswerOrBreaksTheSeriesRulesIsRefused) {
    SeriesDatabase db;
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"<html><body>Manutencao</body></html>", "page.json"},
        {"[{\"data\":\"02/01/2023\",\"valor\":\"0.05\"}", "cut.json"},
        {"[{\"data\":\"02/01/2023\",\"valor\":\"abc\"}]", "text.json"},
        {"", "empty.json"},
    };
    for (const auto& [text, name] : cases) {
        SCOPED_TRACE(name);
        EXPECT_THROW(db.Ingest(12, {db.Write(name, text)}), sdk::IngestError);
    }
    try {
        db.Ingest(433, {db.Write("day.json", R"([{"data":"15/01/2023","valor":"0.53"}])")});
        ADD_FAILURE();
    } catch (const sdk::IngestError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "day.json:1: 15/01/2023: series 433 is monthly, and SGS dates a month by its first day");
    }
    try {
        db.Ingest(433, {db.Write("minus.json", R"([{"data":"01/01/2023","valor":"-100.00"}])")});
        ADD_FAILURE();
    } catch (const sdk::IngestError& e) {
        EXPECT_NE(std::string(e.what()).find("cannot be compounded"), std::string::npos) << e.what();
    }
    try {
        db.Ingest(12, {db.Write("long.json", R"([{"data":"02/01/2023","valor":"0.0507880000000001"}])")});
        ADD_FAILURE();
    } catch (const sdk::IngestError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "long.json:1: 02/01/2023: '0.0507880000000001' has more than 24 digits or 12 "
                  "decimals, more than SGS publishes");
    }
    EXPECT_TRUE(sdk::testing::AllRows<StoredObservation>(db.Db()).empty());
}

TEST(SeriesHandlers, CursorPagesConcatenateToTheWholeRangeAndTheCdiAccumulatesAcrossThem) {
    SeriesDatabase db;
    db.Ingest(12, {kReal / "sgs12_cdi_daily_2016-2026.json"});
    sdk::Params params;
    params.Set("from_date", std::string("2024-01-01"));
    params.Set("to_date", std::string("2024-12-31"));
    params.Set("frequency", std::string("daily"));
    params.Set("transform", std::string("none"));
    params.Set("limit", std::int64_t{500});
    const sdk::Result whole = db.Call(&HandleCdiDaily, params);
    ASSERT_FALSE(whole.meta.next_position);
    params.Set("limit", std::int64_t{37});
    std::vector<boost::json::value> paged;
    std::optional<boost::json::value> position;
    do {
        const sdk::Result page = db.Call(&HandleCdiDaily, params, position);
        for (const auto& row : page.data.as_array()) {
            paged.push_back(row);
        }
        position = page.meta.next_position;
    } while (position);
    ASSERT_EQ(paged.size(), whole.data.as_array().size());
    for (std::size_t i = 0; i < paged.size(); ++i) {
        EXPECT_EQ(paged[i], whole.data.at(i)) << i;
    }
    // No annual series ingested: the cross-check is null, never invented.
    EXPECT_TRUE(whole.data.at(0).at("annual_rate_pct").is_null());
}

TEST(SeriesHandlers, UnknownSeriesAndUnanswerableCombinationsAreProblems) {
    SeriesDatabase db;
    db.Ingest(433, {kReal / "sgs433_ipca_monthly_1980-2026.json"});
    try {
        db.Call(&HandleMacroValues, Query(999, {}));
        ADD_FAILURE();
    } catch (const sdk::Problem& e) {
        EXPECT_EQ(e.Code(), sdk::ProblemCode::kNotFound);
        EXPECT_EQ(std::string(e.what()),
                  "series 999 is not served; the served SGS series are 11, 12, 432, 433, 4389, 4390, 4391");
    }
    const auto parameter_of = [&](const sdk::Params& params) {
        try {
            db.Call(&HandleMacroValues, params);
        } catch (const sdk::Problem& e) {
            return e.Code() == sdk::ProblemCode::kInvalidParameter ? e.Parameter().value_or("?") : "not 422";
        }
        return std::string("answered");
    };
    EXPECT_EQ(parameter_of(Query(433, {{"frequency", "daily"}})), "frequency");
    EXPECT_EQ(parameter_of(Query(433, {{"from_date", "2023-02-30"}})), "from_date");
    EXPECT_EQ(parameter_of(Query(433, {{"from_date", "23"}})), "from_date");
    EXPECT_EQ(parameter_of(Query(433, {{"from_date", "2023"}, {"to_date", "2022-12"}})), "to_date");
    // Series 11 is declared but was never ingested here: 503, refunded.
    try {
        db.Call(&HandleMacroValues, Query(11, {}));
        ADD_FAILURE();
    } catch (const sdk::Problem& e) {
        EXPECT_EQ(e.Code(), sdk::ProblemCode::kUnavailable);
    }
}

TEST(SeriesHandlers, ALevelTakesThePeriodsLastValueAndIsNeverCompounded) {
    SeriesDatabase db;
    db.Ingest(432,
              {db.Write("432.json",
                        R"([{"data":"02/01/2024","valor":"11.75"},{"data":"31/01/2024","valor":"11.25"},)"
                        R"({"data":"01/02/2024","valor":"11.25"}])")});
    const sdk::Result months = db.Call(&HandleMacroValues, Query(432, {{"frequency", "monthly"}}));
    ASSERT_EQ(months.data.as_array().size(), 2u);
    EXPECT_EQ(Value(months.data.at(0)), 11.25);
    EXPECT_EQ(months.data.at(0).at("last_observation"), "2024-01-31");
    EXPECT_EQ(months.data.at(0).at("observations").as_int64(), 2);
    EXPECT_TRUE(months.data.at(1).at("partial").as_bool()) << "February is not over in the data";
    EXPECT_THROW(db.Call(&HandleMacroValues, Query(432, {{"transform", "accumulated_12m"}})), sdk::Problem);
    EXPECT_EQ(Value(db.Call(&HandleMacroValues, Query(432, {{"transform", "annualized"}})).data.at(0)),
              11.75);
}

}  // namespace
}  // namespace lastro::series
