// /v1/screening from the precomputed rows (funds schema 5, domain/rows/screening_rows.hpp) against
// the handler it replaced (screening_reference.hpp), byte for byte: every sort, both orders,
// filters, limits, cursors to the last page, months with and without classes, a republished month
// and a registry change; and the migrations of schema 4 and 5 databases.
#include "domain/rows/screening_ranking.hpp"
#include "domain/rows/screening_rows.hpp"
#include "fidc_report_fixture.hpp"
#include "screening_reference.hpp"
#include "src/screening.hpp"

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/json_text.hpp>

#include <gtest/gtest.h>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <odb/schema-catalog.hxx>
#include <odb/transaction.hxx>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace lastro::funds::testing {
namespace {

// Beside the fixture's registry: funds whose names tie once folded, lack a name, a manager or a
// status, and reports whose numbers tie or are missing, in three months; 2025-02 has a report
// of a fund outside the universe only.
class ScreeningRankingTest : public FidcReportTest {
protected:
    void SetUp() override {
        FidcReportTest::SetUp();
        const std::vector<std::string> types = {"FIDC", "FIDC-NP", "fic fidc", "FIDC", "Fidc Np", "FIC-FIDC"};
        const std::vector<std::optional<std::string>> names = {"FIDC ÁGUA", "FIDC AGUA",     std::nullopt,
                                                               "fidc água", "Crédito Ômega", "FIDC ZETA"};
        const std::vector<std::optional<std::string>> managers = {"GESTORA AÇÃO LTDA", std::nullopt,
                                                                  "Gestora Ômega"};
        const std::vector<std::optional<std::string>> statuses = {"Em Funcionamento Normal", std::nullopt,
                                                                  "Cancelado"};
        for (int i = 0; i < 12; ++i) {
            const std::string fund = std::to_string(1101 + i);
            const std::string cnpj = "901000000001" + std::to_string(10 + i);
            Fund f =
                RegistryFund(fund, cnpj, types[i % types.size()], "x", "x", "ADMINISTRADORA BETA S.A.", "x");
            f.name = names[i % names.size()];
            f.manager = managers[i % managers.size()];
            f.manager_folded = Folded(f.manager);
            f.status = statuses[i % statuses.size()];
            f.status_folded = Folded(f.status);
            Persist(f);
            // Even funds file under their only class's own CNPJ, odd ones under the fund's; every
            // third fund has a second class, which makes the fund's own filings nobody's.
            const std::string class_cnpj = "902000000001" + std::to_string(10 + i);
            Persist(RegistryClass(std::to_string(2101 + i), fund, i % 2 == 0 ? class_cnpj : cnpj,
                                  "CLASSE " + fund));
            if (i % 3 == 0) {
                Persist(RegistryClass(std::to_string(2201 + i), fund, "903000000001" + std::to_string(10 + i),
                                      "OUTRA " + fund));
                File("903000000001" + std::to_string(10 + i), "2025-05", i);
            }
            for (const char* month : {"2025-03", "2025-04", "2025-05"}) {
                File(i % 2 == 0 ? class_cnpj : cnpj, month, i + (month[6] - '0'));
            }
        }
        for (const char* cnpj : {kAlfaCnpj, kAlfaMezzCnpj, kGamaFundCnpj, kDeltaCnpj, kMultiSeniorCnpj}) {
            File(cnpj, "2025-05", 5);
        }
        File(kEpsilonCnpj, "2025-02", 1);  // outside the universe: 2025-02 screens no class
    }

    // A report whose numbers come from small sets, so that they tie and are sometimes missing.
    FidcReport File(const std::string& cnpj, const std::string& month, int seed) {
        const std::vector<std::optional<double>> navs = {100.0, 200.0, 200.0, std::nullopt, 0.1 + 0.2};
        const std::vector<std::optional<double>> ratios = {0.0, 0.05, 0.05, std::nullopt,
                                                           0.04926700000045242};
        const std::vector<std::optional<std::string>> segments = {"payroll_loans", "vehicles", std::nullopt};
        FidcReport report = MonthlyReport(cnpj, month);
        report.nav = navs[seed % navs.size()];
        report.investor_count = seed % 4 == 0 ? std::nullopt : std::optional<std::int64_t>(seed);
        report.delinquency_ratio = ratios[seed % ratios.size()];
        report.subordination_with_mezzanine_ratio = ratios[(seed + 1) % ratios.size()];
        report.subordination_without_mezzanine_ratio = ratios[(seed + 2) % ratios.size()];
        report.pdd_ratio = ratios[(seed / 2) % ratios.size()];
        report.primary_segment_code = segments[seed % segments.size()];
        if (report.primary_segment_code) {
            report.primary_segment_ratio = 0.5;
            report.segments_json = "[{\"code\":\"" + *report.primary_segment_code + "\",\"name\":\"Nome " +
                                   *report.primary_segment_code + "\",\"source\":\"TAB_II_X\",\"value\":5}]";
        }
        return AddReport(report);
    }

    void RebuildAll() {
        odb::transaction transaction(Db().begin());
        RebuildAllScreening(Db());
        transaction.commit();
    }

    // What a call answers, as the host would write it (src/http/api_service.cpp): `data_json` as
    // is when the handler set it (schema 6: the rows' stored texts; CallHandler also parsed it
    // into `data`, and refuses a handler that sets both), else `data` written.
    static std::string Answer(const sdk::Result& result) {
        boost::json::object meta;
        if (result.data_json) {  // the host's `data` is null then: it counts meta.row_count
            meta["row_count"] = result.meta.row_count.value_or(0);
        } else {
            meta["row_count"] = result.data.is_array()
                                    ? result.data.as_array().size()
                                    : result.meta.row_count.value_or(result.data.is_null() ? 0 : 1);
        }
        meta["as_of"] = result.meta.as_of ? boost::json::value(*result.meta.as_of) : nullptr;
        meta["data_release"] =
            result.meta.data_release ? boost::json::value(*result.meta.data_release) : nullptr;
        meta["next"] = result.meta.next_position ? *result.meta.next_position : boost::json::value(nullptr);
        for (const auto& [key, value] : result.meta.extra) {
            meta[key] = value;
        }
        return result.data_json.value_or(sdk::WriteJson(result.data)) + "\n" + sdk::WriteJson(meta);
    }

    // Every page of `params`, from both handlers, compared page by page; the number of pages.
    int ExpectSamePages(std::vector<Param> params) {
        std::optional<boost::json::value> position;
        for (int page = 1; page <= 200; ++page) {
            std::string expected;
            std::string actual;
            sdk::Result result;
            try {
                expected = Answer(Run(&reference::ReferenceScreening, params, position));
            } catch (const sdk::Problem& problem) {
                expected = std::string("problem: ") + problem.what();
            }
            try {
                result = Run(&HandleScreening, params, position);
                actual = Answer(result);
            } catch (const sdk::Problem& problem) {
                actual = std::string("problem: ") + problem.what();
            }
            EXPECT_EQ(actual, expected) << "page " << page;
            if (actual != expected || !result.meta.next_position) {
                return page;
            }
            position = boost::json::parse(boost::json::serialize(*result.meta.next_position));
        }
        ADD_FAILURE() << "paging did not end";
        return 0;
    }

    // Every sort, order and limit of each filter set, in each month and the default one.
    void ExpectSameEverywhere() {
        const std::vector<std::vector<Param>> filter_sets = {
            {},
            {{"fund_type", std::string("FIDC")}},
            {{"fund_type", std::string("FIC-FIDC")}},
            {{"fund_type", std::string("fic fidc")}},
            {{"min_nav_brl", 200.0}},
            {{"min_nav_brl", 100.0}, {"max_nav_brl", 200.0}},
            {{"max_delinquency_ratio", 0.05}},
            {{"min_subordination_ratio", 0.04926700000045242}},
            {{"segment", std::string("payroll_loans")}},
            {{"manager", std::string("acao")}},
            {{"administrator", std::string("Beta")}},
            {{"status", std::string("EM FUNCIONAMENTO NORMAL")}},
            {{"manager", std::string("ÔMEGA")}, {"fund_type", std::string("FIDC-NP")}},
            {{"manager", std::string("   ")}},
        };
        const std::vector<std::optional<std::string>> months = {std::nullopt, "2025-02", "2025-03",
                                                                "2025-04",    "2025-05", "2025-01"};
        int calls = 0;
        for (const auto& month : months) {
            for (const auto& filters : filter_sets) {
                // Every filter in the latest month and 2025-04; the others without filters.
                if (!filters.empty() && month && *month != "2025-04") {
                    continue;
                }
                for (const char* sort :
                     {"nav_brl", "delinquency_ratio", "subordination_ratio", "pdd_ratio", "name"}) {
                    for (const char* order : {"desc", "asc"}) {
                        for (std::int64_t limit : {3, 100}) {
                            std::vector<Param> params = filters;
                            params.push_back({"sort", std::string(sort)});
                            params.push_back({"order", std::string(order)});
                            params.push_back({"limit", limit});
                            if (month) {
                                params.push_back({"month", MonthOf(*month)});
                            }
                            SCOPED_TRACE(std::string(sort) + " " + order + " limit " + std::to_string(limit) +
                                         " month " + month.value_or("latest") + " filters " +
                                         std::to_string(filters.size()));
                            calls += ExpectSamePages(params);
                        }
                    }
                }
            }
        }
        EXPECT_GT(calls, 500);
    }

    std::size_t StoredRows() { return sdk::testing::AllRows<ScreeningRow>(Db()).size(); }
};

// Every sort's order, both directions, on rows with equal values, nulls and class_ids out of
// order: known values first by value, ties and nulls by class_id ascending (ScreeningPrecedes),
// which the descending orders, derived from the ascending ones, keep too.
TEST(ScreeningRankingOrders, TiesAndNullsFollowTheClassIdInBothDirections) {
    std::vector<ScreeningRankRow> rows;
    const std::vector<std::optional<double>> values = {2.0,  std::nullopt, 1.0,          2.0, 0.0,
                                                       -0.0, 2.0,          std::nullopt, 1.0, 3.0};
    const std::vector<std::optional<std::string>> names = {"b", "a", std::nullopt, "b", "c",
                                                           "a", "b", std::nullopt, "c", "a"};
    for (std::size_t i = 0; i < values.size(); ++i) {
        ScreeningRankRow row;
        row.id = static_cast<std::int64_t>(100 + i);
        row.class_id = "class-" + std::to_string((i * 7) % values.size());  // not in class_id order
        row.name_folded = names[i];
        row.nav = row.delinquency_ratio = row.subordination_with_mezzanine_ratio = row.pdd_ratio = values[i];
        rows.push_back(row);
    }
    const ScreeningRanking ranking(rows);
    for (const ScreeningSort sort :
         {ScreeningSort::kNav, ScreeningSort::kDelinquency, ScreeningSort::kSubordination,
          ScreeningSort::kPdd, ScreeningSort::kName}) {
        for (const bool descending : {false, true}) {
            std::vector<std::size_t> expected(rows.size());
            for (std::size_t i = 0; i < expected.size(); ++i) {
                expected[i] = i;
            }
            std::sort(expected.begin(), expected.end(), [&](std::size_t a, std::size_t b) {
                return ScreeningPrecedes(ranking.KeyOf(a, sort), ranking.KeyOf(b, sort), descending);
            });
            const ScreeningRanking::Page page =
                ranking.Select({}, sort, descending, std::nullopt, rows.size());
            EXPECT_EQ(page.rows, expected) << static_cast<int>(sort) << (descending ? " desc" : " asc");
            // From every position on, the page goes on where it stopped.
            for (std::size_t at = 0; at + 1 < expected.size(); ++at) {
                const ScreeningRanking::Page rest =
                    ranking.Select({}, sort, descending, ranking.KeyOf(expected[at], sort), rows.size());
                EXPECT_EQ(rest.rows,
                          std::vector<std::size_t>(expected.begin() + static_cast<std::ptrdiff_t>(at) + 1,
                                                   expected.end()));
            }
        }
    }
}

// A ranking stored as bytes (funds 12) loads as the same ranking: every sort, direction and
// position gives the same pages; bytes that are not a whole ranking of this format load as none.
TEST(ScreeningRankingOrders, AStoredRankingLoadsAsTheSameRanking) {
    std::vector<ScreeningRankRow> rows;
    for (int i = 0; i < 40; ++i) {
        ScreeningRankRow row;
        row.id = 1000 + i;
        row.class_id = "class-" + std::to_string((i * 17) % 40 + 10);
        if (i % 7 != 0) {
            row.name_folded = "fundo " + std::to_string(i % 9);
            row.nav = 1000.0 * (i % 11);
            row.delinquency_ratio = (i % 5) / 10.0;
        }
        row.subordination_with_mezzanine_ratio = i % 3 == 0 ? std::nullopt : std::optional<double>(i / 40.0);
        row.pdd_ratio = -0.0;
        row.fund_type = i % 2 ? "FIDC" : "FIC-FIDC";
        row.manager_folded = "gestora " + std::to_string(i % 4);
        row.status_folded = "em funcionamento normal";
        rows.push_back(row);
    }
    const ScreeningRanking built(rows);
    const std::vector<char> bytes = built.Serialize();
    const std::optional<ScreeningRanking> loaded =
        ScreeningRanking::Load(std::string_view(bytes.data(), bytes.size()));
    ASSERT_TRUE(loaded.has_value());
    EXPECT_EQ(loaded->Serialize(), bytes);
    ScreeningFilters managers;
    managers.manager = "gestora 1";
    for (const ScreeningFilters& filters : {ScreeningFilters{}, managers}) {
        for (const ScreeningSort sort :
             {ScreeningSort::kNav, ScreeningSort::kDelinquency, ScreeningSort::kSubordination,
              ScreeningSort::kPdd, ScreeningSort::kName}) {
            for (const bool descending : {false, true}) {
                const auto a = built.Select(filters, sort, descending, std::nullopt, 7);
                const auto b = loaded->Select(filters, sort, descending, std::nullopt, 7);
                EXPECT_EQ(a.rows, b.rows);
                EXPECT_EQ(a.match_count, b.match_count);
                EXPECT_EQ(a.more, b.more);
                for (const std::size_t row : a.rows) {
                    EXPECT_EQ(built.RowId(row), loaded->RowId(row));
                    EXPECT_EQ(built.ClassId(row), loaded->ClassId(row));
                }
            }
        }
    }
    auto loads = [](std::vector<char> b) {
        return ScreeningRanking::Load(std::string_view(b.data(), b.size())).has_value();
    };
    EXPECT_FALSE(loads({}));
    EXPECT_FALSE(loads(std::vector<char>(bytes.begin(), bytes.end() - 1)));  // cut short
    std::vector<char> longer = bytes;
    longer.push_back('x');
    EXPECT_FALSE(loads(longer));  // bytes past the end
    std::vector<char> other_format = bytes;
    other_format[3] = '2';
    EXPECT_FALSE(loads(other_format));
    std::vector<char> not_a_permutation = bytes;
    const std::size_t last_order_entry = bytes.size() - 4;
    std::copy_n(bytes.end() - 8, 4,
                not_a_permutation.begin() + static_cast<std::ptrdiff_t>(last_order_entry));
    EXPECT_FALSE(loads(not_a_permutation));  // an entry twice in an order
}

TEST_F(ScreeningRankingTest, TheStoredRowsAnswerAsTheScanDid) {
    RebuildAll();
    EXPECT_GT(StoredRows(), 40u);
    ExpectSameEverywhere();
}

TEST_F(ScreeningRankingTest, WithoutStoredRowsTheMonthIsBuiltForTheCall) {
    EXPECT_EQ(StoredRows(), 0u);
    ExpectSameEverywhere();
}

TEST_F(ScreeningRankingTest, ARepublishedMonthIsAnsweredAsRepublished) {
    RebuildAll();
    ExpectSamePages({{"limit", std::int64_t{3}}});  // the month's ranking is now in memory
    {
        odb::transaction transaction(Db().begin());
        Db().erase_query<FidcReport>(odb::query<FidcReport>::month == "2025-05");
        transaction.commit();
    }
    for (int i = 0; i < 12; i += 2) {
        File("902000000001" + std::to_string(10 + i), "2025-05", 40 - i);
    }
    {
        odb::transaction transaction(Db().begin());
        RebuildScreening(Db(), {"2025-05"});
        transaction.commit();
    }
    ExpectSameEverywhere();
}

TEST_F(ScreeningRankingTest, ARegistryChangeIsAnsweredAfterTheRebuild) {
    RebuildAll();
    ExpectSamePages({{"sort", std::string("name")}, {"limit", std::int64_t{3}}});
    {
        odb::transaction transaction(Db().begin());
        Fund fund;
        Db().load<Fund>(FundIdFor("1102"), fund);
        fund.name = "AAA PRIMEIRO";
        fund.manager = "Nova Gestora";
        fund.manager_folded = Folded(fund.manager);
        Db().update(fund);
        Fund other;
        Db().load<Fund>(FundIdFor("1104"), other);
        other.fidc_universe = false;
        Db().update(other);
        RebuildAllScreening(Db());
        transaction.commit();
    }
    ExpectSameEverywhere();
}

// A registry change writes only the rows it changes, and only their months get a new
// generation (the others keep their rankings); nothing changed, nothing is written.
TEST_F(ScreeningRankingTest, ARebuildWritesOnlyTheRowsThatChanged) {
    RebuildAll();
    std::map<std::string, std::int64_t> generations;
    for (const ScreeningMonth& month : sdk::testing::AllRows<ScreeningMonth>(Db())) {
        generations[month.month] = month.generation;
    }
    std::map<std::int64_t, ScreeningRow> before;
    for (const ScreeningRow& row : sdk::testing::AllRows<ScreeningRow>(Db())) {
        before.emplace(row.id, row);
    }
    {
        odb::transaction transaction(Db().begin());
        EXPECT_EQ(RebuildAllScreening(Db()), 0u);
        transaction.commit();
    }
    for (const ScreeningMonth& month : sdk::testing::AllRows<ScreeningMonth>(Db())) {
        EXPECT_EQ(month.generation, generations[month.month]) << month.month;
    }
    const std::string renamed = FundIdFor("1102");  // one class, reports in 2025-03 .. 2025-05
    {
        odb::transaction transaction(Db().begin());
        Fund fund;
        Db().load<Fund>(renamed, fund);
        fund.name = "AAA PRIMEIRO";
        Db().update(fund);
        EXPECT_EQ(RebuildAllScreening(Db()), 3u);
        transaction.commit();
    }
    std::size_t rows = 0;
    for (const ScreeningRow& row : sdk::testing::AllRows<ScreeningRow>(Db())) {
        ++rows;
        ASSERT_EQ(before.count(row.id), 1u) << row.class_id << " " << row.month;
        const ScreeningRow& was = before.at(row.id);
        EXPECT_EQ(row.class_id, was.class_id);
        EXPECT_EQ(row.month, was.month);
        if (row.fund_id == renamed) {
            EXPECT_EQ(row.fund_name, "AAA PRIMEIRO");
            EXPECT_EQ(row.json, ScreeningAnswerJson(row));
        } else {
            EXPECT_EQ(row.json, was.json);
        }
    }
    EXPECT_EQ(rows, before.size());
    for (const ScreeningMonth& month : sdk::testing::AllRows<ScreeningMonth>(Db())) {
        if (month.month == "2025-02") {
            EXPECT_EQ(month.generation, generations[month.month]);
        } else {
            EXPECT_NE(month.generation, generations[month.month]) << month.month;
        }
    }
    ExpectSameEverywhere();
}

TEST_F(ScreeningRankingTest, AMonthThatLostItsReportsKeepsNoRows) {
    RebuildAll();
    {
        odb::transaction transaction(Db().begin());
        Db().erase_query<FidcReport>(odb::query<FidcReport>::month == "2025-03");
        RebuildAllScreening(Db());
        transaction.commit();
    }
    EXPECT_TRUE(sdk::testing::AllRows<ScreeningRow>(Db()).size() > 0);
    for (const ScreeningRow& row : sdk::testing::AllRows<ScreeningRow>(Db())) {
        EXPECT_NE(row.month, "2025-03");
    }
    ExpectSamePages({{"month", MonthOf("2025-03")}});  // 404 from both
}

// A database at funds 4 (reports, no screening tables) migrates to 6 with its rows filled.
TEST_F(ScreeningRankingTest, MigratingFromSchema4FillsTheRowsFromTheStoredReports) {
    {
        odb::transaction transaction(Db().begin());
        Db().execute("DROP TABLE funds_screening_row");
        Db().execute("DROP TABLE funds_screening_month");
        Db().execute("UPDATE schema_version SET version = 4 WHERE name = 'funds'");
        transaction.commit();
    }
    {
        odb::transaction transaction(Db().begin());
        EXPECT_EQ(Db().schema_version("funds"), 4u);
        odb::schema_catalog::migrate(Db(), 6, "funds");  // as lastro db migrate does
        transaction.commit();
    }
    {
        odb::transaction transaction(Db().begin());
        EXPECT_EQ(Db().schema_version("funds"), 6u);
        transaction.commit();
    }
    const std::vector<ScreeningMonth> months = sdk::testing::AllRows<ScreeningMonth>(Db());
    EXPECT_EQ(months.size(), 4u);  // 2025-02 .. 2025-05, 2025-02 without a class
    std::size_t classes = 0;
    for (const ScreeningMonth& month : months) {
        classes += static_cast<std::size_t>(month.class_count);
    }
    EXPECT_EQ(StoredRows(), classes);
    EXPECT_GT(classes, 40u);
    for (const ScreeningRow& row : sdk::testing::AllRows<ScreeningRow>(Db())) {
        EXPECT_EQ(row.json, ScreeningAnswerJson(row));
    }
    ExpectSameEverywhere();
}

// A database at funds 5 (rows without their answer text) migrates to 6 with every row's text,
// each month with classes under a new generation, so a server that ranked it answers the new rows.
TEST_F(ScreeningRankingTest, MigratingFromSchema5GivesEveryRowItsAnswerText) {
    RebuildAll();
    std::map<std::string, std::int64_t> generations;
    for (const ScreeningMonth& month : sdk::testing::AllRows<ScreeningMonth>(Db())) {
        generations[month.month] = month.generation;
    }
    const std::size_t rows = StoredRows();
    {
        odb::transaction transaction(Db().begin());
        Db().execute("ALTER TABLE funds_screening_row DROP COLUMN json");
        Db().execute("UPDATE schema_version SET version = 5 WHERE name = 'funds'");
        transaction.commit();
    }
    {
        odb::transaction transaction(Db().begin());
        EXPECT_EQ(Db().schema_version("funds"), 5u);
        odb::schema_catalog::migrate(Db(), 6, "funds");
        transaction.commit();
    }
    {
        odb::transaction transaction(Db().begin());
        EXPECT_EQ(Db().schema_version("funds"), 6u);
        transaction.commit();
    }
    EXPECT_EQ(StoredRows(), rows);
    for (const ScreeningRow& row : sdk::testing::AllRows<ScreeningRow>(Db())) {
        ASSERT_TRUE(row.json.has_value());
        EXPECT_EQ(*row.json, ScreeningAnswerJson(row));
    }
    // Every month with classes was rewritten; 2025-02 (none) was left as it was.
    for (const ScreeningMonth& month : sdk::testing::AllRows<ScreeningMonth>(Db())) {
        if (month.class_count > 0) {
            EXPECT_NE(month.generation, generations[month.month]) << month.month;
        } else {
            EXPECT_EQ(month.generation, generations[month.month]) << month.month;
        }
    }
    ExpectSameEverywhere();
}

// Every rebuilt month stores its ranking under its generation (funds 12), the ranking its rows'
// keys make; a database at funds 11 (rows, no stored rankings) gets every month's on its way to 12.
TEST_F(ScreeningRankingTest, EveryMonthStoresItsRankingAndMigratingFromSchema11StoresThem) {
    RebuildAll();
    auto expect_stored = [&] {
        const std::vector<ScreeningMonth> months = sdk::testing::AllRows<ScreeningMonth>(Db());
        ASSERT_FALSE(months.empty());
        for (const ScreeningMonth& month : months) {
            odb::transaction transaction(Db().begin());
            ScreeningRankingRecord record;
            ASSERT_TRUE(Db().find<ScreeningRankingRecord>(month.month, record)) << month.month;
            EXPECT_EQ(record.generation, month.generation) << month.month;
            EXPECT_EQ(record.bytes, ScreeningRanking(StoredRankKeys(Db(), month.month)).Serialize())
                << month.month;
            transaction.commit();
        }
    };
    expect_stored();
    {
        odb::transaction transaction(Db().begin());
        Db().execute("DROP TABLE funds_screening_ranking");
        Db().execute("DROP INDEX funds_screening_row_rank_i");
        Db().execute("UPDATE schema_version SET version = 11 WHERE name = 'funds'");
        transaction.commit();
    }
    Db().schema_version_migration(11, false, "funds");  // the ingest read (and kept) version 12
    {
        odb::transaction transaction(Db().begin());
        odb::schema_catalog::migrate(Db(), 12, "funds");  // as lastro db migrate does
        EXPECT_EQ(Db().schema_version("funds"), 12u);
        transaction.commit();
    }
    expect_stored();
    ExpectSameEverywhere();
}

}  // namespace
}  // namespace lastro::funds::testing
