// The FCA and what the forms derive: companies.securities (tickers with dates) from the FCA,
// companies.shares_outstanding from the FRE, the service other plugins read them through
// (<lastro/companies/services.hpp>), and the tickers of GET /v1/companhias. On a plugin database
// (SQLite, or PostgreSQL with LASTRO_TEST_BACKEND) fed the sample; expected values are read here
// from the sample's zips.
#include "derive/form_derivations.hpp"
#include "domain/filings/filing_rules.hpp"
#include "domain/filings/share_rules.hpp"
#include "domain/registry/registry_rules.hpp"
#include "ingest/cad_cia_aberta/registry_ingester.hpp"
#include "ingest/filings/filing_ingester.hpp"
#include "loaded_sample.hpp"
#include "sample/filings_writer.hpp"
#include "sample/sample_writer.hpp"
#include "services/listed_companies.hpp"
#include "src/handlers.hpp"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/testing/fake_host.hpp>
#include <lastro/sdk/testing/plugin_calls.hpp>
#include <lastro/sdk/testing/plugin_database.hpp>
#include <lastro/sdk/testing/temp_dir.hpp>

#include <gtest/gtest.h>
#include <boost/json.hpp>
#include <odb/transaction.hxx>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace lastro::companies {
namespace {

namespace fs = std::filesystem;

using FileRow = std::map<std::string, std::string>;

// A member of a sample zip, parsed here: Latin-1 text of CVM's layout, ';', CRLF.
std::vector<FileRow> Member(const fs::path& zip, const std::string& name) {
    for (const auto& [member, bytes] : sdk::testing::ZipMemberBytes(zip)) {
        if (member != name) {
            continue;
        }
        std::vector<std::vector<std::string>> lines;
        std::size_t start = 0;
        while (start < bytes.size()) {
            std::size_t end = bytes.find("\r\n", start);
            const std::string line = bytes.substr(start, end - start);
            start = end == std::string::npos ? bytes.size() : end + 2;
            std::vector<std::string> fields;
            std::size_t from = 0;
            for (std::size_t semicolon; (semicolon = line.find(';', from)) != std::string::npos;
                 from = semicolon + 1) {
                fields.push_back(line.substr(from, semicolon - from));
            }
            fields.push_back(line.substr(from));
            lines.push_back(std::move(fields));
        }
        std::vector<FileRow> rows;
        for (std::size_t i = 1; i < lines.size(); ++i) {
            FileRow row;
            for (std::size_t c = 0; c < lines[0].size(); ++c) {
                row[lines[0][c]] = lines[i].at(c);
            }
            rows.push_back(std::move(row));
        }
        return rows;
    }
    ADD_FAILURE() << name << " is not in " << zip;
    return {};
}

class FormsDatabase : public LoadedSample {
public:
    sdk::Result Companies(const sdk::Params& params) { return Call(&HandleCompanies, params); }
    const ListedCompaniesReader service;
};

// The planted company: the one whose FCA has two versions.
FileRow PlantedFca(const fs::path& zip) {
    FileRow latest;
    for (const FileRow& row : Member(zip, "fca_cia_aberta_2026.csv")) {
        if (row.at("VERSAO") == "2") {
            latest = row;
        }
    }
    return latest;
}

TEST(SecuritiesTest, EachCompanysLatestFcaGivesItsTickersWithDates) {
    FormsDatabase db;
    const FileRow planted = PlantedFca(db.Sample("fca_cia_aberta_2026.zip"));
    ASSERT_FALSE(planted.empty());
    const std::int64_t code = std::stoll(planted.at("CD_CVM"));
    const std::string stem = SampleTickerStem(code);
    const auto securities = db.Read([&](odb::database& d) { return db.service.Securities(d, code); });
    ASSERT_EQ(securities.size(), 3u);
    std::map<std::string, CompanySecurity> by_ticker;
    for (const CompanySecurity& security : securities) {
        EXPECT_EQ(security.version, 2);  // the latest version only
        EXPECT_EQ(std::to_string(security.document_id), planted.at("ID_DOC"));
        by_ticker[*security.ticker] = security;
    }
    EXPECT_EQ(by_ticker.at(stem + "3").share_class, "ON");
    EXPECT_EQ(by_ticker.at(stem + "4").share_class, "PNA");
    EXPECT_EQ(by_ticker.at(stem + "11").share_class, "UNIT");
    EXPECT_EQ(by_ticker.at(stem + "11").trading_to, "2026-03-31");
    EXPECT_EQ(by_ticker.at(stem + "3").trading_to, std::nullopt);  // still trading: null, never a date
    EXPECT_EQ(by_ticker.at(stem + "3").segment, "Nível 2");

    // Every security row of the file's latest versions is there, once.
    std::map<std::string, std::string> latest_document;  // CD_CVM -> ID_DOC of its highest version
    std::map<std::string, int> latest_version;
    for (const FileRow& row : Member(db.Sample("fca_cia_aberta_2026.zip"), "fca_cia_aberta_2026.csv")) {
        if (std::stoi(row.at("VERSAO")) > latest_version[row.at("CD_CVM")]) {
            latest_version[row.at("CD_CVM")] = std::stoi(row.at("VERSAO"));
            latest_document[row.at("CD_CVM")] = row.at("ID_DOC");
        }
    }
    std::size_t expected = 0;
    std::set<std::string> documents;
    for (const auto& [code_text, document] : latest_document) {
        documents.insert(document);
    }
    for (const FileRow& row :
         Member(db.Sample("fca_cia_aberta_2026.zip"), "fca_cia_aberta_valor_mobiliario_2026.csv")) {
        expected += documents.count(row.at("ID_Documento"));
    }
    const std::string stored = db.Read([](odb::database& d) {
        return *sdk::SqlSession(d).Query("SELECT count(*) FROM companies_security")[0][0];
    });
    EXPECT_EQ(stored, std::to_string(expected));

    const auto traded = db.Read([&](odb::database& d) { return db.service.ByTicker(d, stem + "3"); });
    ASSERT_EQ(traded.size(), 1u);
    EXPECT_EQ(traded[0].cvm_code, code);

    // The registry's companies, by code and by CNPJ (newest registration first).
    const auto company = db.Read([&](odb::database& d) { return db.service.ByCvmCode(d, code); });
    ASSERT_TRUE(company);
    EXPECT_EQ(company->legal_name, "Companhia Siderúrgica Ação Paulista S.A.");
    EXPECT_EQ(company->cnpj, [&] {
        std::string digits;
        for (char c : planted.at("CNPJ_CIA")) {
            if (c >= '0' && c <= '9') {
                digits += c;
            }
        }
        return digits;
    }());
    EXPECT_FALSE(db.Read([&](odb::database& d) { return db.service.ByCvmCode(d, 99999990); }));

    // GET /v1/companhias carries the tickers on the company's row.
    sdk::Params params;
    params.Set("q", std::string("siderurgica acao"));
    const sdk::Result page = db.Companies(params);
    ASSERT_EQ(page.data.as_array().size(), 1u);
    const auto& tickers = page.data.as_array()[0].at("tickers").as_array();
    ASSERT_EQ(tickers.size(), 3u);
    EXPECT_EQ(tickers[0].at("ticker").as_string(), stem + "11");  // by ticker
    EXPECT_EQ(tickers[0].at("trading_to").as_string(), "2026-03-31");
}

TEST(SharesOutstandingTest, ThePaidInCapitalOfEachReferenceDatesLatestFormWithItsCell) {
    FormsDatabase db;
    const FileRow planted = PlantedFca(db.Sample("fca_cia_aberta_2026.zip"));
    const std::int64_t code = std::stoll(planted.at("CD_CVM"));
    // The expected figures, from the 2025 zip: the planted company's version 3, its first
    // capital_social row (the paid-in capital) and its distribuicao_capital row.
    const fs::path zip = db.Sample("fre_cia_aberta_2025.zip");
    std::string document;
    for (const FileRow& row : Member(zip, "fre_cia_aberta_2025.csv")) {
        if (row.at("CD_CVM") == planted.at("CD_CVM") && row.at("VERSAO") == "3") {
            document = row.at("ID_DOC");
        }
    }
    ASSERT_FALSE(document.empty());
    FileRow capital;
    for (const FileRow& row : Member(zip, "fre_cia_aberta_capital_social_2025.csv")) {
        if (row.at("ID_Documento") == document && capital.empty()) {
            capital = row;
        }
    }
    ASSERT_EQ(capital.at("Tipo_Capital"), "Capital Integralizado");

    const auto figures =
        db.Read([&](odb::database& d) { return db.service.SharesOutstanding(d, code, std::nullopt); });
    std::map<std::string, SharesFigure> by_key;
    for (const SharesFigure& figure : figures) {
        EXPECT_EQ(figure.reference_date, "2025-01-01");
        EXPECT_EQ(figure.version, 3);
        EXPECT_EQ(std::to_string(figure.document_id), document);
        by_key[figure.measure + "/" + figure.share_class] = figure;
    }
    ASSERT_TRUE(by_key.contains("issued/ON"));
    const SharesFigure& ordinary = by_key.at("issued/ON");
    EXPECT_EQ(ordinary.quantity_published, capital.at("Quantidade_Acoes_Ordinarias"));
    EXPECT_EQ(ordinary.quantity, std::stoll(capital.at("Quantidade_Acoes_Ordinarias")));
    EXPECT_EQ(ordinary.source_table, "capital_social");
    EXPECT_EQ(ordinary.source_row, 1);
    EXPECT_EQ(ordinary.source_column, "Quantidade_Acoes_Ordinarias");
    EXPECT_EQ(*by_key.at("issued/TOTAL").quantity,
              *ordinary.quantity + *by_key.at("issued/PN").quantity);  // the form's total
    EXPECT_TRUE(by_key.contains("free_float/TOTAL"));
    EXPECT_EQ(by_key.at("free_float/TOTAL").source_table, "distribuicao_capital");

    // A day before the 2025 form's reference date gives the 2022 one; before any, nothing.
    const auto earlier = db.Read(
        [&](odb::database& d) { return db.service.SharesOutstanding(d, code, std::string("2024-12-31")); });
    ASSERT_FALSE(earlier.empty());
    EXPECT_EQ(earlier[0].reference_date, "2022-01-01");
    EXPECT_TRUE(db.Read([&](odb::database& d) {
                      return db.service.SharesOutstanding(d, code, std::string("2021-12-31"));
                  }).empty());
}

TEST(ShareRulesTest, PaidInCapitalWithTheLatestApprovalAndShareClasses) {
    const std::vector<CapitalRow> rows{{1, "Capital Emitido", "2025-01-01"},
                                       {2, "Capital Integralizado", "2024-01-01"},
                                       {3, "CAPITAL INTEGRALIZADO", "2024-06-01"},
                                       {4, "Capital Integralizado", std::nullopt}};
    EXPECT_EQ(ChooseCapitalRow(rows), 2u);
    EXPECT_EQ(ChooseCapitalRow({{1, "Capital Autorizado", std::nullopt}}), std::nullopt);
    EXPECT_EQ(ShareClassOf(std::string("Ações Ordinárias"), std::nullopt), "ON");
    EXPECT_EQ(ShareClassOf(std::string("Ações Preferenciais"), std::string("PNB")), "PNB");
    EXPECT_EQ(ShareClassOf(std::string("Ações Preferenciais"), std::nullopt), "PN");
    EXPECT_EQ(ShareClassOf(std::string("Units"), std::nullopt), "UNIT");
    EXPECT_EQ(ShareClassOf(std::string("Debêntures"), std::nullopt), std::nullopt);
}

}  // namespace
}  // namespace lastro::companies
