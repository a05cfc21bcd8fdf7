// The FIDC monthly report ingester end to end: files written in CVM's real format, a real
// database, the ingest in one transaction as the host runs it.
#include "domain/rows/quota_answers.hpp"
#include "fidc_test_files.hpp"

#include <lastro/sdk/problem.hpp>

#include <gmock/gmock.h>
#include <lastro/sdk/serving/money.hpp>

#include <gtest/gtest.h>
#include <boost/json/parse.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <odb/exceptions.hxx>
#include <odb/schema-catalog.hxx>
#include <set>
#include <tuple>

namespace lastro::funds::testing {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kAlfa = "12345678000195";
constexpr const char* kBeta = "22222222000191";
constexpr const char* kGama = "33333333000191";
constexpr const char* kSenior = "subclasse senior serie 1";
constexpr const char* kMezzanine = "subclasse subordinada cota mezanino | serie 1";
constexpr const char* kSubordinated = "subclasse subordinada sub | subordinada 1";

class FidcIngestTest : public ::testing::Test {
protected:
    odb::database& Db() { return database_.Db(); }
    // A new directory for one set of files (the file names repeat across ingests).
    fs::path Fresh() { return database_.Subdir(std::to_string(++dirs_)); }

    std::vector<FidcReport> Reports(const std::string& cnpj, const std::string& month) {
        std::vector<FidcReport> found;
        for (FidcReport& report : AllReportsWithJson(Db())) {
            if (report.cnpj == cnpj && report.month == month) {
                found.push_back(std::move(report));
            }
        }
        return found;
    }
    FidcReport Report(const std::string& cnpj, const std::string& month) {
        std::vector<FidcReport> found = Reports(cnpj, month);
        EXPECT_EQ(found.size(), 1u) << cnpj << " " << month;
        return found.empty() ? FidcReport{} : found.front();
    }
    std::map<std::string, FidcSeries> Series(std::int64_t report_id) {
        std::map<std::string, FidcSeries> found;
        for (FidcSeries& series : AllRows<FidcSeries>(Db())) {
            if (series.report_id == report_id) {
                found.emplace(series.series_key, std::move(series));
            }
        }
        return found;
    }
    std::vector<FidcQuotaOperation> Operations(std::int64_t report_id) {
        std::vector<FidcQuotaOperation> found;
        for (FidcQuotaOperation& operation : AllRows<FidcQuotaOperation>(Db())) {
            if (operation.report_id == report_id) {
                found.push_back(std::move(operation));
            }
        }
        return found;
    }

    // The message of the IngestError the ingest throws, after checking the database is as
    // it was before the ingest.
    std::string FailedIngest(const std::vector<fs::path>& inputs) {
        const FidcRowCounts before = CountFidcRows(Db());
        const std::vector<FidcReport> reports_before = AllReportsWithJson(Db());
        std::string message;
        try {
            IngestFidc(Db(), inputs);
            ADD_FAILURE() << "the ingest succeeded";
        } catch (const sdk::IngestError& error) {
            message = error.what();
        }
        EXPECT_EQ(CountFidcRows(Db()), before);
        const std::vector<FidcReport> reports_after = AllReportsWithJson(Db());
        EXPECT_EQ(reports_after.size(), reports_before.size());
        for (std::size_t i = 0; i < std::min(reports_before.size(), reports_after.size()); ++i) {
            EXPECT_EQ(reports_after[i].id, reports_before[i].id);
            EXPECT_EQ(reports_after[i].nav, reports_before[i].nav);
            EXPECT_EQ(reports_after[i].published_json, reports_before[i].published_json);
        }
        return message;
    }

    FundsDatabase database_;
    int dirs_ = 0;
};

FidcMonth StandardMonth(const std::string& period, FidcEra era = FidcEra::kFundoClasse,
                        const std::vector<std::string>& cnpjs = {kAlfa}, bool debtors = false) {
    FidcMonth month(period, era, debtors);
    for (const std::string& cnpj : cnpjs) {
        month.Add(StandardFiling(cnpj));
    }
    return month;
}

boost::json::value Json(const std::optional<std::string>& text) {
    EXPECT_TRUE(text.has_value());
    return boost::json::parse(text.value_or("null"));
}

// The typed columns and metrics StandardFiling yields (hand-computed in fidc_metrics_test.cpp).
void ExpectStandardNumbers(const FidcReport& r) {
    EXPECT_EQ(r.assets_total, 1000000.0);
    EXPECT_EQ(r.receivables_with_risk, 800000.0);
    EXPECT_EQ(r.receivables_without_risk, 100000.0);
    EXPECT_EQ(r.pdd_with_risk, -50000.0);
    EXPECT_EQ(r.pdd_without_risk, 10000.0);
    EXPECT_EQ(r.receivables_components, 960000.0);
    EXPECT_EQ(r.liabilities, 5000.0);
    EXPECT_EQ(r.nav, 995000.0);
    EXPECT_EQ(r.nav_average, 990000.0);
    EXPECT_EQ(r.segments_total, 900000.0);
    EXPECT_EQ(r.pdd, 60000.0);
    EXPECT_EQ(r.receivables_net, 900000.0);
    EXPECT_EQ(r.receivables_gross, 960000.0);
    EXPECT_DOUBLE_EQ(r.pdd_ratio.value_or(-1), 0.0625);
    EXPECT_EQ(r.delinquent_total, 60000.0);
    EXPECT_EQ(r.band_denominator, 850000.0);
    EXPECT_DOUBLE_EQ(r.delinquency_ratio.value_or(-1), 60000.0 / 850000.0);
    EXPECT_EQ(r.senior_nav, 700000.0);
    EXPECT_EQ(r.mezzanine_nav, 100000.0);
    EXPECT_EQ(r.subordinated_nav, 195000.0);
    EXPECT_EQ(r.series_nav_total, 995000.0);
    EXPECT_DOUBLE_EQ(r.subordination_with_mezzanine_ratio.value_or(-1), 295000.0 / 995000.0);
    EXPECT_DOUBLE_EQ(r.subordination_without_mezzanine_ratio.value_or(-1), 195000.0 / 995000.0);
    EXPECT_EQ(r.investor_count, 124);
    EXPECT_EQ(r.positive_segment_count, 4);
    EXPECT_EQ(r.series_with_profitability_count, 2);
    EXPECT_EQ(r.primary_segment_code, "retail");
    EXPECT_DOUBLE_EQ(r.primary_segment_ratio.value_or(-1), 300000.0 / 900000.0);
}

TEST_F(FidcIngestTest, CurrentLayoutMonthlyZip) {
    const FidcMonth month = StandardMonth("202401", FidcEra::kFundoClasse, {kAlfa}, true);
    const sdk::IngestSummary summary = IngestFidc(Db(), {WriteFidcMonthlyZip(Fresh(), month)});
    EXPECT_EQ(summary.rows_read, 12u + 3 + 3 + 3 + 4 + 1 + 2);  // 12 one-row tables, X_1..X_6, VIII
    EXPECT_EQ(summary.inserted, 1u + 3 + 4);
    EXPECT_EQ(summary.removed, 0u);
    EXPECT_EQ(summary.rejected, 0u);
    EXPECT_THAT(summary.rejections, IsEmpty());
    EXPECT_EQ(summary.release_label, "2024-01");
    EXPECT_EQ(summary.as_of, "2024-01");

    const FidcReport r = Report(kAlfa, "2024-01");
    EXPECT_EQ(r.reference_date, "2024-01-31");
    EXPECT_EQ(r.filer_type, "Classe");
    EXPECT_EQ(r.layout, "fundo_classe");
    EXPECT_EQ(r.name, "FIDC TESTE MULTISSETORIAL");
    EXPECT_EQ(r.administrator_cnpj, "11111111000191");
    EXPECT_EQ(r.administrator, "ADMINISTRADORA BETA S.A.");
    EXPECT_EQ(r.condominium, "FECHADO");
    EXPECT_EQ(r.duplicates_dropped, 0);
    ExpectStandardNumbers(r);

    const boost::json::object published = boost::json::parse(r.published_json).as_object();
    EXPECT_EQ(published.at("I").at("TAB_I_VL_ATIVO").as_string(), "1000000.00");
    EXPECT_EQ(published.at("I").at("TAB_I2A11_VL_REDUCAO_RECUP").as_string(), "-50000.00");
    EXPECT_EQ(published.at("I").at("CNPJ_ADMIN").as_string(), "11.111.111/0001-91");
    EXPECT_FALSE(published.at("I").as_object().contains("TAB_I1_VL_DISP"));  // empty in the file
    EXPECT_FALSE(published.at("I").as_object().contains("DT_COMPTC"));       // the key columns are typed
    EXPECT_EQ(published.at("IX").at("TAB_IX_A1_1_2_COMPRA_MEDIA").as_string(), "2.35");
    EXPECT_EQ(published.at("X_1_1").at("TAB_X_NR_COTST_SENIOR_PF").as_string(), "118");
    EXPECT_EQ(published.at("X_5").at("TAB_X_VL_LIQUIDEZ_0").as_string(), "12345.67");
    EXPECT_EQ(published.at("X_7").at("TAB_X_PR_GARANTIA_DIRCRED").as_string(), "5.00");
    EXPECT_EQ(published.at("VIII"), boost::json::parse(R"([["1","5000.00"],["2","3000.00"]])"));
    for (const char* table :
         {"I", "II", "III", "IV", "V", "VI", "VII", "IX", "X", "X_1_1", "X_5", "X_7", "VIII"}) {
        EXPECT_TRUE(published.contains(table)) << table;
    }
    for (const char* long_table : {"X_1", "X_2", "X_3", "X_4", "X_6"}) {
        EXPECT_FALSE(published.contains(long_table)) << long_table;
    }

    const boost::json::value bands = Json(r.bands_json);
    EXPECT_EQ(bands.at("V").at("to_mature").as_array().size(), 10u);
    EXPECT_EQ(bands.at("V").at("to_mature").at(0).as_double(), 400000.0);
    EXPECT_EQ(bands.at("V").at("to_mature").at(2).as_double(), 0.0);  // published 0.00
    EXPECT_TRUE(bands.at("V").at("prepaid").at(2).is_null());         // left empty
    EXPECT_EQ(bands.at("V").at("to_mature").at(9).as_double(), 100000.0);
    EXPECT_EQ(bands.at("V").at("delinquent").at(2).as_double(), 20000.0);
    EXPECT_EQ(bands.at("V").at("prepaid").at(0).as_double(), 1000.0);
    EXPECT_EQ(bands.at("V").at("to_mature_total").as_double(), 700000.0);
    EXPECT_EQ(bands.at("V").at("delinquent_total").as_double(), 50000.0);
    EXPECT_EQ(bands.at("V").at("prepaid_total").as_double(), 1000.0);
    EXPECT_EQ(bands.at("VI").at("delinquent").at(1).as_double(), 10000.0);
    EXPECT_TRUE(bands.at("VI").at("prepaid_total").is_null());

    const boost::json::array segments = Json(r.segments_json).as_array();
    ASSERT_EQ(segments.size(), 27u);
    EXPECT_EQ(segments.at(0), boost::json::parse(R"({"code":"industrial","name":"Industrial",
        "source":"TAB_II_A_VL_INDUST","value":100000.0})"));
    EXPECT_EQ(segments.at(3), boost::json::parse(R"({"code":"retail","name":"Comercial - Varejo",
        "source":"TAB_II_C2_VL_VAREJO","value":300000.0})"));
    EXPECT_EQ(segments.at(21).at("code").as_string(), "court_ordered_debts");
    EXPECT_EQ(segments.at(21).at("name").as_string(), "Precatórios");
    EXPECT_TRUE(segments.at(1).at("value").is_null());
    EXPECT_EQ(segments.at(26).at("value").as_double(), 0.0);

    const auto series = Series(r.id);
    ASSERT_EQ(series.size(), 3u);
    const FidcSeries& senior = series.at(kSenior);
    EXPECT_EQ(senior.cnpj, kAlfa);
    EXPECT_EQ(senior.month, "2024-01");
    EXPECT_EQ(senior.label, "Subclasse Senior Série 1");
    EXPECT_EQ(senior.seniority, "senior");
    EXPECT_EQ(senior.subclass_code, "SUBSR1");
    EXPECT_EQ(senior.investor_count, 120);
    EXPECT_EQ(senior.quota_count, 1000.0);
    EXPECT_EQ(senior.quota_value, 700.0);
    EXPECT_EQ(senior.profitability_pct, 1.15);
    EXPECT_EQ(senior.expected_performance_pct, 1.10);
    EXPECT_EQ(senior.real_performance_pct, 1.15);
    EXPECT_EQ(series.at(kMezzanine).seniority, "mezzanine");
    EXPECT_EQ(series.at(kMezzanine).label, "Subclasse Subordinada Cota Mezanino | Serie 1");
    const FidcSeries& subordinated = series.at(kSubordinated);
    EXPECT_EQ(subordinated.seniority, "subordinated");
    EXPECT_FALSE(subordinated.subclass_code);
    EXPECT_FALSE(subordinated.profitability_pct);         // its X_3 row is empty
    EXPECT_FALSE(subordinated.expected_performance_pct);  // no X_6 row
    EXPECT_EQ(subordinated.quota_value, 3900.0);

    std::map<std::string, FidcQuotaOperation> operations;
    for (FidcQuotaOperation& operation : Operations(r.id)) {
        operations.emplace(operation.kind, std::move(operation));
    }
    ASSERT_EQ(operations.size(), 4u);
    EXPECT_EQ(operations.at("subscription").published_kind, "Captações no Mês");
    EXPECT_EQ(operations.at("subscription").series_label, "Subclasse Senior Série 1");
    EXPECT_EQ(operations.at("subscription").series_key, kSenior);
    EXPECT_EQ(operations.at("subscription").value, 50000.0);
    EXPECT_EQ(operations.at("subscription").quota_count, 71.42857143);
    EXPECT_EQ(operations.at("redemption").value, 20000.0);
    EXPECT_EQ(operations.at("pending_redemption").published_kind, "Resgates Solicitados");
    EXPECT_FALSE(operations.at("pending_redemption").quota_count);
    EXPECT_EQ(operations.at("amortization").series_key, kSubordinated);
    EXPECT_EQ(operations.at("amortization").quota_count, 0.0);
}

TEST_F(FidcIngestTest, CnpjFundoLayoutOfOlderMonths) {
    // 2019-05: CNPJ_FUNDO everywhere, no TP_FUNDO_CLASSE, no ID_SUBCLASSE, no X_1_1 or X_7.
    const FidcMonth month = StandardMonth("201905", FidcEra::kCnpjFundo, {kAlfa, kBeta});
    ASSERT_FALSE(month.Has("X_1_1"));
    ASSERT_FALSE(month.Has("X_7"));
    const sdk::IngestSummary summary = IngestFidc(Db(), {WriteFidcMonthlyZip(Fresh(), month)});
    EXPECT_EQ(summary.inserted, 2u * (1 + 3 + 4));
    EXPECT_EQ(summary.release_label, "2019-05");

    const FidcReport r = Report(kAlfa, "2019-05");
    EXPECT_FALSE(r.filer_type);
    EXPECT_EQ(r.layout, "cnpj_fundo");
    EXPECT_EQ(r.reference_date, "2019-05-31");
    ExpectStandardNumbers(r);
    const boost::json::object published = boost::json::parse(r.published_json).as_object();
    EXPECT_FALSE(published.contains("X_1_1"));
    EXPECT_FALSE(published.contains("X_7"));
    EXPECT_FALSE(published.at("I").as_object().contains("CNPJ_FUNDO"));
    const auto series = Series(r.id);
    ASSERT_EQ(series.size(), 3u);
    EXPECT_FALSE(series.at(kSenior).subclass_code);
    EXPECT_EQ(series.at(kSenior).investor_count, 120);
    EXPECT_EQ(Report(kBeta, "2019-05").investor_count, 124);
}

TEST_F(FidcIngestTest, MixedLayoutLongTablesJoinTheTypedReport) {
    // 2021-06: tables I..X_7 carry TP_FUNDO_CLASSE, the long tables X_1..X_6 only CNPJ_FUNDO.
    FidcMonth month("202106", FidcEra::kMixed);
    month.Add(StandardFiling(kAlfa));  // Classe
    FidcFiling fund = StandardFiling(kBeta);
    fund.type = "Fundo";
    month.Add(fund);
    // Gama files as Fundo and Classe in the one-row tables: the Classe report keeps its series.
    FidcFiling gama_fund = StandardFiling(kGama);
    gama_fund.type = "Fundo";
    gama_fund.x1.clear();
    gama_fund.x2.clear();
    gama_fund.x3.clear();
    gama_fund.x4.clear();
    gama_fund.x6.clear();
    month.Add(gama_fund);
    FidcFiling gama_class = StandardFiling(kGama);
    gama_class.tables["IV"]["TAB_IV_A_VL_PL"] = "1.00";
    month.Add(gama_class);

    const sdk::IngestSummary summary = IngestFidc(Db(), {WriteFidcMonthlyZip(Fresh(), month)});
    EXPECT_EQ(AllRows<FidcReport>(Db()).size(), 3u);

    const FidcReport alfa = Report(kAlfa, "2021-06");
    EXPECT_EQ(alfa.filer_type, "Classe");
    EXPECT_EQ(alfa.layout, "fundo_classe");
    ExpectStandardNumbers(alfa);
    EXPECT_EQ(Series(alfa.id).size(), 3u);
    EXPECT_EQ(Operations(alfa.id).size(), 4u);
    EXPECT_EQ(Series(alfa.id).at(kSenior).subclass_code, std::nullopt);

    const FidcReport beta = Report(kBeta, "2021-06");
    EXPECT_EQ(beta.filer_type, "Fundo");
    EXPECT_EQ(Series(beta.id).size(), 3u);
    EXPECT_EQ(beta.series_nav_total, 995000.0);

    const FidcReport gama = Report(kGama, "2021-06");
    EXPECT_EQ(gama.filer_type, "Classe");
    EXPECT_EQ(gama.nav, 1.0);
    EXPECT_EQ(gama.duplicates_dropped, 12);  // the Fundo row of each of the 12 one-row tables
    EXPECT_EQ(Series(gama.id).size(), 3u);
    EXPECT_EQ(gama.investor_count, 124);
}

TEST_F(FidcIngestTest, YearlyZipWithYearlyMembers) {
    std::vector<FidcMonth> months;
    for (const std::string period : {"202211", "202212"}) {
        FidcMonth month(period, FidcEra::kFundoClasse);
        FidcFiling filing = StandardFiling(kAlfa);
        filing.tables["IV"]["TAB_IV_A_VL_PL"] = period == "202211" ? "111.11" : "222.22";
        month.Add(filing);
        month.Add(StandardFiling(kBeta));
        months.push_back(month);
    }
    const sdk::IngestSummary summary = IngestFidc(Db(), {WriteFidcYearlyZip(Fresh(), "2022", months, true)});
    EXPECT_EQ(summary.inserted, 4u * (1 + 3 + 4));
    EXPECT_EQ(summary.release_label, "2022-12");
    EXPECT_EQ(Report(kAlfa, "2022-11").nav, 111.11);
    EXPECT_EQ(Report(kAlfa, "2022-11").reference_date, "2022-11-30");
    EXPECT_EQ(Report(kAlfa, "2022-12").nav, 222.22);
    EXPECT_EQ(Report(kBeta, "2022-12").nav, 995000.0);
    EXPECT_EQ(Series(Report(kBeta, "2022-11").id).size(), 3u);
}

TEST_F(FidcIngestTest, YearlyZipWithMonthlyMembersAndMonthsFromTheRows) {
    std::vector<FidcMonth> months = {StandardMonth("202101"), StandardMonth("202102")};
    IngestFidc(Db(), {WriteFidcYearlyZip(Fresh(), "2021", months, false)});
    EXPECT_EQ(AllRows<FidcReport>(Db()).size(), 2u);
    EXPECT_EQ(Report(kAlfa, "2021-02").reference_date, "2021-02-28");

    // The month is DT_COMPTC's, whatever the file name says.
    FidcMonth misnamed("202103", FidcEra::kFundoClasse);
    FidcMonth april("202104", FidcEra::kFundoClasse);
    april.Add(StandardFiling(kBeta));
    for (const std::string& table : april.Tables()) {
        misnamed.Lines(table) = april.Lines(table);
    }
    const sdk::IngestSummary summary = IngestFidc(Db(), {WriteFidcMonthlyZip(Fresh(), misnamed)});
    EXPECT_EQ(summary.release_label, "2021-04");
    EXPECT_EQ(Report(kBeta, "2021-04").reference_date, "2021-04-30");
    EXPECT_TRUE(Reports(kBeta, "2021-03").empty());
}

TEST_F(FidcIngestTest, LooseCsvsAndIgnoredMembers) {
    const fs::path dir = Fresh();
    const FidcMonth month = StandardMonth("202402", FidcEra::kFundoClasse, {kAlfa, kBeta});
    std::vector<fs::path> inputs = WriteFidcCsvs(dir, month);
    const fs::path unknown = dir / "inf_mensal_fidc_tab_XI_202402.csv";
    WriteFile(unknown, "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;DENOM_SOCIAL;DT_COMPTC\r\n");
    inputs.push_back(unknown);
    const sdk::IngestSummary summary = IngestFidc(Db(), inputs);
    EXPECT_EQ(summary.inserted, 2u * (1 + 3 + 4));
    EXPECT_THAT(
        summary.rejections,
        Contains("inf_mensal_fidc_tab_XI_202402.csv: ignored, not a table of the FIDC monthly report"));
    EXPECT_EQ(summary.rejected, 0u);
    ExpectStandardNumbers(Report(kBeta, "2024-02"));

    const FidcMonth march = StandardMonth("202403");
    const sdk::IngestSummary zipped =
        IngestFidc(Db(), {WriteFidcMonthlyZip(Fresh(), march, {{"LEIAME.txt", "leia-me"}})});
    EXPECT_THAT(
        zipped.rejections,
        Contains("inf_mensal_fidc_202403.zip:LEIAME.txt: ignored, not a table of the FIDC monthly report"));
    EXPECT_EQ(zipped.release_label, "2024-03");
}

TEST_F(FidcIngestTest, AFileOfAnotherDatasetIsRefused) {
    const fs::path path = Fresh() / "registro_fundo.csv";
    WriteFile(path, "ID_Registro_Fundo;CNPJ_Fundo\r\n");
    EXPECT_THAT(FailedIngest({path}), HasSubstr("registro_fundo.csv: not a file of cvm.inf_mensal_fidc"));
}

TEST_F(FidcIngestTest, ClasseRowsDropTheFundoRowsOfTheirCnpjAndMonth) {
    FidcMonth month("202405", FidcEra::kFundoClasse);
    FidcFiling fund = StandardFiling(kAlfa);
    fund.type = "Fundo";
    fund.tables["IV"]["TAB_IV_A_VL_PL"] = "7.00";
    month.Add(fund);
    // The Classe filing has a single row, in table IV: it still drops every Fundo row.
    FidcFiling class_only_iv;
    class_only_iv.cnpj = kAlfa;
    class_only_iv.tables["IV"] = {{"TAB_IV_A_VL_PL", "8.00"}};
    for (const std::string& table : month.Tables()) {
        if (table != "IV") {
            class_only_iv.skip.insert(table);
        }
    }
    month.Add(class_only_iv);
    FidcFiling beta = StandardFiling(kBeta);
    beta.type = "Fundo";
    month.Add(beta);

    const sdk::IngestSummary summary = IngestFidc(Db(), {WriteFidcMonthlyZip(Fresh(), month)});
    EXPECT_EQ(summary.rejected, 0u);
    const FidcReport alfa = Report(kAlfa, "2024-05");
    EXPECT_EQ(alfa.filer_type, "Classe");
    EXPECT_EQ(alfa.nav, 8.0);
    EXPECT_FALSE(alfa.assets_total);                             // table I came only as Fundo
    EXPECT_EQ(alfa.duplicates_dropped, 12 + 3 + 3 + 3 + 4 + 1);  // every Fundo row
    EXPECT_TRUE(Series(alfa.id).empty());
    EXPECT_TRUE(Operations(alfa.id).empty());
    const FidcReport kept_fund = Report(kBeta, "2024-05");
    EXPECT_EQ(kept_fund.filer_type, "Fundo");
    EXPECT_EQ(kept_fund.duplicates_dropped, 0);
    ExpectStandardNumbers(kept_fund);
}

TEST_F(FidcIngestTest, ConflictingRowsTheLastLineWins) {
    FidcMonth month = StandardMonth("202312", FidcEra::kFundoClasse, {kAlfa});
    FidcFiling second = StandardFiling(kAlfa);
    second.tables["IV"]["TAB_IV_A_VL_PL"] = "974364591.62";
    second.tables["I"]["ADMIN"] = "HEMERA DTVM";
    second.x2[0]["TAB_X_VL_COTA"] = "800.00000000";
    // Keep only the conflicting rows: I, IV and the senior X_2 row.
    for (const std::string& table : month.Tables()) {
        if (table != "I" && table != "IV") {
            second.skip.insert(table);
        }
    }
    second.x1.clear();
    second.x2.resize(1);
    second.x3.clear();
    second.x4.clear();
    second.x6.clear();
    month.Add(second);

    const sdk::IngestSummary summary = IngestFidc(Db(), {WriteFidcMonthlyZip(Fresh(), month)});
    EXPECT_EQ(summary.rejected, 0u);  // nothing is rejected: the rule keeps one row per key
    const FidcReport r = Report(kAlfa, "2023-12");
    EXPECT_EQ(r.nav, 974364591.62);
    EXPECT_EQ(r.administrator, "HEMERA DTVM");
    EXPECT_EQ(r.duplicates_dropped, 3);
    EXPECT_EQ(Series(r.id).at(kSenior).quota_value, 800.0);
    EXPECT_EQ(r.senior_nav, 800000.0);
    EXPECT_THAT(
        summary.rejections,
        Contains("inf_mensal_fidc_202312.zip:inf_mensal_fidc_tab_IV_202312.csv:3 conflicts with line 2 for "
                 "(12345678000195, 2023-12, Classe): kept line 3"));
    EXPECT_THAT(
        summary.rejections,
        Contains("inf_mensal_fidc_202312.zip:inf_mensal_fidc_tab_X_2_202312.csv:5 conflicts with line 2 for "
                 "(12345678000195, 2023-12, Classe, subclasse senior serie 1): kept line 5"));
    // The report's one-row tables were filed twice, so the senior label's two X_2 rows are one
    // series delivered twice (not two series): said once for the group, and counted.
    EXPECT_THAT(
        summary.rejections,
        Contains("inf_mensal_fidc_202312.zip:inf_mensal_fidc_tab_X_2_202312.csv:2: 2 rows of "
                 "(12345678000195, 2023-12, Classe, subclasse senior serie 1) in a report delivered 2 "
                 "times: read as 1 series delivered 2 times, the last delivery kept"));
    EXPECT_EQ(summary.rejections.back(),
              "repeated series labels: 0 group(s) read as distinct series, 1 as series of a report delivered "
              "more than once (last delivery kept)");
    EXPECT_EQ(summary.rejections.size(), 5u);
}

TEST_F(FidcIngestTest, DifferentRowsOfOneLabelAreSeriesOfTheirOwn) {
    // As 36.115.099/0001-14 files them: three series labelled 'Subclasse Subordinada 0 | 0', and
    // amortizations with the BRL total in TAB_X_QT_COTA (checked against each series' X_2 quotas).
    FidcFiling filing = StandardFiling(kAlfa);
    const std::string label = "Subclasse Subordinada 0 | 0";
    const std::string key = "subclasse subordinada 0 | 0";
    filing.x1.clear();
    filing.x3.clear();
    filing.x6.clear();
    filing.x2 = {
        {{"TAB_X_CLASSE_SERIE", label}, {"TAB_X_QT_COTA", "4760.10"}, {"TAB_X_VL_COTA", "1462.65"}},
        {{"TAB_X_CLASSE_SERIE", label}, {"TAB_X_QT_COTA", "25000.00"}, {"TAB_X_VL_COTA", "1257.48"}},
        {{"TAB_X_CLASSE_SERIE", label}, {"TAB_X_QT_COTA", "4760.10"}, {"TAB_X_VL_COTA", "1462.65"}},
        {{"TAB_X_CLASSE_SERIE", label}, {"TAB_X_QT_COTA", "11888.46"}, {"TAB_X_VL_COTA", "1020.94"}}};
    filing.x4 = {{{"TAB_X_TP_OPER", "Amortizações"},
                  {"TAB_X_CLASSE_SERIE", label},
                  {"TAB_X_VL_TOTAL", "10.00"},
                  {"TAB_X_QT_COTA", "47601.00"}},  // 10.00 on each of 4,760.10 quotas
                 {{"TAB_X_TP_OPER", "Amortizações"},
                  {"TAB_X_CLASSE_SERIE", label},
                  {"TAB_X_VL_TOTAL", "50000.00"},
                  {"TAB_X_QT_COTA", "25000.00"}},  // as named
                 {{"TAB_X_TP_OPER", "Amortizações"},
                  {"TAB_X_CLASSE_SERIE", label},
                  {"TAB_X_VL_TOTAL", "7.00"},
                  {"TAB_X_QT_COTA", "3.00"}}};  // neither reading fits 11,888.46 quotas
    FidcMonth month("202310", FidcEra::kFundoClasse);
    month.Add(filing);
    const sdk::IngestSummary summary = IngestFidc(Db(), {WriteFidcMonthlyZip(Fresh(), month)});

    const FidcReport r = Report(kAlfa, "2023-10");
    const std::map<std::string, FidcSeries> series = Series(r.id);
    ASSERT_EQ(series.size(), 3u);  // the repeated fourth row is the first series filed twice
    EXPECT_EQ(series.at(key).quota_count, 4760.10);
    EXPECT_EQ(series.at(key + " #2").quota_count, 25000.0);
    EXPECT_EQ(series.at(key + " #3").quota_count, 11888.46);
    EXPECT_EQ(series.at(key + " #3").label, label);
    EXPECT_EQ(r.duplicates_dropped, 0);
    // Every series counts, the total exact to the cent (docs/api/fidc-metrics.md).
    EXPECT_DOUBLE_EQ(*r.series_nav_total,
                     sdk::RoundToCents(4760.10 * 1462.65 + 25000.0 * 1257.48 + 11888.46 * 1020.94));

    std::map<std::string, FidcQuotaOperation> amortizations;
    for (FidcQuotaOperation& operation : Operations(r.id)) {
        amortizations.emplace(operation.series_key, std::move(operation));
    }
    ASSERT_EQ(amortizations.size(), 3u);
    EXPECT_EQ(amortizations.at(key).reading, "swapped");
    EXPECT_EQ(amortizations.at(key).value_brl, 47601.0);
    EXPECT_EQ(amortizations.at(key).value, 10.0);  // as published, whatever the reading
    EXPECT_EQ(amortizations.at(key + " #2").reading, "as_published");
    EXPECT_EQ(amortizations.at(key + " #2").value_brl, 50000.0);
    EXPECT_EQ(amortizations.at(key + " #3").reading, "unverified");
    EXPECT_FALSE(amortizations.at(key + " #3").value_brl.has_value());
    EXPECT_EQ(amortizations.at(key + " #3").series_label, label);

    EXPECT_THAT(
        summary.rejections,
        Contains("inf_mensal_fidc_202310.zip:inf_mensal_fidc_tab_X_2_202310.csv:2: 4 rows of "
                 "(12345678000195, 2023-10, Classe, subclasse subordinada 0 | 0) in a report delivered 1 "
                 "time: read as 3 distinct series (subclasse subordinada 0 | 0, subclasse subordinada 0 | "
                 "0 #2, …)"));
    EXPECT_EQ(summary.rejections.back(),
              "repeated series labels: 2 group(s) read as distinct series, 0 as series of a report delivered "
              "more than once (last delivery kept)");
}

TEST_F(FidcIngestTest, ConflictsAcrossFilesKeepTheLaterInput) {
    const FidcMonth first = StandardMonth("202312");
    FidcMonth republished("202312", FidcEra::kFundoClasse);
    FidcFiling filing = StandardFiling(kAlfa);
    filing.tables["III"]["TAB_III_VL_PASSIVO"] = "6000.00";
    republished.Add(filing);
    const fs::path dir = Fresh();
    const fs::path zip = WriteFidcMonthlyZip(dir, first);
    const fs::path loose = dir / republished.Member("III");
    WriteFile(loose, republished.Bytes("III"));
    const sdk::IngestSummary summary = IngestFidc(Db(), {zip, loose});
    EXPECT_EQ(Report(kAlfa, "2023-12").liabilities, 6000.0);
    EXPECT_THAT(summary.rejections,
                Contains("inf_mensal_fidc_tab_III_202312.csv:2 conflicts with "
                         "inf_mensal_fidc_202312.zip:inf_mensal_fidc_tab_III_202312.csv:2 for "
                         "(12345678000195, 2023-12, Classe): kept inf_mensal_fidc_tab_III_202312.csv:2"));
}

TEST_F(FidcIngestTest, IdenticalRepeatsCollapseSilently) {
    FidcMonth month = StandardMonth("202309");
    for (const std::string table : {"I", "IV", "X_2", "X_4"}) {
        month.Lines(table).push_back(month.Lines(table).at(1));
    }
    const sdk::IngestSummary summary = IngestFidc(Db(), {WriteFidcMonthlyZip(Fresh(), month)});
    EXPECT_THAT(summary.rejections, IsEmpty());
    const FidcReport r = Report(kAlfa, "2023-09");
    EXPECT_EQ(r.duplicates_dropped, 0);
    EXPECT_EQ(Series(r.id).size(), 3u);
    EXPECT_EQ(Operations(r.id).size(), 4u);
    ExpectStandardNumbers(r);
}

// CVM's headers never repeat a name; if one did, published_json would still hold each key once,
// with the first non-empty value of that name.
TEST_F(FidcIngestTest, ARepeatedColumnNameIsPublishedOnceWithItsFirstValue) {
    FidcMonth month("202401", FidcEra::kFundoClasse);
    month.Add(StandardFiling(kAlfa));
    FidcFiling beta = StandardFiling(kBeta);
    beta.tables["X_7"].erase("TAB_X_PR_GARANTIA_DIRCRED");
    month.Add(beta);
    std::vector<std::string>& lines = month.Lines("X_7");
    lines.at(0) += ";TAB_X_PR_GARANTIA_DIRCRED";
    for (std::size_t i = 1; i < lines.size(); ++i) {
        lines[i] += ";7.77";
    }
    IngestFidc(Db(), {WriteFidcMonthlyZip(Fresh(), month)});

    const auto published_x7 = [this](const char* cnpj) {
        const std::string text = Report(cnpj, "2024-01").published_json;
        const std::string key = "\"TAB_X_PR_GARANTIA_DIRCRED\"";
        EXPECT_EQ(text.find(key), text.rfind(key)) << text;
        return boost::json::parse(text).at("X_7").as_object();
    };
    EXPECT_EQ(published_x7(kAlfa).at("TAB_X_PR_GARANTIA_DIRCRED").as_string(), "5.00");
    EXPECT_EQ(published_x7(kBeta).at("TAB_X_PR_GARANTIA_DIRCRED").as_string(), "7.77");
    EXPECT_EQ(published_x7(kBeta).at("TAB_X_VL_GARANTIA_DIRCRED").as_string(), "50000.00");
}

TEST_F(FidcIngestTest, BlankFilerTypeIsAThirdType) {
    FidcMonth month("202310", FidcEra::kFundoClasse);
    FidcFiling fund = StandardFiling(kAlfa);
    fund.type = "Fundo";
    month.Add(fund);
    FidcFiling blank = StandardFiling(kAlfa);
    blank.type = "";
    blank.tables["IV"]["TAB_IV_A_VL_PL"] = "5.00";
    month.Add(blank);
    // Beta: blank beside Classe -> only the Classe report.
    FidcFiling beta_blank = StandardFiling(kBeta);
    beta_blank.type = "";
    month.Add(beta_blank);
    FidcFiling beta_class = StandardFiling(kBeta);
    beta_class.tables["IV"]["TAB_IV_A_VL_PL"] = "6.00";
    month.Add(beta_class);

    const sdk::IngestSummary summary = IngestFidc(Db(), {WriteFidcMonthlyZip(Fresh(), month)});
    EXPECT_THAT(summary.rejections, IsEmpty());
    std::vector<FidcReport> alfa = Reports(kAlfa, "2023-10");
    ASSERT_EQ(alfa.size(), 2u);
    std::sort(alfa.begin(), alfa.end(),
              [](const auto& a, const auto& b) { return a.filer_type > b.filer_type; });
    EXPECT_EQ(alfa[0].filer_type, "Fundo");
    EXPECT_EQ(alfa[0].nav, 995000.0);
    EXPECT_FALSE(alfa[1].filer_type);  // blank is stored as NULL
    EXPECT_EQ(alfa[1].nav, 5.0);
    EXPECT_EQ(Series(alfa[1].id).size(), 3u);
    const FidcReport beta = Report(kBeta, "2023-10");
    EXPECT_EQ(beta.filer_type, "Classe");
    EXPECT_EQ(beta.nav, 6.0);
    EXPECT_EQ(beta.duplicates_dropped, 12 + 3 + 3 + 3 + 4 + 1);
}

TEST_F(FidcIngestTest, ARepublishedMonthReplacesThatMonthOnly) {
    IngestFidc(
        Db(), {WriteFidcMonthlyZip(Fresh(), StandardMonth("202401", FidcEra::kFundoClasse, {kAlfa, kBeta})),
               WriteFidcMonthlyZip(Fresh(), StandardMonth("202402", FidcEra::kFundoClasse, {kAlfa, kBeta}))});
    const FidcReport february_before = Report(kAlfa, "2024-02");
    const auto february_series = Series(february_before.id);
    ASSERT_EQ(AllRows<FidcReport>(Db()).size(), 4u);

    // CVM republishes January: Alfa's NAV changed and its mezzanine series is gone; Beta no
    // longer reports; Gama is new.
    FidcMonth january("202401", FidcEra::kFundoClasse);
    FidcFiling alfa = StandardFiling(kAlfa);
    alfa.tables["IV"]["TAB_IV_A_VL_PL"] = "996000.00";
    for (auto* rows : {&alfa.x1, &alfa.x2, &alfa.x3}) {
        rows->erase(rows->begin() + 1);
    }
    january.Add(alfa);
    january.Add(StandardFiling(kGama));
    const sdk::IngestSummary summary = IngestFidc(Db(), {WriteFidcMonthlyZip(Fresh(), january)});
    EXPECT_EQ(summary.removed, 2u * (1 + 3 + 4));
    EXPECT_EQ(summary.inserted, (1 + 2 + 4) + (1 + 3 + 4));
    EXPECT_EQ(summary.release_label, "2024-02");  // the latest month stored
    EXPECT_EQ(summary.as_of, "2024-02");

    const FidcReport new_alfa = Report(kAlfa, "2024-01");
    EXPECT_EQ(new_alfa.nav, 996000.0);
    const auto series = Series(new_alfa.id);
    EXPECT_EQ(series.size(), 2u);
    EXPECT_FALSE(series.contains(kMezzanine));
    EXPECT_FALSE(new_alfa.mezzanine_nav);
    EXPECT_EQ(new_alfa.investor_count, 121);
    EXPECT_TRUE(Reports(kBeta, "2024-01").empty());
    EXPECT_EQ(Report(kGama, "2024-01").nav, 995000.0);
    // Nothing of the old January is left.
    for (const FidcSeries& s : AllRows<FidcSeries>(Db())) {
        if (s.month == "2024-01") {
            EXPECT_TRUE(s.cnpj == kAlfa || s.cnpj == kGama) << s.cnpj;
            EXPECT_TRUE(s.report_id == new_alfa.id || s.report_id == Report(kGama, "2024-01").id);
        }
    }

    // February is untouched: same ids, same values.
    const FidcReport february_after = Report(kAlfa, "2024-02");
    EXPECT_EQ(february_after.id, february_before.id);
    EXPECT_EQ(february_after.published_json, february_before.published_json);
    EXPECT_EQ(Series(february_after.id).size(), february_series.size());
    EXPECT_EQ(Reports(kBeta, "2024-02").size(), 1u);

    // A new latest month moves the release.
    EXPECT_EQ(IngestFidc(Db(), {WriteFidcMonthlyZip(Fresh(), StandardMonth("202403"))}).release_label,
              "2024-03");
}

class FidcIngestErrorTest : public FidcIngestTest {
protected:
    void SetUp() override {
        FidcIngestTest::SetUp();
        IngestFidc(Db(), {WriteFidcMonthlyZip(
                             Fresh(), StandardMonth("202401", FidcEra::kFundoClasse, {kAlfa, kBeta}))});
        ASSERT_EQ(CountFidcRows(Db()), (FidcRowCounts{2, 6, 8, 2}));
    }
};

TEST_F(FidcIngestErrorTest, TruncatedZip) {
    const fs::path zip =
        WriteFidcMonthlyZip(Fresh(), StandardMonth("202401", FidcEra::kFundoClasse, {kGama}));
    fs::resize_file(zip, fs::file_size(zip) / 2);
    const std::string message = FailedIngest({zip});
    EXPECT_THAT(message, HasSubstr("inf_mensal_fidc_202401.zip"));
    EXPECT_THAT(message, HasSubstr("not a zip archive or truncated"));
}

TEST_F(FidcIngestErrorTest, MissingColumn) {
    FidcMonth month = StandardMonth("202401", FidcEra::kFundoClasse, {kGama});
    std::string& header = month.Lines("IV").front();
    header.replace(header.find("TAB_IV_A_VL_PL;"), 15, "");
    for (std::size_t i = 1; i < month.Lines("IV").size(); ++i) {
        std::string& line = month.Lines("IV")[i];
        line.erase(line.rfind(';', line.rfind(';') - 1),
                   line.rfind(';') - line.rfind(';', line.rfind(';') - 1));
    }
    EXPECT_EQ(
        FailedIngest({WriteFidcMonthlyZip(Fresh(), month)}),
        "inf_mensal_fidc_202401.zip:inf_mensal_fidc_tab_IV_202401.csv:1: missing column TAB_IV_A_VL_PL");
}

TEST_F(FidcIngestErrorTest, MissingKeyColumn) {
    FidcMonth month = StandardMonth("202401", FidcEra::kFundoClasse, {kGama});
    std::string& header = month.Lines("X_3").front();
    header.replace(header.find("DT_COMPTC"), 9, "DATA");
    EXPECT_EQ(FailedIngest({WriteFidcMonthlyZip(Fresh(), month)}),
              "inf_mensal_fidc_202401.zip:inf_mensal_fidc_tab_X_3_202401.csv:1: missing column DT_COMPTC");
}

TEST_F(FidcIngestErrorTest, BadNumberNamesFileLineColumnAndValue) {
    FidcMonth month = StandardMonth("202401", FidcEra::kFundoClasse, {kGama});
    FidcFiling bad = StandardFiling(kBeta);
    bad.tables["I"]["TAB_I_VL_ATIVO"] = "1.234,56";
    month.Add(bad);
    EXPECT_EQ(FailedIngest({WriteFidcMonthlyZip(Fresh(), month)}),
              "inf_mensal_fidc_202401.zip:inf_mensal_fidc_tab_I_202401.csv:3: TAB_I_VL_ATIVO is not a plain "
              "decimal number: '1.234,56'");
}

TEST_F(FidcIngestErrorTest, BadCountInALongTable) {
    FidcMonth month = StandardMonth("202401", FidcEra::kFundoClasse, {kGama});
    FidcFiling bad = StandardFiling(kBeta);
    bad.x1[1]["TAB_X_NR_COTST"] = "3.5";
    month.Add(bad);
    EXPECT_EQ(
        FailedIngest({WriteFidcMonthlyZip(Fresh(), month)}),
        "inf_mensal_fidc_202401.zip:inf_mensal_fidc_tab_X_1_202401.csv:6: TAB_X_NR_COTST is not an integer: "
        "'3.5'");
}

TEST_F(FidcIngestErrorTest, InvalidDateAndCnpj) {
    FidcMonth dated = StandardMonth("202401", FidcEra::kFundoClasse, {kGama});
    std::string& line = dated.Lines("II").at(1);
    line.replace(line.find("2024-01-31"), 10, "31/01/2024");
    EXPECT_EQ(
        FailedIngest({WriteFidcMonthlyZip(Fresh(), dated)}),
        "inf_mensal_fidc_202401.zip:inf_mensal_fidc_tab_II_202401.csv:2: invalid DT_COMPTC '31/01/2024' "
        "(expected YYYY-MM-DD)");

    FidcMonth numbered = StandardMonth("202401", FidcEra::kFundoClasse, {kGama});
    std::string& x4 = numbered.Lines("X_4").at(2);
    x4.replace(x4.find("33.333.333/0001-91"), 18, "33.333.333/0001-00");
    EXPECT_EQ(FailedIngest({WriteFidcMonthlyZip(Fresh(), numbered)}),
              "inf_mensal_fidc_202401.zip:inf_mensal_fidc_tab_X_4_202401.csv:3: invalid CNPJ_FUNDO_CLASSE "
              "'33.333.333/0001-00'");
}

TEST_F(FidcIngestErrorTest, MissingMember) {
    FidcMonth month = StandardMonth("202401", FidcEra::kFundoClasse, {kGama});
    month.Drop("X_3");
    month.Drop("VI");
    month.Drop("X_7");  // optional: not named
    EXPECT_EQ(FailedIngest({WriteFidcMonthlyZip(Fresh(), month)}),
              "inf_mensal_fidc_202401.zip: month 2024-01 is incomplete: missing table(s) VI, X_3 (a month is "
              "replaced only by a complete set of tables)");
}

TEST_F(FidcIngestErrorTest, AnErrorInALaterMonthUndoesTheEarlierOnes) {
    FidcMonth later = StandardMonth("202402", FidcEra::kFundoClasse, {kGama});
    std::string& line = later.Lines("X_2").at(1);
    line.replace(line.find("700.00000000"), 12, "7OO.00");
    FidcMonth january = StandardMonth("202401", FidcEra::kFundoClasse, {kGama});
    EXPECT_EQ(FailedIngest({WriteFidcMonthlyZip(Fresh(), january), WriteFidcMonthlyZip(Fresh(), later)}),
              "inf_mensal_fidc_202402.zip:inf_mensal_fidc_tab_X_2_202402.csv:2: TAB_X_VL_COTA is not a plain "
              "decimal number: '7OO.00'");
    EXPECT_TRUE(Reports(kGama, "2024-01").empty());
}

TEST_F(FidcIngestErrorTest, AMonthSplitAcrossPeriods) {
    // A zip named for February that holds January's rows, given with January's own zip.
    FidcMonth misnamed("202402", FidcEra::kFundoClasse);
    const FidcMonth january = StandardMonth("202401", FidcEra::kFundoClasse, {kGama});
    for (const std::string& table : january.Tables()) {
        misnamed.Lines(table) = january.Lines(table);
    }
    EXPECT_THAT(
        FailedIngest({WriteFidcMonthlyZip(Fresh(), january), WriteFidcMonthlyZip(Fresh(), misnamed)}),
        HasSubstr(
            "inf_mensal_fidc_202402.zip: rows of month 2024-01 are also in the files of another period"));
}

// Issue 17, point 3: an empty component is not a zero. Before, an empty I2A11 beside I2B11 =
// 0.00 gave pdd 0 and pdd_ratio 0, and a series without TAB_X_NR_COTST a smaller investor count.
TEST_F(FidcIngestTest, AnEmptyComponentMakesItsSumNull) {
    FidcMonth month("202404", FidcEra::kFundoClasse);
    FidcFiling filing = StandardFiling(kAlfa);
    filing.tables["I"].erase("TAB_I2A11_VL_REDUCAO_RECUP");
    filing.tables["I"]["TAB_I2B11_VL_REDUCAO_RECUP"] = "0.00";
    filing.tables["I"].erase("TAB_I2B10_VL_CRED_DIVERSO");
    filing.tables["V"].erase("TAB_V_B4_VL_INAD_120");
    filing.x1[1].erase("TAB_X_NR_COTST");  // the mezzanine series
    month.Add(filing);
    FidcFiling without_vi = StandardFiling(kBeta);
    without_vi.skip = {"VI"};
    month.Add(without_vi);
    IngestFidc(Db(), {WriteFidcMonthlyZip(Fresh(), month)});

    const FidcReport r = Report(kAlfa, "2024-04");
    EXPECT_FALSE(r.pdd_with_risk);
    EXPECT_EQ(r.pdd_without_risk, 0.0);
    EXPECT_FALSE(r.pdd);        // was 0
    EXPECT_FALSE(r.pdd_ratio);  // was 0
    EXPECT_FALSE(r.receivables_gross);
    EXPECT_EQ(r.receivables_net, 900000.0);
    EXPECT_FALSE(r.receivables_components);
    EXPECT_FALSE(r.delinquent_total);
    EXPECT_FALSE(r.band_denominator);
    EXPECT_FALSE(r.delinquency_ratio);
    EXPECT_FALSE(r.investor_count);  // was 121
    EXPECT_EQ(r.series_nav_total, 995000.0);
    EXPECT_EQ(Series(r.id).at(kSenior).investor_count, 120);

    // A report without a table VI row: its bands are missing, not zero.
    const FidcReport beta = Report(kBeta, "2024-04");
    ASSERT_TRUE(beta.bands_json);
    EXPECT_FALSE(beta.delinquent_total);
    EXPECT_FALSE(beta.band_denominator);
    EXPECT_FALSE(beta.delinquency_ratio);
    EXPECT_EQ(beta.pdd, 60000.0);
}

TEST_F(FidcIngestTest, EmptyFieldsStayNull) {
    FidcMonth month("202404", FidcEra::kFundoClasse);
    FidcFiling empty;
    empty.cnpj = kAlfa;
    empty.x1 = {{{"TAB_X_CLASSE_SERIE", "Sênior"}}};
    empty.x2 = {{{"TAB_X_CLASSE_SERIE", "Sênior"}}};
    empty.x3 = {{{"TAB_X_CLASSE_SERIE", "Sênior"}}};
    empty.x4 = {{{"TAB_X_TP_OPER", "Captações no Mês"}, {"TAB_X_CLASSE_SERIE", "Sênior"}}};
    empty.x6 = {{{"TAB_X_CLASSE_SERIE", "Sênior"}}};
    month.Add(empty);
    FidcFiling without_segments = StandardFiling(kBeta);
    without_segments.skip = {"II", "V", "VI"};
    month.Add(without_segments);
    IngestFidc(Db(), {WriteFidcMonthlyZip(Fresh(), month)});

    const FidcReport r = Report(kAlfa, "2024-04");
    EXPECT_EQ(r.name, "FIDC TESTE MULTISSETORIAL");
    for (const auto* value : {&r.assets_total,
                              &r.receivables_with_risk,
                              &r.receivables_without_risk,
                              &r.pdd_with_risk,
                              &r.pdd_without_risk,
                              &r.receivables_components,
                              &r.liabilities,
                              &r.nav,
                              &r.nav_average,
                              &r.segments_total,
                              &r.pdd,
                              &r.receivables_net,
                              &r.receivables_gross,
                              &r.delinquent_total,
                              &r.band_denominator,
                              &r.delinquency_ratio,
                              &r.pdd_ratio,
                              &r.senior_nav,
                              &r.mezzanine_nav,
                              &r.subordinated_nav,
                              &r.series_nav_total,
                              &r.subordination_with_mezzanine_ratio,
                              &r.subordination_without_mezzanine_ratio,
                              &r.primary_segment_ratio}) {
        EXPECT_FALSE(value->has_value());
    }
    EXPECT_FALSE(r.administrator_cnpj);
    EXPECT_FALSE(r.administrator);
    EXPECT_FALSE(r.condominium);
    EXPECT_FALSE(r.investor_count);
    EXPECT_EQ(r.positive_segment_count, 0);  // a table II row without any positive segment
    EXPECT_FALSE(r.primary_segment_code);
    EXPECT_EQ(r.series_with_profitability_count, 0);
    const boost::json::value segments = Json(r.segments_json);
    for (const auto& segment : segments.as_array()) {
        EXPECT_TRUE(segment.at("value").is_null());
    }
    const boost::json::value bands = Json(r.bands_json);
    for (const char* table : {"V", "VI"}) {
        for (const char* part : {"to_mature", "delinquent", "prepaid"}) {
            for (const auto& band : bands.at(table).at(part).as_array()) {
                EXPECT_TRUE(band.is_null());
            }
        }
        EXPECT_TRUE(bands.at(table).at("delinquent_total").is_null());
    }
    const boost::json::object published = boost::json::parse(r.published_json).as_object();
    EXPECT_TRUE(published.at("I").as_object().empty());
    const FidcSeries series = Series(r.id).at("senior");
    EXPECT_EQ(series.seniority, "senior");
    EXPECT_FALSE(series.investor_count);
    EXPECT_FALSE(series.quota_count);
    EXPECT_FALSE(series.quota_value);
    EXPECT_FALSE(series.profitability_pct);
    EXPECT_FALSE(series.expected_performance_pct);
    EXPECT_FALSE(series.real_performance_pct);
    const std::vector<FidcQuotaOperation> operations = Operations(r.id);
    ASSERT_EQ(operations.size(), 1u);
    EXPECT_FALSE(operations[0].value);
    EXPECT_FALSE(operations[0].quota_count);

    // Without a table II row there is no segment count; without V and VI no bands.
    const FidcReport beta = Report(kBeta, "2024-04");
    EXPECT_FALSE(beta.positive_segment_count);
    EXPECT_FALSE(beta.segments_json);
    EXPECT_FALSE(beta.segments_total);
    EXPECT_FALSE(beta.bands_json);
    EXPECT_FALSE(beta.delinquency_ratio);
    EXPECT_EQ(beta.nav, 995000.0);
}

// ---- The stored answers of /cotas and /cotas/operacoes (FidcQuotaAnswer, funds 9) ----------

using AnswerFields = std::tuple<std::string, std::string, std::optional<std::string>, std::int64_t,
                                std::string, std::int64_t, std::string>;

std::map<std::int64_t, AnswerFields> StoredAnswers(odb::database& db) {
    std::map<std::int64_t, AnswerFields> answers;
    for (const FidcQuotaAnswer& a : AllRows<FidcQuotaAnswer>(db)) {
        answers[a.report_id] = {a.cnpj,       a.month,          a.filer_type,    a.quota_rows,
                                a.quota_json, a.operation_rows, a.operation_json};
    }
    return answers;
}

std::set<std::int64_t> ReportIds(odb::database& db) {
    std::set<std::int64_t> ids;
    for (const FidcReport& report : AllRows<FidcReport>(db)) {
        ids.insert(report.id);
    }
    return ids;
}

// The ingester writes each report's answers as it saves it; the migration to funds 9 writes them
// from the stored rows with the same writers: both give the same text, byte for byte.
TEST_F(FidcIngestTest, TheStoredQuotaAnswersOfAnIngestAreWhatTheMigrationWrites) {
    IngestFidc(Db(),
               {WriteFidcMonthlyZip(Fresh(), StandardMonth("202401", FidcEra::kFundoClasse, {kAlfa, kBeta})),
                WriteFidcMonthlyZip(Fresh(), StandardMonth("202402", FidcEra::kFundoClasse, {kAlfa}))});
    const auto ingested = StoredAnswers(Db());
    ASSERT_EQ(ingested.size(), 3u);
    std::set<std::int64_t> answered;
    for (const auto& [report_id, fields] : ingested) {
        answered.insert(report_id);
        EXPECT_EQ(std::get<3>(fields), 3) << report_id;  // senior, mezzanine, subordinated
        EXPECT_THAT(std::get<4>(fields), HasSubstr(R"("series_id":"SUBSR1")"));
        EXPECT_GT(std::get<5>(fields), 0) << report_id;
        EXPECT_THAT(std::get<6>(fields), HasSubstr(R"("subscriptions_brl":)"));
    }
    EXPECT_EQ(answered, ReportIds(Db()));
    {
        odb::transaction transaction(Db().begin());
        EXPECT_EQ(RebuildQuotaAnswers(Db()), 3u);
        transaction.commit();
    }
    EXPECT_EQ(StoredAnswers(Db()), ingested);
}

TEST_F(FidcIngestTest, ReingestingAMonthReplacesItsStoredQuotaAnswers) {
    IngestFidc(
        Db(), {WriteFidcMonthlyZip(Fresh(), StandardMonth("202401", FidcEra::kFundoClasse, {kAlfa, kBeta}))});
    FidcMonth again = StandardMonth("202401", FidcEra::kFundoClasse, {kAlfa});
    IngestFidc(Db(), {WriteFidcMonthlyZip(Fresh(), again)});
    const auto answers = StoredAnswers(Db());
    ASSERT_EQ(answers.size(), 1u);
    EXPECT_EQ(answers.begin()->first, *ReportIds(Db()).begin());
    EXPECT_EQ(std::get<0>(answers.begin()->second), kAlfa);
}

// A database at funds 8 (no stored answers) migrates to 9 with every report's answers, as the
// ingest would have written them (lastro db migrate runs the same migration).
TEST_F(FidcIngestTest, ASchema8DatabaseMigratesWithEveryReportsStoredQuotaAnswers) {
    IngestFidc(Db(),
               {WriteFidcMonthlyZip(Fresh(), StandardMonth("202401", FidcEra::kFundoClasse, {kAlfa, kBeta})),
                WriteFidcMonthlyZip(Fresh(), StandardMonth("201905", FidcEra::kCnpjFundo, {kGama}))});
    const auto ingested = StoredAnswers(Db());
    ASSERT_EQ(ingested.size(), 3u);
    {
        odb::transaction transaction(Db().begin());
        Db().execute("DROP TABLE funds_fidc_quota_answer");
        // Version 8's index of the quota columns, which only the routes now answered from the
        // stored text read: 9 drops it.
        Db().execute(
            "CREATE INDEX funds_fidc_report_quota_i ON funds_fidc_report (cnpj, month, filer_type, "
            "reference_date, nav, senior_nav, mezzanine_nav, subordinated_nav, series_nav_total, "
            "subordination_with_mezzanine_ratio, subordination_without_mezzanine_ratio, id)");
        Db().execute("UPDATE schema_version SET version = 8 WHERE name = 'funds'");
        transaction.commit();
    }
    Db().schema_version_migration(8, false, "funds");  // the ingest read (and kept) version 9
    {
        odb::transaction transaction(Db().begin());
        odb::schema_catalog::migrate(Db(), 9, "funds");
        EXPECT_EQ(Db().schema_version("funds"), 9u);
        transaction.commit();
    }
    EXPECT_EQ(StoredAnswers(Db()), ingested);
    odb::transaction transaction(Db().begin());
    EXPECT_THROW(Db().execute("DROP INDEX funds_fidc_report_quota_i"), odb::exception);  // gone
    transaction.rollback();
}

std::map<std::int64_t, std::string> StoredPositiveSegments(odb::database& db) {
    std::map<std::int64_t, std::string> stored;
    for (const FidcPositiveSegments& s : AllRows<FidcPositiveSegments>(db)) {
        stored[s.report_id] = s.segments_json;
    }
    return stored;
}

// The ingester writes each report's positive segments of table II as it saves it (those
// carteira/fundos lists); a database at funds 10 migrates to 11 with the same texts, and a
// re-ingested month replaces them.
TEST_F(FidcIngestTest, ASchema10DatabaseMigratesWithEveryReportsPositiveSegments) {
    IngestFidc(Db(),
               {WriteFidcMonthlyZip(Fresh(), StandardMonth("202401", FidcEra::kFundoClasse, {kAlfa, kBeta})),
                WriteFidcMonthlyZip(Fresh(), StandardMonth("201905", FidcEra::kCnpjFundo, {kGama}))});
    const auto ingested = StoredPositiveSegments(Db());
    std::map<std::int64_t, std::optional<std::int64_t>> positive_counts;
    for (const FidcReport& report : AllRows<FidcReport>(Db())) {
        positive_counts[report.id] = report.positive_segment_count;
    }
    std::size_t positive = 0;
    // The table II documents are in a section of the report loaded on demand: read by a view.
    for (const FidcReportSegments& report : AllRows<FidcReportSegments>(Db())) {
        ASSERT_EQ(ingested.contains(report.report_id), report.segments_json.has_value()) << report.report_id;
        if (!report.segments_json) {
            continue;
        }
        const boost::json::array segments = Json(ingested.at(report.report_id)).as_array();
        EXPECT_EQ(static_cast<std::int64_t>(segments.size()),
                  positive_counts.at(report.report_id).value_or(-1));
        for (const boost::json::value& segment : segments) {
            EXPECT_GT(segment.at("value").to_number<double>(), 0) << report.report_id;
            EXPECT_TRUE(segment.at("code").is_string() && segment.at("name").is_string());
        }
        positive += segments.size();
    }
    EXPECT_GT(positive, 0u);
    {
        odb::transaction transaction(Db().begin());
        Db().execute("DROP TABLE funds_fidc_positive_segments");
        Db().execute("UPDATE schema_version SET version = 10 WHERE name = 'funds'");
        transaction.commit();
    }
    Db().schema_version_migration(10, false, "funds");  // the ingest read (and kept) version 11
    {
        odb::transaction transaction(Db().begin());
        odb::schema_catalog::migrate(Db(), 11, "funds");
        EXPECT_EQ(Db().schema_version("funds"), 11u);
        transaction.commit();
    }
    EXPECT_EQ(StoredPositiveSegments(Db()), ingested);

    IngestFidc(Db(), {WriteFidcMonthlyZip(Fresh(), StandardMonth("202401", FidcEra::kFundoClasse, {kAlfa}))});
    std::set<std::int64_t> with_table_ii;
    for (const FidcReportSegments& report : AllRows<FidcReportSegments>(Db())) {
        if (report.segments_json) {
            with_table_ii.insert(report.report_id);
        }
    }
    std::set<std::int64_t> stored;
    for (const auto& [report_id, text] : StoredPositiveSegments(Db())) {
        stored.insert(report_id);
    }
    EXPECT_EQ(stored, with_table_ii);  // Beta's went with its month
}

}  // namespace
}  // namespace lastro::funds::testing
