// The companies plugin end to end (docs/testing.md): a real lastrod loading the plugin alone (it
// requires none) on SQLite and PostgreSQL. CompaniesTest serves the sample (`lastro ingest --sample` applies
// both registry snapshots, oldest first); RealRegistryTest ingests CVM's real extract in shared unchanged.
// What the answers should hold is read here from the files themselves, with this file's own reader: never
// through the plugin's code.
#include "cvm_files.hpp"

#include <lastro/sdk/testing/backend_fixture.hpp>
#include <lastro/sdk/testing/checks.hpp>
#include <lastro/sdk/zip_archive.hpp>

#include <boost/json.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace lastro::companies::e2e {
namespace {

using namespace ::lastro::sdk::testing;

class CompaniesTest : public BackendTest<CompaniesTest> {
public:
    static constexpr const char* kLabel = "companies";
    static DeploymentOptions Options() { return {.plugin_dirs = {LASTRO_COMPANIES_ALONE_DIR}}; }
};
INSTANTIATE_TEST_SUITE_P(Sqlite, CompaniesTest, ::testing::Values(Backend::kSqlite), BackendParamName);
INSTANTIATE_TEST_SUITE_P(Postgres, CompaniesTest, ::testing::Values(Backend::kPostgres), BackendParamName);

class RealRegistryTest : public BackendTest<RealRegistryTest> {
public:
    static constexpr const char* kLabel = "companies-real";
    static DeploymentOptions Options() {
        return {.plugin_dirs = {LASTRO_PLUGIN_DIR}, .ingest_sample = false};
    }
};
INSTANTIATE_TEST_SUITE_P(Sqlite, RealRegistryTest, ::testing::Values(Backend::kSqlite), BackendParamName);
INSTANTIATE_TEST_SUITE_P(Postgres, RealRegistryTest, ::testing::Values(Backend::kPostgres), BackendParamName);

const std::filesystem::path kRealExtract =
    std::filesystem::path(LASTRO_SOURCE_DIR) /
    "../shared/datasets/real/cvm_companies/cad_cia_aberta_2021-06_first60.csv";

std::optional<std::string> Blank(const std::string& field) {
    return field.empty() ? std::nullopt : std::optional<std::string>(field);
}

std::optional<std::string> Text(const boost::json::object& item, std::string_view key) {
    const boost::json::value& value = item.at(key);
    return value.is_null() ? std::nullopt : std::optional<std::string>(std::string(value.as_string()));
}

std::map<std::int64_t, boost::json::object> ByCode(const std::vector<boost::json::object>& items) {
    std::map<std::int64_t, boost::json::object> by_code;
    for (const boost::json::object& item : items) {
        by_code[item.at("cvm_code").as_int64()] = item;
    }
    return by_code;
}

// Every row of a registry file against its company's answer: the published fields, one row per
// CVM code, the CEP's zeros restored.
void ExpectServedAsPublished(const std::vector<FileRow>& rows,
                             const std::map<std::int64_t, boost::json::object>& served) {
    std::set<std::int64_t> codes;
    for (const FileRow& row : rows) {
        const std::int64_t code = std::stoll(row.at("CD_CVM"));
        codes.insert(code);
        SCOPED_TRACE("CD_CVM " + row.at("CD_CVM"));
        ASSERT_TRUE(served.count(code));
        const boost::json::object& item = served.at(code);
        EXPECT_EQ(Text(item, "cnpj"), Digits(row.at("CNPJ_CIA")));
        EXPECT_EQ(Text(item, "cnpj_published"), row.at("CNPJ_CIA"));
        EXPECT_EQ(Text(item, "legal_name"), Blank(row.at("DENOM_SOCIAL")));
        EXPECT_EQ(Text(item, "trade_name"), Blank(row.at("DENOM_COMERC")));
        EXPECT_EQ(Text(item, "registered_at"), Blank(row.at("DT_REG")));
        EXPECT_EQ(Text(item, "cancelled_at"), Blank(row.at("DT_CANCEL")));
        EXPECT_EQ(Text(item, "situation"), Blank(row.at("SIT")));
        EXPECT_EQ(Text(item, "situation_since"), Blank(row.at("DT_INI_SIT")));
        EXPECT_EQ(Text(item, "sector"), Blank(row.at("SETOR_ATIV")));
        EXPECT_EQ(Text(item, "market"), Blank(row.at("TP_MERC")));
        EXPECT_EQ(Text(item, "category"), Blank(row.at("CATEG_REG")));
        EXPECT_EQ(Text(item, "control"), Blank(row.at("CONTROLE_ACIONARIO")));
        const boost::json::object& address = item.at("address").as_object();
        EXPECT_EQ(Text(address, "postal_code_published"), Blank(row.at("CEP")));
        if (!row.at("CEP").empty()) {
            const std::string cep = row.at("CEP");
            EXPECT_EQ(Text(address, "postal_code"), std::string(8 - cep.size(), '0') + cep);
        }
        EXPECT_EQ(Text(item.at("auditor").as_object(), "name"), Blank(row.at("AUDITOR")));
    }
    EXPECT_EQ(codes.size(), served.size());
}

// ---- The sample

TEST_P(CompaniesTest, EveryCompanyOfTheCurrentSnapshotIsServedAsPublished) {
    const std::vector<FileRow> rows = ReadCvmCsv(D().SampleDir() / "cad_cia_aberta.csv");
    const auto served = ByCode(D().AllItems("/v1/companhias", "", 500));
    ExpectServedAsPublished(rows, served);
    EXPECT_LT(served.size(), rows.size());  // one company is listed twice: served once
}

TEST_P(CompaniesTest, TheCompanyTheCurrentSnapshotCancelsKeepsBothSituations) {
    // The earlier snapshot's ATIVO rows that the current one lists as CANCELADA.
    std::map<std::string, FileRow> earlier;
    for (const FileRow& row : ReadCvmCsv(D().SampleDir() / "cad_cia_aberta_2026-07-31.csv")) {
        earlier[row.at("CD_CVM")] = row;
    }
    std::string cancelled;
    for (const FileRow& row : ReadCvmCsv(D().SampleDir() / "cad_cia_aberta.csv")) {
        if (earlier.count(row.at("CD_CVM")) && earlier[row.at("CD_CVM")].at("SIT") == "ATIVO" &&
            row.at("SIT") == "CANCELADA") {
            cancelled = row.at("CD_CVM");
        }
    }
    ASSERT_FALSE(cancelled.empty());
    const auto served =
        ByCode(D().AllItems("/v1/companhias", "situation=cancelada&cancelled_from=2026-08-01"));
    ASSERT_EQ(served.size(), 1u);
    const boost::json::object& item = served.begin()->second;
    EXPECT_EQ(std::to_string(item.at("cvm_code").as_int64()), cancelled);
    const boost::json::array& history = item.at("situation_history").as_array();
    ASSERT_EQ(history.size(), 2u) << boost::json::serialize(history);
    EXPECT_EQ(Str(AsObject(history[0]), "situation"), "ATIVO");
    EXPECT_EQ(Str(AsObject(history[0]), "since"), earlier[cancelled].at("DT_INI_SIT"));
    EXPECT_EQ(Str(AsObject(history[1]), "situation"), "CANCELADA");
    EXPECT_TRUE(IsIsoDate(Str(AsObject(history[1]), "first_seen_at")));
}

TEST_P(CompaniesTest, SearchIgnoresAccentsAndACnpjFindsEveryCode) {
    const std::string key = D().RoomyKey();
    HttpResponse r = D().Get("/v1/companhias?q=" + UrlEncode("SIDERÚRGICA acao"), key);
    ASSERT_EQ(r.status, 200) << r.Describe();
    const boost::json::object body = AsObject(r.Json());
    ASSERT_EQ(body.at("data").as_array().size(), 1u) << r.Describe();
    EXPECT_EQ(Str(AsObject(body.at("data").as_array()[0]), "legal_name"),
              "Companhia Siderúrgica Ação Paulista S.A.");
    const boost::json::object& meta = AsObject(body.at("meta"));
    ASSERT_TRUE(meta.contains("field_sources")) << r.Describe();
    EXPECT_EQ(Str(AsObject(meta.at("field_sources")), "cvm_code"), "cad_cia_aberta.CD_CVM") << r.Describe();
    EXPECT_TRUE(r.Has("X-Credits-Charged")) << r.Describe();

    // The CNPJ listed under two codes in the file, asked with its punctuation.
    std::map<std::string, std::set<std::string>> codes_of;
    for (const FileRow& row : ReadCvmCsv(D().SampleDir() / "cad_cia_aberta.csv")) {
        codes_of[row.at("CNPJ_CIA")].insert(row.at("CD_CVM"));
    }
    std::string masked;
    for (const auto& [cnpj, codes] : codes_of) {
        if (codes.size() == 2) {
            masked = cnpj;
        }
    }
    ASSERT_FALSE(masked.empty());
    r = D().Get("/v1/companhias?cnpj=" + UrlEncode(masked), key);
    ASSERT_EQ(r.status, 200) << r.Describe();
    std::set<std::string> served;
    const boost::json::value by_cnpj = r.Json();
    for (const auto& item : AsObject(by_cnpj).at("data").as_array()) {
        served.insert(std::to_string(item.at("cvm_code").as_int64()));
    }
    EXPECT_EQ(served, codes_of[masked]);
}

TEST_P(CompaniesTest, BadParametersAreProblemsNamingThem) {
    const std::string key = D().RoomyKey();
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"/v1/companhias?cnpj=123", "cnpj"},
        {"/v1/companhias?limit=0", "limit"},
        {"/v1/companhias?limit=501", "limit"},
        {"/v1/companhias?registered_from=2026-13-01", "registered_from"},
        {"/v1/companhias?cursor=nonsense", "cursor"},
        {"/v1/companhias?q=" + std::string(101, 'a'), "q"},
    };
    for (const auto& [target, parameter] : cases) {
        SCOPED_TRACE(target);
        HttpResponse r = D().Get(target, key);
        EXPECT_GE(r.status, 400) << r.Describe();
        EXPECT_LT(r.status, 500) << r.Describe();
        EXPECT_TRUE(IsProblem(r, r.status, kBaseUrl, "/v1/companhias", parameter)) << r.Describe();
    }
}

// The sample's IPE index of `year`.
std::vector<FileRow> SampleIpeRows(Deployment& d, const std::string& year) {
    return ReadZipMember(d.SampleDir() / ("ipe_cia_aberta_" + year + ".zip"),
                         "ipe_cia_aberta_" + year + ".csv");
}

// The sample's IPE lines of a company, both years: protocol/version -> the line's fields.
std::map<std::string, FileRow> SampleDeliveries(Deployment& d, const std::string& cvm_code) {
    std::map<std::string, FileRow> deliveries;
    for (const std::string year : {"2025", "2026"}) {
        for (const FileRow& row : SampleIpeRows(d, year)) {
            if (row.at("Codigo_CVM") == cvm_code) {
                deliveries[row.at("Protocolo_Entrega") + "/" + row.at("Versao")] = row;
            }
        }
    }
    return deliveries;
}

TEST_P(CompaniesTest, ACompanysDocumentsAreTheIndexsLinesLatestVersionFirst) {
    // The company with a re-delivered material fact: the one whose Versao 2 is in the 2026 file.
    std::string code;
    for (const FileRow& row : SampleIpeRows(D(), "2026")) {
        if (row.at("Versao") == "2") {
            code = row.at("Codigo_CVM");
        }
    }
    ASSERT_FALSE(code.empty());
    const std::map<std::string, FileRow> expected = SampleDeliveries(D(), code);
    const std::vector<boost::json::object> all =
        D().AllItems("/v1/companhias/" + code + "/documentos", "kind=ipe&versions=all", 3);
    ASSERT_EQ(all.size(), expected.size());
    std::string previous = "9999-99-99";
    for (const boost::json::object& item : all) {
        const std::string key = Str(item, "protocol") + "/" + std::to_string(item.at("version").as_int64());
        SCOPED_TRACE(key);
        ASSERT_TRUE(expected.count(key));
        const FileRow& row = expected.at(key);
        EXPECT_EQ(Text(item, "delivered_at"), Blank(row.at("Data_Entrega")));
        EXPECT_EQ(Text(item, "reference_date"), Blank(row.at("Data_Referencia")));
        EXPECT_EQ(Text(item, "category"), Blank(row.at("Categoria")));
        EXPECT_EQ(Text(item, "presentation"), Blank(row.at("Tipo_Apresentacao")));
        EXPECT_EQ(Text(item, "link"), Blank(row.at("Link_Download")));
        EXPECT_LE(Str(item, "delivered_at"), previous);
        previous = Str(item, "delivered_at");
    }
    const std::vector<boost::json::object> latest =
        D().AllItems("/v1/companhias/" + code + "/documentos", "kind=ipe", 500);
    EXPECT_EQ(latest.size(), expected.size() - 1);  // version 1 of the re-delivered fact left out

    const std::string key = D().RoomyKey();
    HttpResponse unknown = D().Get("/v1/companhias/99999990/documentos", key);
    EXPECT_TRUE(IsProblem(unknown, 404, kBaseUrl, "/v1/companhias/99999990/documentos", "cvm_code"))
        << unknown.Describe();
    HttpResponse bad_kind = D().Get("/v1/companhias/" + code + "/documentos?kind=dfp", key);
    EXPECT_GE(bad_kind.status, 400) << bad_kind.Describe();
    EXPECT_LT(bad_kind.status, 500) << bad_kind.Describe();
    EXPECT_TRUE(
        IsProblem(bad_kind, bad_kind.status, kBaseUrl, "/v1/companhias/" + code + "/documentos", "kind"))
        << bad_kind.Describe();
}

// ---- The FRE

// A member of the sample's FRE zip of `year`, and of its FCA zip, read here.
std::vector<FileRow> SampleFreMember(Deployment& d, const std::string& year, const std::string& member) {
    return ReadZipMember(d.SampleDir() / ("fre_cia_aberta_" + year + ".zip"), member);
}

std::vector<FileRow> SampleFcaMember(Deployment& d, const std::string& member) {
    return ReadZipMember(d.SampleDir() / "fca_cia_aberta_2026.zip", member);
}

TEST_P(CompaniesTest, FreRowsAreTheLatestVersionsLinesWithTheirPublishedDigits) {
    // The company whose 2025 form has three versions.
    const std::vector<FileRow> index = SampleFreMember(D(), "2025", "fre_cia_aberta_2025.csv");
    std::map<std::string, FileRow> versions;  // VERSAO -> index line
    for (const FileRow& row : index) {
        if (row.at("VERSAO") == "3") {
            for (const FileRow& same : index) {
                if (same.at("CD_CVM") == row.at("CD_CVM")) {
                    versions[same.at("VERSAO")] = same;
                }
            }
        }
    }
    ASSERT_EQ(versions.size(), 3u);
    const std::string cnpj = Digits(versions.at("3").at("CNPJ_CIA"));
    const std::string code = versions.at("3").at("CD_CVM");
    const std::string path = "/v1/companhias/fre/" + cnpj + "/capital_social/linhas";
    const std::vector<FileRow> capital =
        SampleFreMember(D(), "2025", "fre_cia_aberta_capital_social_2025.csv");
    auto lines_of = [&](const std::string& version) {
        std::vector<FileRow> lines;
        for (const FileRow& row : capital) {
            if (row.at("ID_Documento") == versions.at(version).at("ID_DOC")) {
                lines.push_back(row);
            }
        }
        return lines;
    };
    const std::string key = D().RoomyKey();
    auto expect_version = [&](const std::string& query, const std::string& version) {
        SCOPED_TRACE(query);
        HttpResponse r = D().Get(path + "?reference_from=2025-01-01&" + query, key);
        ASSERT_EQ(r.status, 200) << r.Describe();
        const boost::json::array items = r.Json().at("data").as_array();
        const std::vector<FileRow> lines = lines_of(version);
        ASSERT_EQ(items.size(), lines.size());
        for (std::size_t i = 0; i < lines.size(); ++i) {
            const boost::json::object& item = items[i].as_object();
            EXPECT_EQ(std::to_string(item.at("version").as_int64()), version);
            EXPECT_EQ(std::to_string(item.at("cvm_code").as_int64()), code);
            EXPECT_EQ(item.at("row").as_int64(), static_cast<std::int64_t>(i + 1));
            EXPECT_EQ(Str(item, "delivered_at"), versions.at(version).at("DT_RECEB"));
            const boost::json::object& values = item.at("values").as_object();
            EXPECT_EQ(Text(values, "Tipo_Capital"), Blank(lines[i].at("Tipo_Capital")));
            EXPECT_EQ(Text(values, "ID_Capital_Social"), Blank(lines[i].at("ID_Capital_Social")));
            // Numbers keep their published digits in the answer's text.
            if (!lines[i].at("Valor_Capital").empty()) {
                EXPECT_NE(r.body.find("\"Valor_Capital\":" + lines[i].at("Valor_Capital")),
                          std::string::npos);
            } else {
                EXPECT_TRUE(values.at("Valor_Capital").is_null());
            }
        }
    };
    expect_version("", "3");
    expect_version("version=2", "2");
    expect_version("as_of=" + versions.at("2").at("DT_RECEB"), "2");

    // The index's versions are the company's FRE documents, the latest marked.
    const std::vector<boost::json::object> documents = D().AllItems(
        "/v1/companhias/" + code + "/documentos", "kind=fre&versions=all&reference_from=2025-01-01", 2);
    ASSERT_EQ(documents.size(), 3u);
    for (const boost::json::object& document : documents) {
        EXPECT_EQ(document.at("latest_version").as_bool(), document.at("version").as_int64() == 3);
        EXPECT_EQ(Str(document, "link"),
                  versions.at(std::to_string(document.at("version").as_int64())).at("LINK_DOC"));
    }

    // An unknown table is a 404 listing the tables with their years; both version and as_of, a 400.
    HttpResponse unknown = D().Get("/v1/companhias/fre/" + cnpj + "/direito_acao/linhas", key);
    EXPECT_TRUE(
        IsProblem(unknown, 404, kBaseUrl, "/v1/companhias/fre/" + cnpj + "/direito_acao/linhas", "table"))
        << unknown.Describe();
    EXPECT_NE(unknown.body.find("capital_social_aumento (2022)"), std::string::npos) << unknown.Describe();
    HttpResponse both = D().Get(path + "?version=1&as_of=2025-06-01", key);
    EXPECT_TRUE(IsProblem(both, 400, kBaseUrl, path, "version")) << both.Describe();
    HttpResponse bad_cnpj = D().Get("/v1/companhias/fre/123/capital_social/linhas", key);
    EXPECT_GE(bad_cnpj.status, 400) << bad_cnpj.Describe();
    EXPECT_LT(bad_cnpj.status, 500) << bad_cnpj.Describe();
}

TEST_P(CompaniesTest, TheFcasTickersAreOnTheCompanysRowAndItsVersionsAmongItsDocuments) {
    // The company whose 2026 FCA has a version 2, and its securities in that version.
    const std::vector<FileRow> index = SampleFcaMember(D(), "fca_cia_aberta_2026.csv");
    FileRow latest;
    for (const FileRow& row : index) {
        if (row.at("VERSAO") == "2") {
            latest = row;
        }
    }
    ASSERT_FALSE(latest.empty());
    std::map<std::string, FileRow> expected;  // ticker -> line
    for (const FileRow& row : SampleFcaMember(D(), "fca_cia_aberta_valor_mobiliario_2026.csv")) {
        if (row.at("ID_Documento") == latest.at("ID_DOC") && !row.at("Codigo_Negociacao").empty()) {
            expected[row.at("Codigo_Negociacao")] = row;
        }
    }
    ASSERT_FALSE(expected.empty());
    const std::vector<boost::json::object> companies =
        D().AllItems("/v1/companhias", "cnpj=" + Digits(latest.at("CNPJ_CIA")), 50);
    ASSERT_EQ(companies.size(), 1u);
    const boost::json::array& tickers = companies[0].at("tickers").as_array();
    ASSERT_EQ(tickers.size(), expected.size());
    for (const boost::json::value& value : tickers) {
        const boost::json::object& ticker = value.as_object();
        SCOPED_TRACE(Str(ticker, "ticker"));
        ASSERT_TRUE(expected.count(Str(ticker, "ticker")));
        const FileRow& row = expected.at(Str(ticker, "ticker"));
        EXPECT_EQ(Text(ticker, "trading_from"), Blank(row.at("Data_Inicio_Negociacao")));
        EXPECT_EQ(Text(ticker, "trading_to"), Blank(row.at("Data_Fim_Negociacao")));
        EXPECT_EQ(Text(ticker, "segment"), Blank(row.at("Segmento")));
    }
    const std::vector<boost::json::object> documents =
        D().AllItems("/v1/companhias/" + latest.at("CD_CVM") + "/documentos", "kind=fca&versions=all", 50);
    ASSERT_EQ(documents.size(), 2u);
    EXPECT_TRUE(documents[0].at("latest_version").as_bool());
    EXPECT_EQ(Str(documents[0], "protocol"), latest.at("ID_DOC"));
}

// ---- CVM's real extract

TEST_P(RealRegistryTest, CvmsRealExtractIngestsUnchangedAndComesOutAsPublished) {
    const CommandResult ingest = D().Lastro({"ingest", "cvm.cad_cia_aberta", kRealExtract.string()});
    ASSERT_EQ(ingest.exit_code, 0) << ingest.Describe();
    const std::vector<FileRow> rows = ReadCvmCsv(kRealExtract);
    const auto served = ByCode(D().AllItems("/v1/companhias", "", 500));
    ASSERT_EQ(served.size(), 60u);
    ExpectServedAsPublished(rows, served);

    // Its edge cases: a CEP that lost its zero, a cancelled securitizer, an accented name.
    const boost::json::object& energia = served.at(25224);
    EXPECT_EQ(Str(AsObject(energia.at("address")), "postal_code"), "04707000");
    const boost::json::object& securitizer = served.at(21954);
    EXPECT_EQ(Str(securitizer, "situation"), "CANCELADA");
    EXPECT_EQ(Str(securitizer, "sector"), "Securitização de Recebíveis");
    HttpResponse r = D().Get("/v1/companhias?q=" + UrlEncode("petroleum oleo"), D().RoomyKey());
    ASSERT_EQ(r.status, 200) << r.Describe();
    ASSERT_EQ(AsObject(r.Json()).at("data").as_array().size(), 1u) << r.Describe();
    EXPECT_EQ(AsObject(r.Json()).at("data").as_array()[0].at("cvm_code").as_int64(), 25291);

    // The same file again: nothing changes.
    const CommandResult again = D().Lastro({"ingest", "cvm.cad_cia_aberta", kRealExtract.string()});
    ASSERT_EQ(again.exit_code, 0) << again.Describe();
    EXPECT_NE((again.out + again.err).find("0 inserted, 0 updated, 60 unchanged, 0 removed"),
              std::string::npos)
        << again.Describe();
}

}  // namespace
}  // namespace lastro::companies::e2e
