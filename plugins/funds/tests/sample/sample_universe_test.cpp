// The sample universe the funds writer publishes (<lastro/funds/sample_universe.hpp>) for the
// sample writers of the plugins that require funds: its funds are registro_fundo.csv as written,
// read back here the way a dependent used to read it (CVM's CSV reader on the zip), merged by
// CNPJ independently of the writer; its day is the zip members' day; its months are the FIDC
// reports'.
#include "sample/sample.hpp"

#include "sample_test_support.hpp"

#include <lastro/funds/sample_universe.hpp>
#include <lastro/sdk/cvm_csv.hpp>
#include <lastro/sdk/ingest/values.hpp>
#include <lastro/sdk/zip_archive.hpp>

#include <gtest/gtest.h>

#include <unistd.h>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace lastro::funds::sample {
namespace {

namespace fs = std::filesystem;

fs::path FreshDir(const std::string& name) {
    const fs::path dir =
        fs::temp_directory_path() / ("lastro-sample-universe-test-" + std::to_string(::getpid())) / name;
    fs::remove_all(dir);
    return dir;
}

struct Row {
    std::size_t line = 0;
    SampleFund fund;  // this row's own values
};

// The funds of the written registry zip: every row of registro_fundo.csv, by CNPJ; the current
// row (not cancelled, then the later Data_Registro, then the later line) gives what the live
// fund is, the oldest registration its name and day.
std::vector<SampleFund> ReadBack(const fs::path& zip_path, sdk::Date* day) {
    const sdk::ZipArchive zip(zip_path);
    sdk::CvmCsvReader reader(zip.Open("registro_fundo.csv"));
    const std::size_t cnpj = reader.Require("CNPJ_Fundo"), registered = reader.Require("Data_Registro"),
                      type = reader.Require("Tipo_Fundo"), name = reader.Require("Denominacao_Social"),
                      cancelled = reader.Require("Data_Cancelamento"),
                      adapted = reader.Require("Data_Adaptacao_RCVM175"),
                      administrator_cnpj = reader.Require("CNPJ_Administrador"),
                      administrator = reader.Require("Administrador"),
                      person_type = reader.Require("Tipo_Pessoa_Gestor"),
                      document = reader.Require("CPF_CNPJ_Gestor"), manager = reader.Require("Gestor");
    std::map<std::string, std::vector<Row>> by_cnpj;
    while (reader.Next()) {
        reader.RequireFieldCount();
        Row row;
        row.line = reader.Line();
        row.fund.cnpj = reader.Cnpj(cnpj).value_or("");
        row.fund.fund_type = reader.Text(type).value_or("");
        row.fund.name = reader.Text(name).value_or("");
        row.fund.registered = reader.DateValue(registered).value();
        row.fund.adapted = reader.DateValue(adapted);
        row.fund.cancelled = reader.DateValue(cancelled);
        row.fund.administrator_cnpj = reader.Text(administrator_cnpj).value_or("");
        row.fund.administrator = reader.Text(administrator).value_or("");
        row.fund.manager_person_type = reader.Text(person_type).value_or("");
        row.fund.manager_document = reader.Text(document).value_or("");
        row.fund.manager = reader.Text(manager).value_or("");
        by_cnpj[row.fund.cnpj].push_back(std::move(row));
    }
    auto rank = [](const Row& r) { return std::make_tuple(!r.fund.cancelled, r.fund.registered, r.line); };
    std::vector<SampleFund> funds;
    for (const auto& [key, rows] : by_cnpj) {
        const Row* current = &rows.front();
        const Row* oldest = &rows.front();
        for (const Row& row : rows) {
            current = rank(*current) < rank(row) ? &row : current;
            oldest = row.fund.registered < oldest->fund.registered ? &row : oldest;
        }
        SampleFund fund = current->fund;
        fund.name = oldest->fund.name;
        fund.registered = oldest->fund.registered;
        funds.push_back(std::move(fund));
    }
    *day = *sdk::Date::Parse(sdk::LocalDate(zip.ModifiedAt("registro_fundo.csv").value()));
    return funds;
}

void ExpectSameFunds(const std::vector<SampleFund>& published, const std::vector<SampleFund>& read) {
    ASSERT_EQ(published.size(), read.size());
    for (std::size_t i = 0; i < read.size(); ++i) {
        SCOPED_TRACE(read[i].cnpj);
        const SampleFund& a = published[i];
        const SampleFund& b = read[i];
        EXPECT_EQ(a.cnpj, b.cnpj);
        EXPECT_EQ(a.fund_type, b.fund_type);
        EXPECT_EQ(a.name, b.name);
        EXPECT_EQ(a.registered, b.registered);
        EXPECT_EQ(a.adapted, b.adapted);
        EXPECT_EQ(a.cancelled, b.cancelled);
        EXPECT_EQ(a.administrator_cnpj, b.administrator_cnpj);
        EXPECT_EQ(a.administrator, b.administrator);
        EXPECT_EQ(a.manager_person_type, b.manager_person_type);
        EXPECT_EQ(a.manager_document, b.manager_document);
        EXPECT_EQ(a.manager, b.manager);
    }
}

TEST(SampleUniverseTest, TheWriterPublishesTheRegistryItWroteItsDayAndTheReportsMonths) {
    const fs::path dir = FreshDir("default");
    const sdk::SampleReport report =
        FundsSampleWriter().Write({dir, kDefaultSeed, sdk::SampleScale::kSample});
    ASSERT_TRUE(report.universe);
    EXPECT_EQ(report.universe->Name(), "funds.sample");
    EXPECT_EQ(report.universe->Identity(), std::string(kFundsSampleUniverseIdentity));
    const auto* universe = dynamic_cast<const SampleUniverse*>(report.universe.get());
    ASSERT_NE(universe, nullptr);

    sdk::Date day;
    const std::vector<SampleFund> read = ReadBack(dir / "registro_fundo_classe.zip", &day);
    ExpectSameFunds(universe->funds, read);
    EXPECT_EQ(universe->funds.size(), testing::DefaultSample::Get().TheUniverse().funds.size())
        << "the superseded registration merges into its live fund";
    EXPECT_EQ(universe->reference_day, day);
    EXPECT_EQ(universe->reference_day, (sdk::Date{2026, 10, 14}));
    EXPECT_EQ(universe->first_report_month, (sdk::Month{2023, 9}));
    EXPECT_EQ(universe->last_report_month, (sdk::Month{2026, 8}));

    // A request reads it back as a dependent's writer does.
    sdk::SampleRequest request{dir, kDefaultSeed, sdk::SampleScale::kSample};
    request.universes.push_back(report.universe);
    EXPECT_EQ(&request.Get<SampleUniverse>(), universe);
    fs::remove_all(dir.parent_path());
}

TEST(SampleUniverseTest, TheReportsMonthsFollowTheRequestAndTheScale) {
    const fs::path dir = FreshDir("months");
    const WrittenSample four = WriteSample({dir, kDefaultSeed, sdk::SampleScale::kSample, 4});
    ASSERT_TRUE(four.universe);
    EXPECT_EQ(four.universe->first_report_month, (sdk::Month{2026, 5}));
    EXPECT_EQ(four.universe->last_report_month, (sdk::Month{2026, 8}));
    sdk::Date day;
    ExpectSameFunds(four.universe->funds, ReadBack(dir / "registro_fundo_classe.zip", &day));
    fs::remove_all(dir.parent_path());
}

}  // namespace
}  // namespace lastro::funds::sample
