// SampleListing (<lastro/companies/sample_listing.hpp>), what other plugins' samples name the
// listed companies by, against the FCA the companies sample writes: the latest version of each
// company's valor_mobiliario, its rows on the exchange, read back from the zip.
#include "sample/sample_writer.hpp"

#include <lastro/companies/sample_listing.hpp>
#include <lastro/sdk/sample.hpp>
#include <lastro/sdk/testing/temp_dir.hpp>
#include <lastro/sdk/text.hpp>

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace lastro::companies {
namespace {

namespace fs = std::filesystem;
using Row = std::map<std::string, std::string>;

std::vector<Row> Member(const fs::path& zip, const std::string& name) {
    std::vector<Row> rows;
    for (const auto& [member, bytes] : sdk::testing::ZipMemberBytes(zip)) {
        if (member != name) {
            continue;
        }
        const std::string text = sdk::Latin1ToUtf8(bytes);
        std::vector<std::string> header;
        for (std::size_t start = 0; start < text.size();) {
            const std::size_t end = text.find("\r\n", start);
            const std::string line = text.substr(start, end - start);
            start = end == std::string::npos ? text.size() : end + 2;
            std::vector<std::string> fields;
            std::size_t from = 0;
            for (std::size_t cut; (cut = line.find(';', from)) != std::string::npos; from = cut + 1) {
                fields.push_back(line.substr(from, cut - from));
            }
            fields.push_back(line.substr(from));
            if (header.empty()) {
                header = fields;
                continue;
            }
            Row row;
            for (std::size_t c = 0; c < header.size(); ++c) {
                row[header[c]] = fields.at(c);
            }
            rows.push_back(std::move(row));
        }
    }
    return rows;
}

std::string Digits(const std::string& text) {
    std::string digits;
    for (char c : text) {
        if (c >= '0' && c <= '9') {
            digits += c;
        }
    }
    return digits;
}

// cnpj|ticker|class|from|to|segment|legal name, one per security on the exchange.
using Line = std::string;

TEST(SampleListingTest, IsTheLatestFcaValorMobiliarioOnTheExchange) {
    sdk::testing::TempDir dir;
    CompaniesSampleWriter writer;
    writer.Write({dir.Path(), sdk::kDefaultSampleSeed, sdk::SampleScale::kSample});
    const fs::path zip = dir.Path() / "fca_cia_aberta_2026.zip";

    std::map<std::string, std::pair<int, std::string>> latest;  // cnpj -> (version, ID_DOC)
    for (const Row& row : Member(zip, "fca_cia_aberta_2026.csv")) {
        auto& [version, document] = latest[Digits(row.at("CNPJ_CIA"))];
        if (std::stoi(row.at("VERSAO")) > version) {
            version = std::stoi(row.at("VERSAO"));
            document = row.at("ID_DOC");
        }
    }
    std::set<std::string> documents;
    for (const auto& [cnpj, entry] : latest) {
        documents.insert(entry.second);
    }
    std::multiset<Line> from_file;
    for (const Row& row : Member(zip, "fca_cia_aberta_valor_mobiliario_2026.csv")) {
        if (!documents.contains(row.at("ID_Documento")) || row.at("Mercado") != "Bolsa") {
            continue;
        }
        const std::string share_class = row.at("Valor_Mobiliario") == "Units" ? "UNIT"
                                        : row.at("Sigla_Classe_Acao_Preferencial").empty()
                                            ? "ON"
                                            : row.at("Sigla_Classe_Acao_Preferencial");
        from_file.insert(Digits(row.at("CNPJ_Companhia")) + "|" + row.at("Codigo_Negociacao") + "|" +
                         share_class + "|" + row.at("Data_Inicio_Negociacao") + "|" +
                         row.at("Data_Fim_Negociacao") + "|" + row.at("Segmento") + "|" +
                         row.at("Nome_Empresarial"));
    }

    std::multiset<Line> from_listing;
    const std::vector<ListedSampleCompany> listing =
        SampleListing(sdk::kDefaultSampleSeed, sdk::SampleScale::kSample);
    for (const ListedSampleCompany& company : listing) {
        EXPECT_EQ(company.cnpj.size(), 14u);
        for (const ListedSampleSecurity& security : company.securities) {
            from_listing.insert(company.cnpj + "|" + security.ticker + "|" +
                                std::string(ListedClassName(security.share_class)) + "|" +
                                security.trading_from.ToString() + "|" +
                                (security.trading_to ? security.trading_to->ToString() : "") + "|" +
                                company.segment + "|" + company.legal_name);
        }
    }
    EXPECT_GT(from_file.size(), 30u);
    EXPECT_EQ(from_listing, from_file);
}

TEST(SampleListingTest, OneCompanyRenamesItsOnTickerInside2026) {
    const std::vector<ListedSampleCompany> listing =
        SampleListing(sdk::kDefaultSampleSeed, sdk::SampleScale::kSample);
    int renames = 0;
    for (const ListedSampleCompany& company : listing) {
        const ListedSampleSecurity* ended = nullptr;
        const ListedSampleSecurity* successor = nullptr;
        for (const ListedSampleSecurity& security : company.securities) {
            if (security.share_class == ListedClass::kOn && security.trading_to) {
                ended = &security;
            }
            if (security.share_class == ListedClass::kOn && security.trading_from == kRenamedTickerFirstDay) {
                successor = &security;
            }
        }
        if (ended && successor) {
            ++renames;
            EXPECT_EQ(*ended->trading_to, kRenamedTickerLastDay);
            EXPECT_EQ(ended->ticker, SampleTickerStem(company.cvm_code) + "3");
            EXPECT_NE(successor->ticker.substr(0, 4), ended->ticker.substr(0, 4));  // a new stem
            EXPECT_FALSE(successor->trading_to);
        }
    }
    EXPECT_EQ(renames, 1);
}

}  // namespace
}  // namespace lastro::companies
