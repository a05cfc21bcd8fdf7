// GET /v1/emissoes end to end (docs/testing.md): a real lastrod loading the companies plugin alone,
// on SQLite and PostgreSQL, serving the sample (`lastro ingest --sample`). What the answers should
// hold is computed here from the sample's own files (the certificate reports, the offerings and the
// registry), read with this file's reader, never through the plugin's code.
#include "cvm_files.hpp"

#include <lastro/sdk/testing/backend_fixture.hpp>
#include <lastro/sdk/testing/checks.hpp>
#include <lastro/sdk/zip_archive.hpp>

#include <boost/json.hpp>

#include <cmath>
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

class IssuancesTest : public BackendTest<IssuancesTest> {
public:
    static constexpr const char* kLabel = "issuances";
    static DeploymentOptions Options() { return {.plugin_dirs = {LASTRO_COMPANIES_ALONE_DIR}}; }
};
INSTANTIATE_TEST_SUITE_P(Sqlite, IssuancesTest, ::testing::Values(Backend::kSqlite), BackendParamName);
INSTANTIATE_TEST_SUITE_P(Postgres, IssuancesTest, ::testing::Values(Backend::kPostgres), BackendParamName);

// One certificate's reports in the sample's files, month -> the winning row (the highest Versao),
// with how many rows the month had and its series.
struct Expected {
    std::string tipo;
    std::string cnpj_cell;
    std::string code;
    std::map<std::string, FileRow> by_month;
    std::map<std::string, int> rows_of_month;
    std::map<std::string, std::vector<FileRow>> series_of_month;
};

std::map<std::string, Expected> SampleCertificates(const std::filesystem::path& dir) {
    std::map<std::string, Expected> certificates;
    for (const std::string tipo : {"CRI", "CRA"}) {
        const std::string prefix = tipo == "CRI" ? "inf_mensal_cri" : "inf_mensal_cra";
        for (const std::string year : {"2025", "2026"}) {
            const std::filesystem::path zip = dir / (prefix + "_" + year + ".zip");
            for (const FileRow& row : ReadZipMember(zip, prefix + "_geral_" + year + ".csv")) {
                Expected& e = certificates[tipo + "|" + row.at("CNPJ_Emissora") + "|" +
                                           row.at("Codigo_Identificacao_Certificado")];
                e.tipo = tipo;
                e.cnpj_cell = row.at("CNPJ_Emissora");
                e.code = row.at("Codigo_Identificacao_Certificado");
                const std::string month = row.at("Data_Referencia").substr(0, 7);
                ++e.rows_of_month[month];
                auto kept = e.by_month.find(month);
                if (kept == e.by_month.end() ||
                    std::stoi(row.at("Versao")) > std::stoi(kept->second.at("Versao"))) {
                    e.by_month[month] = row;
                }
            }
            for (const FileRow& row : ReadZipMember(zip, prefix + "_classe_" + year + ".csv")) {
                Expected& e = certificates[tipo + "|" + row.at("CNPJ_Emissora") + "|" +
                                           row.at("Codigo_Identificacao_Certificado")];
                e.series_of_month[row.at("Data_Referencia").substr(0, 7) + "|" + row.at("Versao")].push_back(
                    row);
            }
        }
    }
    return certificates;
}

std::string KeyOf(const boost::json::object& item) {
    return Str(item, "tipo") + "|" + Str(item, "issuer_cnpj_published") + "|" + Str(item, "code");
}

// A served number against the file's decimal text (blank: null), to the cent.
::testing::AssertionResult SameAmount(const boost::json::value& value, const std::string& text) {
    if (text.empty() || value.is_null()) {
        return text.empty() == value.is_null()
                   ? ::testing::AssertionSuccess()
                   : ::testing::AssertionFailure() << boost::json::serialize(value) << " vs '" << text << "'";
    }
    const double served = value.to_number<double>();
    if (std::abs(served - std::stod(text)) < 0.005) {
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << boost::json::serialize(value) << " vs '" << text << "'";
}

// The served row against the file's winning row of its month.
void ExpectReport(const boost::json::object& item, const Expected& e, const std::string& month) {
    SCOPED_TRACE(KeyOf(item) + " " + month);
    const FileRow& row = e.by_month.at(month);
    EXPECT_EQ(Str(item, "month"), month);
    EXPECT_EQ(Str(item, "reference_date"), row.at("Data_Referencia"));
    EXPECT_EQ(std::to_string(item.at("version").as_int64()), row.at("Versao"));
    EXPECT_EQ(item.at("versions_published").as_int64(), e.rows_of_month.at(month));
    EXPECT_EQ(Str(item, "emission_name"), row.at("Nome_Emissao"));
    EXPECT_EQ(Str(item, "emission_number"), row.at("Numero_Emissao"));
    EXPECT_EQ(Str(item, "issued_at"), row.at("Data_Emissao"));
    EXPECT_TRUE(SameAmount(item.at("net_worth"), row.at("Patrimonio_Liquido_Emissao")));
    EXPECT_EQ(Str(AsObject(item.at("securitizer")), "report_name"), row.at("Companhia_Emissora"));
    const std::vector<FileRow>& series = e.series_of_month.at(month + "|" + row.at("Versao"));
    const boost::json::array& served = item.at("series").as_array();
    ASSERT_EQ(served.size(), series.size());
    for (std::size_t i = 0; i < series.size(); ++i) {
        const boost::json::object& s = AsObject(served[i]);
        EXPECT_EQ(Str(s, "cetip_code"), series[i].at("Codigo_CETIP"));
        EXPECT_EQ(Str(s, "isin"), series[i].at("Codigo_ISIN"));
        EXPECT_EQ(Str(s, "maturity"), series[i].at("Data_Vencimento"));
        EXPECT_EQ(Str(s, "rate"), series[i].at("Taxa_Juros"));
        EXPECT_TRUE(SameAmount(s.at("paid_in"), series[i].at(e.tipo == "CRI" ? "Total_Integralizado"
                                                                             : "Valor_Total_Integralizado")));
    }
}

TEST_P(IssuancesTest, EveryCertificateIsServedWithItsLatestReportAtItsHighestVersion) {
    const auto expected = SampleCertificates(D().SampleDir());
    const std::vector<boost::json::object> served = D().AllItems("/v1/emissoes", "", 500);
    ASSERT_EQ(served.size(), expected.size());
    std::set<std::string> keys;
    for (const boost::json::object& item : served) {
        ASSERT_TRUE(keys.insert(KeyOf(item)).second) << KeyOf(item);
        ASSERT_TRUE(expected.count(KeyOf(item))) << KeyOf(item);
        const Expected& e = expected.at(KeyOf(item));
        const std::string latest = e.by_month.rbegin()->first;
        EXPECT_EQ(Str(item, "latest_month"), latest);
        ExpectReport(item, e, latest);
        const std::string digits = Digits(e.cnpj_cell);
        if (digits.size() == 14) {
            EXPECT_EQ(Str(item, "issuer_cnpj"), digits);
            EXPECT_EQ(Str(item, "issuer_cnpj_kind"), "cnpj");
        } else {
            EXPECT_TRUE(item.at("issuer_cnpj").is_null()) << KeyOf(item);  // "0" is no company
            EXPECT_EQ(Str(item, "issuer_cnpj_kind"), "placeholder");
            EXPECT_EQ(Str(AsObject(item.at("securitizer")), "name_source"), "report");
        }
    }
    // Pages of three walk the same rows in the same order.
    const std::vector<boost::json::object> paged = D().AllItems("/v1/emissoes", "", 3);
    ASSERT_EQ(paged.size(), served.size());
    for (std::size_t i = 0; i < paged.size(); ++i) {
        EXPECT_EQ(KeyOf(paged[i]), KeyOf(served[i]));
    }
}

TEST_P(IssuancesTest, AMonthAskedIsThatMonthsReportsOrA404NamingTheMonthsCovered) {
    const auto expected = SampleCertificates(D().SampleDir());
    // 2026-08, CRI: every CRI reported that month, the re-reported one at its Versao 2.
    std::set<std::string> reported;
    bool twice = false;
    for (const auto& [key, e] : expected) {
        if (e.tipo == "CRI" && e.by_month.count("2026-08")) {
            reported.insert(key);
            twice |= e.rows_of_month.at("2026-08") == 2;
        }
    }
    ASSERT_TRUE(twice);
    const std::vector<boost::json::object> august =
        D().AllItems("/v1/emissoes", "tipo=CRI&month=2026-08", 500);
    std::set<std::string> served;
    for (const boost::json::object& item : august) {
        served.insert(KeyOf(item));
        ExpectReport(item, expected.at(KeyOf(item)), "2026-08");
    }
    EXPECT_EQ(served, reported);
    EXPECT_LT(served.size(), expected.size());  // the ended certificate and the CRA are left out

    const std::string key = D().RoomyKey();
    HttpResponse later = D().Get("/v1/emissoes?month=2027-01", key);
    EXPECT_TRUE(IsProblem(later, 404, kBaseUrl, "/v1/emissoes", "month")) << later.Describe();
    EXPECT_NE(later.body.find("2025-01..2026-09"), std::string::npos) << later.Describe();
    HttpResponse covered = D().Get("/v1/emissoes?month=2026-09&q=nothing-matches-this", key);
    ASSERT_EQ(covered.status, 200) << covered.Describe();
    const boost::json::value covered_body = covered.Json();
    EXPECT_TRUE(AsObject(covered_body).at("data").as_array().empty());
    const boost::json::object& coverage =
        AsObject(AsObject(AsObject(covered_body).at("meta")).at("coverage"));
    EXPECT_EQ(Str(coverage, "month"), "2026-09");
    EXPECT_EQ(Str(AsObject(coverage.at("sources").as_array()[0]), "last_month"), "2026-09");
}

TEST_P(IssuancesTest, ASecuritizersCertificatesCarryItsRegistryNameAndTheirOfferings) {
    const auto expected = SampleCertificates(D().SampleDir());
    std::map<std::string, std::string> registry_name;
    for (const FileRow& row : ReadCvmCsv(D().SampleDir() / "cad_cia_aberta.csv")) {
        registry_name[Digits(row.at("CNPJ_CIA"))] = row.at("DENOM_SOCIAL");
    }
    // A securitizer with a CRI and a CRA in the files, named in the registry.
    std::map<std::string, std::set<std::string>> kinds_of;
    for (const auto& [key, e] : expected) {
        kinds_of[e.cnpj_cell].insert(e.tipo);
    }
    std::string masked;
    for (const auto& [cnpj, kinds] : kinds_of) {
        if (kinds.size() == 2 && registry_name.count(Digits(cnpj))) {
            masked = cnpj;
        }
    }
    ASSERT_FALSE(masked.empty());
    ASSERT_TRUE(registry_name.count(Digits(masked)));

    // The offerings of that CNPJ in both members, by emission number.
    std::multimap<std::string, FileRow> offerings;  // tipo|emission digits -> row
    for (const std::string member : {"oferta_distribuicao.csv", "oferta_resolucao_160.csv"}) {
        for (FileRow row : ReadZipMember(D().SampleDir() / "oferta_distribuicao.zip", member)) {
            const std::string asset =
                row.count("Tipo_Ativo") ? row.at("Tipo_Ativo") : row.at("Valor_Mobiliario");
            if (row.at("CNPJ_Emissor") != masked || asset.find("Certificados de Receb") != 0) {
                continue;
            }
            row["regime"] = row.count("Tipo_Ativo") ? "legacy" : "rcvm160";
            const std::string tipo = asset.find("Imobili") != std::string::npos ? "CRI" : "CRA";
            std::string digits = Digits(row.at("Emissao"));
            digits.erase(0, digits.find_first_not_of('0'));
            offerings.emplace(tipo + "|" + digits, row);
        }
    }

    const std::vector<boost::json::object> served =
        D().AllItems("/v1/emissoes", "cnpj=" + UrlEncode(masked), 500);
    std::set<std::string> tipos;
    std::size_t matched = 0;
    for (const boost::json::object& item : served) {
        SCOPED_TRACE(KeyOf(item));
        tipos.insert(Str(item, "tipo"));
        EXPECT_EQ(Str(item, "issuer_cnpj"), Digits(masked));
        const boost::json::object& securitizer = AsObject(item.at("securitizer"));
        EXPECT_EQ(Str(securitizer, "name"), registry_name.at(Digits(masked)));
        EXPECT_EQ(Str(securitizer, "name_source"), "registry");
        std::string emission = Digits(Str(item, "emission_number"));
        emission.erase(0, emission.find_first_not_of('0'));
        const auto range = offerings.equal_range(Str(item, "tipo") + "|" + emission);
        const boost::json::array& served_offerings = item.at("offerings").as_array();
        ASSERT_EQ(served_offerings.size(),
                  static_cast<std::size_t>(std::distance(range.first, range.second)));
        std::set<std::string> sources;
        for (const auto& source : item.at("sources").as_array()) {
            sources.insert(std::string(source.as_string()));
        }
        EXPECT_TRUE(sources.count("cvm.cad_cia_aberta"));
        EXPECT_EQ(sources.count("cvm.oferta_distribuicao"), served_offerings.empty() ? 0u : 1u);
        for (const auto& offering : served_offerings) {
            ++matched;
            const boost::json::object& o = AsObject(offering);
            if (Str(o, "regime") == "rcvm160") {
                // Data_deliberacao_aprovou_oferta is DD/MM/YYYY in the file, YYYY-MM-DD served.
                bool found = false;
                for (auto it = range.first; it != range.second; ++it) {
                    const std::string& d = it->second.count("Data_deliberacao_aprovou_oferta")
                                               ? it->second.at("Data_deliberacao_aprovou_oferta")
                                               : std::string();
                    found |=
                        d.size() == 10 &&
                        Str(o, "approved_at") == d.substr(6, 4) + "-" + d.substr(3, 2) + "-" + d.substr(0, 2);
                }
                EXPECT_TRUE(found) << boost::json::serialize(o);
            } else {
                EXPECT_TRUE(o.at("approved_at").is_null());
            }
        }
    }
    EXPECT_EQ(tipos, (std::set<std::string>{"CRI", "CRA"}));
    EXPECT_GT(matched, 1u);

    // q over the registry's name of the securitizer, accents and case aside.
    const std::string first_word =
        registry_name.at(Digits(masked)).substr(0, registry_name.at(Digits(masked)).find(' '));
    HttpResponse r = D().Get("/v1/emissoes?limit=500&q=" + UrlEncode(first_word), D().RoomyKey());
    ASSERT_EQ(r.status, 200) << r.Describe();
    std::size_t of_masked = 0;
    const boost::json::value body = r.Json();
    for (const auto& item : AsObject(body).at("data").as_array()) {
        // A report naming the securitizer under a cell that is no CNPJ is found by its report's name.
        const boost::json::value& cnpj = AsObject(item).at("issuer_cnpj");
        of_masked += !cnpj.is_null() && cnpj.as_string() == Digits(masked) ? 1 : 0;
    }
    EXPECT_EQ(of_masked, served.size());
}

TEST_P(IssuancesTest, BadParametersAreProblemsNamingThem) {
    const std::string key = D().RoomyKey();
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"/v1/emissoes?tipo=CRX", "tipo"},          {"/v1/emissoes?cnpj=123", "cnpj"},
        {"/v1/emissoes?month=2026-13", "month"},    {"/v1/emissoes?month=2026-08-01", "month"},
        {"/v1/emissoes?limit=0", "limit"},          {"/v1/emissoes?limit=501", "limit"},
        {"/v1/emissoes?cursor=nonsense", "cursor"}, {"/v1/emissoes?q=" + std::string(101, 'a'), "q"},
    };
    for (const auto& [target, parameter] : cases) {
        SCOPED_TRACE(target);
        HttpResponse r = D().Get(target, key);
        EXPECT_GE(r.status, 400) << r.Describe();
        EXPECT_LT(r.status, 500) << r.Describe();
        EXPECT_TRUE(IsProblem(r, r.status, kBaseUrl, "/v1/emissoes", parameter)) << r.Describe();
    }
}

}  // namespace
}  // namespace lastro::companies::e2e
