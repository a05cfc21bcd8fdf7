// CRI/CRA: the readers of CVM's monthly certificate reports and public offerings on their published
// headers (../shared/datasets/real/cvm_headers/) and on bad lines; the ingesters and /v1/emissoes
// on a plugin database (SQLite, or PostgreSQL with LASTRO_TEST_BACKEND), fed the sample.
#include "domain/issuances/inf_mensal_reader.hpp"
#include "domain/issuances/issuance_rules.hpp"
#include "domain/issuances/oferta_reader.hpp"
#include "domain/registry/registry_rules.hpp"
#include "ingest/cad_cia_aberta/registry_ingester.hpp"
#include "ingest/inf_mensal/inf_mensal_ingester.hpp"
#include "ingest/oferta_distribuicao/oferta_ingester.hpp"
#include "sample/issuances_writer.hpp"
#include "sample/sample_writer.hpp"
#include "src/handlers.hpp"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/testing/byte_sources.hpp>
#include <lastro/sdk/testing/fake_host.hpp>
#include <lastro/sdk/testing/plugin_calls.hpp>
#include <lastro/sdk/testing/plugin_database.hpp>

#include <gtest/gtest.h>
#include <boost/json.hpp>
#include <odb/transaction.hxx>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace lastro::companies {
namespace {

namespace fs = std::filesystem;
using sdk::testing::Bytes;
using sdk::testing::CallHandler;
using sdk::testing::ErrorOf;
using sdk::testing::RunIngest;

constexpr std::time_t kFirstIngest = 1790000000;   // 2026-09-21
constexpr std::time_t kSecondIngest = 1790500000;  // 2026-09-27

std::string RealHeader(const std::string& name) {
    std::ifstream in(fs::path(LASTRO_SOURCE_DIR) / "../shared/datasets/real/cvm_headers" / name,
                     std::ios::binary);
    std::string text(std::istreambuf_iterator<char>(in), {});
    std::string line = text.substr(0, text.find('\n'));
    if (!line.empty() && line.back() == '\r') {
        line.pop_back();
    }
    return line;
}

// A line under `header` with the named fields set, the others blank, ending CRLF.
std::string LineOf(const std::string& header, const std::map<std::string, std::string>& fields) {
    std::string line;
    std::size_t start = 0;
    bool first = true;
    for (;;) {
        const std::size_t end = header.find(';', start);
        const std::string column =
            header.substr(start, end == std::string::npos ? std::string::npos : end - start);
        line += (first ? "" : ";") + (fields.count(column) ? fields.at(column) : std::string());
        first = false;
        if (end == std::string::npos) {
            break;
        }
        start = end + 1;
    }
    return line + "\r\n";
}

std::map<std::string, std::string> Report(const std::string& version,
                                          const std::string& reference = "2025-03-31") {
    return {{"CNPJ_Emissora", "12.345.678/0001-95"},
            {"Codigo_Identificacao_Certificado", "21L0823062"},
            {"Data_Referencia", reference},
            {"Versao", version},
            {"Data_Entrega", "2025-04-20"},
            {"Numero_Emissao", "4\xAA"},
            {"Nome_Emissao", "4\xAA Emiss\xE3o"},
            {"Quantidade_Series", "2"},
            {"Data_Emissao", "2021-12-15"},
            {"Companhia_Emissora", "Securitizadora S.A."},
            {"Patrimonio_Liquido_Emissao", "1500000.25"}};
}

TEST(IssuanceReadersTest, ReportsAreReadByHeaderNameAndBadLinesRejected) {
    const std::string header = RealHeader("inf_mensal_cri_geral_header.csv");
    auto bad = Report("1");
    bad["Data_Referencia"] = "31/03/2025";
    auto no_version = Report("");
    auto no_code = Report("1");
    no_code["Codigo_Identificacao_Certificado"] = " ";
    auto bad_money = Report("1");
    bad_money["Patrimonio_Liquido_Emissao"] = "1.500.000,25";
    const std::string file = header + "\r\n" + LineOf(header, Report("1")) + LineOf(header, bad) +
                             LineOf(header, no_version) + LineOf(header, no_code) +
                             LineOf(header, bad_money) + "a;b\r\n";
    ReportReader reader(Bytes(file, "inf_mensal_cri_geral_2025.csv", 7), CertificateKind::kCri);
    CertificateReport report;
    std::string problem;
    ASSERT_EQ(reader.Next(report, problem), ReadOutcome::kRow) << problem;
    EXPECT_EQ(report.issuer.cnpj, "12345678000195");
    EXPECT_EQ(report.code, "21L0823062");
    EXPECT_EQ(report.version, 1);
    EXPECT_EQ(report.emission_name, "4ª Emissão");  // Latin-1 decoded
    EXPECT_EQ(report.net_worth, "1500000.25");
    EXPECT_EQ(report.rating_agency, std::nullopt);  // blank stays null
    std::vector<std::string> problems;
    while (reader.Next(report, problem) == ReadOutcome::kRejected) {
        problems.push_back(problem);
    }
    ASSERT_EQ(problems.size(), 5u);
    EXPECT_NE(problems[0].find("Data_Referencia is not a YYYY-MM-DD date"), std::string::npos) << problems[0];
    EXPECT_NE(problems[1].find("Versao is empty"), std::string::npos) << problems[1];
    EXPECT_NE(problems[2].find("Codigo_Identificacao_Certificado is empty"), std::string::npos)
        << problems[2];
    EXPECT_NE(problems[3].find("Patrimonio_Liquido_Emissao is not a number"), std::string::npos)
        << problems[3];
    EXPECT_NE(problems[4].find("expected 44 fields, found 2"), std::string::npos) << problems[4];

    // The CRA layout names the segment Tipo_Segmento; a CRI header read as CRA lacks it.
    EXPECT_NE(ErrorOf([&] {
                  ReportReader(Bytes(header + "\r\n", "x.csv"), CertificateKind::kCra);
              }).find("x.csv:1: missing column Tipo_Segmento"),
              std::string::npos);
    std::string renamed = header;
    renamed.replace(renamed.find("Versao"), 6, "Version");
    EXPECT_NE(ErrorOf([&] {
                  ReportReader(Bytes(renamed + "\r\n", "x.csv"), CertificateKind::kCri);
              }).find("missing column Versao"),
              std::string::npos);
    std::string commas = header;
    std::replace(commas.begin(), commas.end(), ';', ',');
    EXPECT_NE(ErrorOf([&] {
                  ReportReader(Bytes(commas + "\r\n", "x.csv"), CertificateKind::kCri);
              }).find("x.csv:1"),
              std::string::npos);
}

TEST(IssuanceReadersTest, SeriesOfBothLayouts) {
    for (const CertificateKind kind : {CertificateKind::kCri, CertificateKind::kCra}) {
        const std::string header =
            RealHeader(kind == CertificateKind::kCri ? "inf_mensal_cri_classe_header.csv"
                                                     : "inf_mensal_cra_classe_header.csv");
        std::map<std::string, std::string> fields{{"CNPJ_Emissora", "12345678000195"},
                                                  {"Codigo_Identificacao_Certificado", "21L0823062"},
                                                  {"Data_Referencia", "2025-03-31"},
                                                  {"Versao", "2"},
                                                  {"Classe", "S\xEAnior"},
                                                  {"Codigo_CETIP", "21L0823063"},
                                                  {"Codigo_ISIN", "BRRBRACRI0A1"},
                                                  {"Data_Vencimento", "2031-12-15"},
                                                  {"Taxa_Juros", "IPCA + 6,50% a.a."},
                                                  {"Quantidade_Certificados", "1000"}};
        fields[kind == CertificateKind::kCri ? "Total_Integralizado" : "Valor_Total_Integralizado"] =
            "1000000.00";
        auto bad = fields;
        bad["Data_Vencimento"] = "2031-02-30";
        SeriesReader reader(Bytes(header + "\r\n" + LineOf(header, fields) + LineOf(header, bad), "c.csv", 5),
                            kind);
        CertificateSeries series;
        std::string problem;
        ASSERT_EQ(reader.Next(series, problem), ReadOutcome::kRow) << problem;
        EXPECT_EQ(series.class_name, "Sênior");
        EXPECT_EQ(series.maturity, "2031-12-15");
        EXPECT_EQ(series.rate, "IPCA + 6,50% a.a.");
        EXPECT_EQ(series.paid_in, "1000000.00");
        EXPECT_EQ(series.unit_value, std::nullopt);
        ASSERT_EQ(reader.Next(series, problem), ReadOutcome::kRejected);
        EXPECT_NE(problem.find("Data_Vencimento"), std::string::npos) << problem;
        EXPECT_EQ(reader.Next(series, problem), ReadOutcome::kEnd);
    }
}

TEST(IssuanceReadersTest, OfferingsOfBothRegimesAndBothDateFormats) {
    const std::string legacy = RealHeader("oferta_distribuicao_header.csv");
    const std::string file = legacy + "\r\n" +
                             LineOf(legacy, {{"Numero_Processo", "RJ-2021-1"},
                                             {"Tipo_Ativo", "Deb\xEAntures"},
                                             {"Data_Registro_Oferta", "x"}}) +
                             LineOf(legacy, {{"Numero_Processo", "RJ-2021-2"},
                                             {"Tipo_Ativo", "Certificados de Receb\xEDveis Imobili\xE1rios"},
                                             {"CNPJ_Emissor", "12.345.678/0001-95"},
                                             {"Emissao", "4"},
                                             {"Serie", "1"},
                                             {"Data_Registro_Oferta", "2021-12-10"},
                                             {"Data_Emissao", "15/12/2021"},
                                             {"Valor_Total", "1000000,50"}}) +
                             LineOf(legacy, {{"Numero_Processo", "RJ-2021-3"},
                                             {"Tipo_Ativo", "CRA"},
                                             {"Data_Registro_Oferta", "2021-13-01"}});
    OfferingReader reader(Bytes(file, "oferta_distribuicao.csv", 9), OfferingRegime::kLegacy);
    OfferingRecord o;
    std::string problem;
    ASSERT_EQ(reader.Next(o, problem), ReadOutcome::kRow) << problem;
    EXPECT_EQ(o.line, 3u);
    EXPECT_EQ(o.kind, CertificateKind::kCri);
    EXPECT_EQ(o.issuer.cnpj, "12345678000195");
    EXPECT_EQ(o.registered_at, "2021-12-10");
    EXPECT_EQ(o.issued_at, "2021-12-15");  // DD/MM/YYYY read
    EXPECT_EQ(o.value_total, "1000000.50");
    EXPECT_EQ(o.key, "RJ-2021-2||4|1");
    ASSERT_EQ(reader.Next(o, problem), ReadOutcome::kRejected);
    EXPECT_EQ(o.line, 4u);
    EXPECT_NE(problem.find("Data_Registro_Oferta is not a date (YYYY-MM-DD or DD/MM/YYYY): '2021-13-01'"),
              std::string::npos)
        << problem;
    EXPECT_EQ(reader.Next(o, problem), ReadOutcome::kEnd);
    EXPECT_EQ(reader.OtherRows(), 1u);  // the debentures, whose bad date is never read

    const std::string rcvm = RealHeader("oferta_resolucao_160_header.csv");
    OfferingReader recent(Bytes(rcvm + "\r\n" +
                                    LineOf(rcvm, {{"Numero_Requerimento", "123"},
                                                  {"Valor_Mobiliario",
                                                   "Certificados de Receb\xEDveis do Agroneg\xF3"
                                                   "cio"},
                                                  {"CNPJ_Emissor", "0"},
                                                  {"Data_Registro", "2024-05-02"},
                                                  {"Data_deliberacao_aprovou_oferta", "15/04/2024"}}) +
                                    LineOf(rcvm, {{"Valor_Mobiliario", "CRI"}}),
                                "oferta_resolucao_160.csv"),
                          OfferingRegime::kRcvm160);
    ASSERT_EQ(recent.Next(o, problem), ReadOutcome::kRow) << problem;
    EXPECT_EQ(o.kind, CertificateKind::kCra);
    EXPECT_EQ(o.approved_at, "2024-04-15");
    EXPECT_EQ(o.issuer.kind, sdk::DocumentKind::kPlaceholder);
    EXPECT_EQ(o.issuer.cnpj, std::nullopt);
    ASSERT_EQ(recent.Next(o, problem), ReadOutcome::kRejected);
    EXPECT_NE(problem.find("Numero_Requerimento is empty"), std::string::npos) << problem;
    EXPECT_NE(ErrorOf([&] {
                  OfferingReader(Bytes(legacy + "\r\n", "o.csv"), OfferingRegime::kRcvm160);
              }).find("o.csv:1: missing columns"),
              std::string::npos);
}

TEST(IssuanceRulesTest, EmissionNumbersKindsAndTheHighestVersion) {
    EXPECT_EQ(EmissionKey(std::string("004")), "4");
    EXPECT_EQ(EmissionKey(std::string("12ª")), "12");
    EXPECT_EQ(EmissionKey(std::string("1a Emissão")), "1");
    EXPECT_EQ(EmissionKey(std::string("1/2")), std::nullopt);
    EXPECT_EQ(EmissionKey(std::string("única")), std::nullopt);
    EXPECT_EQ(KindOfAsset("CERTIFICADOS DE RECEBIVEIS IMOBILIARIOS"), CertificateKind::kCri);
    EXPECT_EQ(KindOfAsset("Certificados de Recebíveis do Agronegócio"), CertificateKind::kCra);
    EXPECT_EQ(KindOfAsset("Outros títulos de securitização"), std::nullopt);
    EXPECT_EQ(DecimalJson("007.50"), "7.50");
    EXPECT_EQ(DecimalJson("-00.1"), "-0.1");
    EXPECT_EQ(DecimalJson("0"), "0");
    CertificateReport one;
    one.reference_date = "2025-03-31";
    one.version = 2;
    one.line = 10;
    CertificateReport two = one;
    two.version = 1;
    two.line = 20;
    EXPECT_FALSE(ReportWins(two, one));  // a lower version, even later in the file
    two.version = 2;
    EXPECT_TRUE(ReportWins(two, one));  // the same version: the later line
}

class IssuancesDatabase : public sdk::testing::PluginDatabase {
public:
    IssuancesDatabase() : PluginDatabase("companies") {
        for (std::string_view dataset :
             {kInfMensalCriDataset, kInfMensalCraDataset, kOfertaDataset, kRegistryDataset}) {
            host_.SetRelease(std::string(dataset), "r");
        }
        CompaniesSampleWriter writer;
        writer.Write({Subdir("sample"), sdk::kDefaultSampleSeed, sdk::SampleScale::kSample});
    }
    fs::path Sample(const std::string& name) { return Subdir("sample") / name; }

    sdk::IngestSummary Reports(CertificateKind kind, std::time_t now = kFirstIngest) {
        InfMensalIngester ingester(kind);
        const std::string prefix = kind == CertificateKind::kCri ? "inf_mensal_cri_" : "inf_mensal_cra_";
        return RunIngest(ingester, Db(), std::string(ReportDataset(kind)),
                         {Sample(prefix + "2025.zip"), Sample(prefix + "2026.zip")}, now);
    }
    sdk::IngestSummary Offerings(const std::vector<fs::path>& files, std::time_t now = kFirstIngest) {
        OfertaIngester ingester;
        return RunIngest(ingester, Db(), std::string(kOfertaDataset), files, now);
    }
    void IngestAll() {
        RegistryIngester registry;
        RunIngest(registry, Db(), std::string(kRegistryDataset), {Sample("cad_cia_aberta.csv")},
                  kFirstIngest);
        Reports(CertificateKind::kCri);
        Reports(CertificateKind::kCra);
        Offerings({Sample("oferta_distribuicao.zip")});
    }
    std::string One(const std::string& query) {
        odb::transaction transaction(Db().begin());
        const sdk::SqlRows rows = sdk::SqlSession(Db()).Query(query);
        transaction.commit();
        return rows.at(0).at(0).value_or("NULL");
    }
    sdk::Result Issuances(const sdk::Params& params,
                          const std::optional<boost::json::value>& cursor = std::nullopt) {
        return CallHandler(&HandleIssuances, Db(), params, host_, cursor);
    }
    // Every row of every page of `params` at pages of `limit`.
    std::vector<boost::json::object> All(sdk::Params params, std::int64_t limit) {
        std::vector<boost::json::object> rows;
        std::optional<boost::json::value> cursor;
        params.Set("limit", limit);
        do {
            const sdk::Result page = Issuances(params, cursor);
            for (const auto& item : page.data.as_array()) {
                rows.push_back(item.as_object());
            }
            cursor = page.meta.next_position;
        } while (cursor);
        return rows;
    }

private:
    sdk::testing::FakeHost host_;
};

std::string Str(const boost::json::object& o, std::string_view key) {
    return o.at(key).is_null() ? "null" : std::string(o.at(key).as_string());
}

const boost::json::object* Find(const std::vector<boost::json::object>& rows, const std::string& code) {
    for (const auto& row : rows) {
        if (Str(row, "code") == code) {
            return &row;
        }
    }
    return nullptr;
}

// The sample's planted cases, drawn again from the same seed.
IssuanceCases Cases() {
    sdk::sample::SampleDirectory scratch(fs::temp_directory_path() / "lastro-issuances-cases", 0);
    const CompanyUniverse universe = DrawCompanyUniverse(sdk::kDefaultSampleSeed, sdk::SampleScale::kSample);
    IssuanceCases cases =
        WriteIssuancesSample(scratch, universe, sdk::kDefaultSampleSeed, sdk::SampleScale::kSample).cases;
    fs::remove_all(fs::temp_directory_path() / "lastro-issuances-cases");
    return cases;
}

TEST(IssuancesIngestTest, YearsAreReplacedAsDiffsAndTheHighestVersionKept) {
    IssuancesDatabase db;
    const IssuanceCases cases = Cases();
    const sdk::IngestSummary cri = db.Reports(CertificateKind::kCri);
    EXPECT_EQ(cri.rejected, 0u) << (cri.rejections.empty() ? "" : cri.rejections[0]);
    ASSERT_EQ(cri.periods, (std::vector<std::string>{"2025", "2026"}));
    bool named_version = false;
    for (const std::string& message : cri.rejections) {
        named_version |=
            message.find(cases.reissued_code + " of 2026-08 (Versao 1) is superseded") != std::string::npos;
    }
    EXPECT_TRUE(named_version);
    const std::string reissued =
        "FROM companies_certificate_report r JOIN companies_certificate c ON c.id = r.certificate_id WHERE "
        "c.code = '" +
        cases.reissued_code + "' AND r.month = '2026-08'";
    EXPECT_EQ(db.One("SELECT r.version " + reissued), "2");
    EXPECT_EQ(db.One("SELECT r.versions_published " + reissued), "2");
    EXPECT_EQ(db.One("SELECT count(*) FROM companies_certificate_report WHERE kind = 'CRI'"),
              std::to_string(cri.inserted));
    EXPECT_EQ(
        db.One("SELECT latest_month FROM companies_certificate WHERE code = '" + cases.ended_code + "'"),
        "2026-03");

    // Both years again: nothing changes.
    const sdk::IngestSummary again = db.Reports(CertificateKind::kCri, kSecondIngest);
    EXPECT_EQ(again.inserted + again.updated + again.removed, 0u);
    EXPECT_EQ(again.unchanged, cri.inserted);

    const sdk::IngestSummary cra = db.Reports(CertificateKind::kCra);
    EXPECT_GT(cra.inserted, 0u);
    EXPECT_EQ(
        db.One("SELECT issuer_cnpj_kind FROM companies_certificate WHERE code = '" + cases.dirty_code + "'"),
        "placeholder");
    EXPECT_EQ(db.One("SELECT count(*) FROM companies_certificate WHERE issuer_cnpj IS NULL AND kind = 'CRA'"),
              "1");
}

TEST(IssuancesIngestTest, ABrokenFileWritesNothing) {
    IssuancesDatabase db;
    // A truncated zip.
    const fs::path zip = db.Subdir("in") / "inf_mensal_cri_2025.zip";
    {
        std::ifstream in(db.Sample("inf_mensal_cri_2025.zip"), std::ios::binary);
        const std::string bytes(std::istreambuf_iterator<char>(in), {});
        std::ofstream(zip, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
    }
    InfMensalIngester ingester(CertificateKind::kCri);
    EXPECT_ANY_THROW(RunIngest(ingester, db.Db(), std::string(kInfMensalCriDataset), {zip}, kFirstIngest));
    EXPECT_EQ(db.One("SELECT count(*) FROM companies_certificate_report"), "0");

    // An offering with a date in neither format refuses the snapshot, naming file, line and column.
    const std::string header = RealHeader("oferta_resolucao_160_header.csv");
    const fs::path legacy = db.Subdir("in") / "oferta_distribuicao.csv";
    std::ofstream(legacy, std::ios::binary) << RealHeader("oferta_distribuicao_header.csv") << "\r\n";
    const fs::path rcvm = db.Subdir("in") / "oferta_resolucao_160.csv";
    std::ofstream(rcvm, std::ios::binary)
        << header << "\r\n"
        << LineOf(
               header,
               {{"Numero_Requerimento", "1"}, {"Valor_Mobiliario", "CRI"}, {"Data_Registro", "2024-05-02"}})
        << LineOf(
               header,
               {{"Numero_Requerimento", "2"}, {"Valor_Mobiliario", "CRA"}, {"Data_Registro", "2024/05/02"}});
    try {
        db.Offerings({legacy, rcvm});
        ADD_FAILURE() << "accepted";
    } catch (const sdk::IngestError& error) {
        EXPECT_NE(std::string(error.what()).find("oferta_resolucao_160.csv:3: Data_Registro is not a date"),
                  std::string::npos)
            << error.what();
    }
    EXPECT_EQ(db.One("SELECT count(*) FROM companies_offering"), "0");
    // A member missing.
    EXPECT_NE(ErrorOf([&] { db.Offerings({legacy}); }).find("oferta_resolucao_160.csv"), std::string::npos);
}

TEST(IssuancesTest, RowsJoinTheReportsTheRegistryAndTheOfferings) {
    IssuancesDatabase db;
    db.IngestAll();
    const IssuanceCases cases = Cases();

    // By default each certificate's latest month.
    const std::vector<boost::json::object> all = db.All({}, 500);
    ASSERT_FALSE(all.empty());
    const boost::json::object* ended = Find(all, cases.ended_code);
    ASSERT_NE(ended, nullptr);
    EXPECT_EQ(Str(*ended, "month"), "2026-03");
    EXPECT_EQ(Str(*ended, "latest_month"), "2026-03");

    // The shared securitizer: a CRI and a CRA, its registry name, offerings of both regimes.
    sdk::Params by_cnpj;
    by_cnpj.Set("cnpj", cases.shared_securitizer_cnpj);
    const std::vector<boost::json::object> shared = db.All(by_cnpj, 500);
    std::set<std::string> kinds;
    bool both_regimes = false;
    for (const auto& row : shared) {
        kinds.insert(Str(row, "tipo"));
        const auto& securitizer = row.at("securitizer").as_object();
        EXPECT_EQ(Str(securitizer, "name_source"), "registry");
        EXPECT_NE(Str(securitizer, "name").find("Securitizadora"), std::string::npos);
        std::set<std::string> regimes;
        for (const auto& offering : row.at("offerings").as_array()) {
            regimes.insert(Str(offering.as_object(), "regime"));
            EXPECT_EQ(Str(offering.as_object(), "issuer_cnpj"), cases.shared_securitizer_cnpj);
        }
        both_regimes |= regimes.size() == 2;
        const auto& sources = row.at("sources").as_array();
        EXPECT_EQ(sources.front().as_string(),
                  Str(row, "tipo") == "CRI" ? "cvm.inf_mensal_cri" : "cvm.inf_mensal_cra");
    }
    EXPECT_EQ(kinds, (std::set<std::string>{"CRI", "CRA"}));
    EXPECT_TRUE(both_regimes);

    // The re-reported month shows Versao 2; a month asked is never swapped.
    sdk::Params august;
    august.Set("month", sdk::Month{2026, 8});
    august.Set("tipo", std::string("CRI"));
    const std::vector<boost::json::object> in_august = db.All(august, 3);
    const boost::json::object* reissued = Find(in_august, cases.reissued_code);
    ASSERT_NE(reissued, nullptr);
    EXPECT_EQ(reissued->at("version").as_int64(), 2);
    EXPECT_EQ(reissued->at("versions_published").as_int64(), 2);
    for (const auto& row : in_august) {
        EXPECT_EQ(Str(row, "month"), "2026-08");
        EXPECT_EQ(Str(row, "tipo"), "CRI");
    }
    EXPECT_EQ(Find(in_august, cases.ended_code), nullptr);  // its last report is March's

    // The dirty CNPJ cell and the unlisted securitizer.
    const boost::json::object* dirty = Find(all, cases.dirty_code);
    ASSERT_NE(dirty, nullptr);
    EXPECT_TRUE(dirty->at("issuer_cnpj").is_null());
    EXPECT_EQ(Str(*dirty, "issuer_cnpj_kind"), "placeholder");
    EXPECT_EQ(Str(dirty->at("securitizer").as_object(), "name_source"), "report");
    sdk::Params unlisted;
    unlisted.Set("cnpj", cases.unlisted_cnpj);
    for (const auto& row : db.All(unlisted, 50)) {
        EXPECT_EQ(Str(row.at("securitizer").as_object(), "name_source"), "report");
        EXPECT_TRUE(row.at("securitizer").as_object().at("cvm_code").is_null());
    }

    // q: accents and case ignored, over the emission's name and the registry's name.
    sdk::Params q;
    q.Set("q", std::string("LOTEAMENTO auróra"));
    const std::vector<boost::json::object> found = db.All(q, 50);
    ASSERT_FALSE(found.empty());
    for (const auto& row : found) {
        EXPECT_NE(Str(row, "emission_name").find("Loteamento Aurora"), std::string::npos);
    }
    const std::string registry_name =
        Str(shared.front().at("securitizer").as_object(), "name").substr(0, 10);  // e.g. "Cerrado Co"
    sdk::Params by_name;
    by_name.Set("q", registry_name);
    // The securitizer's certificates, and any whose report names it under a cell that is no CNPJ.
    std::size_t by_cnpj_found = 0;
    for (const auto& row : db.All(by_name, 50)) {
        const auto& securitizer = row.at("securitizer").as_object();
        if (Str(row, "issuer_cnpj") == cases.shared_securitizer_cnpj) {
            ++by_cnpj_found;
        } else {
            EXPECT_NE(Str(securitizer, "report_name").find(registry_name), std::string::npos);
        }
    }
    EXPECT_EQ(by_cnpj_found, shared.size());

    // Pages of 2 walk the same rows as one page.
    const std::vector<boost::json::object> paged = db.All({}, 2);
    ASSERT_EQ(paged.size(), all.size());
    for (std::size_t i = 0; i < all.size(); ++i) {
        EXPECT_EQ(Str(paged[i], "code"), Str(all[i], "code"));
    }

    // A month without reports is a 404 naming month and the months covered.
    sdk::Params later;
    later.Set("month", sdk::Month{2027, 1});
    try {
        db.Issuances(later);
        ADD_FAILURE() << "no 404";
    } catch (const sdk::NotFound& error) {
        EXPECT_EQ(error.Parameter(), "month");
        EXPECT_NE(std::string(error.what()).find("2025-01..2026-09"), std::string::npos) << error.what();
    }
    const sdk::Result page = db.Issuances({});
    const auto& coverage = page.meta.extra.at("coverage").as_object();
    EXPECT_EQ(coverage.at("sources").as_array()[0].as_object().at("last_month").as_string(), "2026-09");
}

TEST(IssuancesIngestTest, TheOfferingSnapshotIsADiff) {
    IssuancesDatabase db;
    const sdk::IngestSummary first = db.Offerings({db.Sample("oferta_distribuicao.zip")});
    EXPECT_GT(first.inserted, 2u);
    EXPECT_EQ(db.One("SELECT count(*) FROM companies_offering WHERE issuer_cnpj IS NULL"), "1");  // the CPF
    EXPECT_EQ(db.One("SELECT count(*) FROM companies_offering"), std::to_string(first.inserted));
    const sdk::IngestSummary again = db.Offerings({db.Sample("oferta_distribuicao.zip")}, kSecondIngest);
    EXPECT_EQ(again.inserted + again.updated + again.removed, 0u);
    EXPECT_EQ(again.unchanged, first.inserted);
}

}  // namespace
}  // namespace lastro::companies
