// The registry reader on CVM's real file (../shared/datasets/real/cvm_companies/, June 2021, the
// header and its first 60 companies, ISO-8859-1 and CRLF as published) and on the bad files it
// must refuse with their line and reason.
#include "domain/registry/cad_reader.hpp"
#include "domain/registry/registry_rules.hpp"

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/testing/byte_sources.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

namespace lastro::companies {
namespace {

using sdk::testing::Bytes;
using sdk::testing::ErrorOf;

const std::filesystem::path kRealExtract =
    std::filesystem::path(LASTRO_SOURCE_DIR) /
    "../shared/datasets/real/cvm_companies/cad_cia_aberta_2021-06_first60.csv";

std::string FileBytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

struct ReadAll {
    std::vector<CompanyRecord> rows;
    std::vector<std::pair<std::size_t, std::string>> rejected;
};

ReadAll Read(const std::string& bytes) {
    CadReader reader(Bytes(bytes, "cad_cia_aberta.csv"));
    ReadAll all;
    CompanyRecord record;
    std::string problem;
    for (ReadOutcome outcome; (outcome = reader.Next(record, problem)) != ReadOutcome::kEnd;) {
        if (outcome == ReadOutcome::kRejected) {
            all.rejected.emplace_back(record.line, problem);
        } else {
            all.rows.push_back(record);
        }
    }
    return all;
}

const std::string kHeader =
    "CNPJ_CIA;DENOM_SOCIAL;DENOM_COMERC;DT_REG;DT_CONST;DT_CANCEL;MOTIVO_CANCEL;SIT;DT_INI_SIT;CD_CVM;"
    "SETOR_ATIV;TP_MERC;CATEG_REG;DT_INI_CATEG;SIT_EMISSOR;DT_INI_SIT_EMISSOR;CONTROLE_ACIONARIO;TP_ENDER;"
    "LOGRADOURO;COMPL;BAIRRO;MUN;UF;PAIS;CEP;DDD_TEL;TEL;DDD_FAX;FAX;EMAIL;TP_RESP;RESP;DT_INI_RESP;"
    "LOGRADOURO_RESP;COMPL_RESP;BAIRRO_RESP;MUN_RESP;UF_RESP;PAIS_RESP;CEP_RESP;DDD_TEL_RESP;TEL_RESP;"
    "DDD_FAX_RESP;FAX_RESP;EMAIL_RESP;CNPJ_AUDITOR;AUDITOR\r\n";

// A row of the 47 columns: `fields` overrides by position.
std::string Line(std::map<std::size_t, std::string> fields) {
    std::string line;
    for (std::size_t i = 0; i < 47; ++i) {
        line += (i ? ";" : "") + (fields.count(i) ? fields[i] : std::string());
    }
    return line + "\r\n";
}

TEST(CadReaderTest, ReadsCvmsRealRegistryExtract) {
    const ReadAll all = Read(FileBytes(kRealExtract));
    ASSERT_TRUE(all.rejected.empty()) << all.rejected.front().second;
    ASSERT_EQ(all.rows.size(), 60u);

    const CompanyRecord& first = all.rows.front();  // 2W ENERGIA S.A.
    EXPECT_EQ(first.line, 2u);
    EXPECT_EQ(first.cvm_code, 25224);
    EXPECT_EQ(first.cnpj.kind, sdk::DocumentKind::kCnpj);
    EXPECT_EQ(first.cnpj.cnpj, "08773135000100");
    EXPECT_EQ(first.cnpj.published, "08.773.135/0001-00");
    EXPECT_EQ(first.legal_name, "2W ENERGIA S.A.");
    EXPECT_EQ(first.trade_name, std::nullopt);  // blank stays null
    EXPECT_EQ(first.registered_at, "2020-10-29");
    EXPECT_EQ(first.situation, "ATIVO");
    EXPECT_EQ(first.sector, "Construção Civil, Mat. Constr. e Decoração");  // Latin-1 decoded
    EXPECT_EQ(first.market, std::nullopt);
    EXPECT_EQ(first.category, "Categoria A");
    // CEP published as 4707000: its leading zero restored, the published text kept.
    EXPECT_EQ(first.address.postal_code_published, "4707000");
    EXPECT_EQ(first.address.postal_code, "04707000");
    EXPECT_EQ(first.address.district, "JARDIM DAS ACáCIAS");
    EXPECT_EQ(first.officer_name, "EDUARDO MASSON DE ANDRADE MARTINS");
    EXPECT_EQ(first.officer_since, "2020-10-15");
    EXPECT_EQ(first.officer_address.postal_code, "04707000");
    EXPECT_EQ(first.auditor_cnpj.cnpj, "61366936000125");
    EXPECT_EQ(first.auditor_name, "ERNST & YOUNG AUDITORES INDEPENDENTES S/S");

    const CompanyRecord& securitizer = all.rows[1];  // 3A COMPANHIA SECURITIZADORA
    EXPECT_EQ(securitizer.cvm_code, 21954);
    EXPECT_EQ(securitizer.situation, "CANCELADA");
    EXPECT_EQ(securitizer.cancelled_at, "2015-12-18");
    EXPECT_EQ(securitizer.cancel_reason, "Cancelamento Voluntário - IN CVM 480/09");
    EXPECT_EQ(securitizer.sector, "Securitização de Recebíveis");
    EXPECT_EQ(securitizer.category, "Categoria B");

    // Every postal code of the extract is a CEP once restored (978 of the real file's 2,360 lost
    // a zero); every CNPJ cell is a valid CNPJ.
    for (const CompanyRecord& row : all.rows) {
        if (row.address.postal_code_published) {
            ASSERT_TRUE(row.address.postal_code) << row.cvm_code << " " << *row.address.postal_code_published;
            EXPECT_EQ(row.address.postal_code->size(), 8u);
        }
        EXPECT_EQ(row.cnpj.kind, sdk::DocumentKind::kCnpj) << row.cvm_code << " " << row.cnpj.published;
    }
}

TEST(CadReaderTest, RejectsARowNamingItsColumnAndGoesOn) {
    const ReadAll all =
        Read(kHeader + Line({{0, "08.773.135/0001-00"}, {9, "25224"}, {3, "29/10/2020"}}) +
             Line({{0, "08.773.135/0001-00"}, {9, "x12"}}) + Line({{0, "08.773.135/0001-00"}}) + "1;2;3\r\n" +
             Line({{0, "00.000.000/0000-00"}, {9, "77"}, {24, "ABC"}}));
    ASSERT_EQ(all.rejected.size(), 4u);
    EXPECT_EQ(all.rejected[0].first, 2u);
    EXPECT_NE(all.rejected[0].second.find("DT_REG is not a YYYY-MM-DD date: '29/10/2020'"), std::string::npos)
        << all.rejected[0].second;
    EXPECT_NE(all.rejected[1].second.find("CD_CVM"), std::string::npos) << all.rejected[1].second;
    EXPECT_NE(all.rejected[2].second.find("CD_CVM is empty"), std::string::npos) << all.rejected[2].second;
    EXPECT_NE(all.rejected[3].second.find("expected 47 fields, found 3"), std::string::npos)
        << all.rejected[3].second;

    // A placeholder CNPJ is kept as such, never a company's number; a CEP that is not one is null.
    ASSERT_EQ(all.rows.size(), 1u);
    EXPECT_EQ(all.rows[0].cnpj.kind, sdk::DocumentKind::kPlaceholder);
    EXPECT_EQ(all.rows[0].cnpj.cnpj, std::nullopt);
    EXPECT_EQ(all.rows[0].address.postal_code, std::nullopt);
    EXPECT_EQ(all.rows[0].address.postal_code_published, "ABC");
}

TEST(CadReaderTest, RefusesFilesThatAreNotTheRegistry) {
    // A missing column, named.
    std::string without_sit = kHeader;
    without_sit.replace(without_sit.find(";SIT;"), 5, ";SITUACAO;");
    EXPECT_NE(ErrorOf([&] { Read(without_sit); }).find("cad_cia_aberta.csv:1: missing column SIT"),
              std::string::npos)
        << ErrorOf([&] { Read(without_sit); });
    // A comma-separated copy: no column is found.
    std::string commas = kHeader;
    std::replace(commas.begin(), commas.end(), ';', ',');
    EXPECT_NE(ErrorOf([&] { Read(commas); }).find("cad_cia_aberta.csv:1:"), std::string::npos);
    // A file cut in the middle of its last line.
    const std::string cut = kHeader + Line({{0, "08.773.135/0001-00"}, {9, "25224"}}).substr(0, 40);
    EXPECT_NE(ErrorOf([&] { Read(cut); }).find("cad_cia_aberta.csv:2"), std::string::npos)
        << ErrorOf([&] { Read(cut); });
    // UTF-8 is not what CVM publishes.
    EXPECT_NE(ErrorOf([&] { Read("\xEF\xBB\xBF" + kHeader); }).find("cad_cia_aberta.csv:1"),
              std::string::npos);
}

TEST(RegistryRulesTest, RestoresPostalCodesAndRanksDuplicates) {
    EXPECT_EQ(RestorePostalCode("4707000"), "04707000");
    EXPECT_EQ(RestorePostalCode("1310100"), "01310100");
    EXPECT_EQ(RestorePostalCode("20020000"), "20020000");
    EXPECT_EQ(RestorePostalCode("01310-100"), "01310100");
    EXPECT_EQ(RestorePostalCode(" 7 "), "00000007");
    EXPECT_EQ(RestorePostalCode("123456789"), std::nullopt);
    EXPECT_EQ(RestorePostalCode("ABC"), std::nullopt);
    EXPECT_EQ(RestorePostalCode(""), std::nullopt);

    CompanyRecord older;
    older.situation_since = "1994-01-01";
    CompanyRecord newer;
    newer.situation_since = "2018-06-28";
    CompanyRecord blank;
    EXPECT_LT(DuplicateRank(older), DuplicateRank(newer));
    EXPECT_LT(DuplicateRank(blank), DuplicateRank(older));

    CompanyRecord named;
    named.legal_name = "COMPANHIA SIDERÚRGICA AÇÃO";
    named.trade_name = "Ação";
    EXPECT_EQ(CompanySearchText(named), "companhia siderurgica acao\nacao");
    EXPECT_EQ(FoldedFilter(std::optional<std::string>("  Suspenso(a) - Decisão Adm ")),
              "suspenso(a) - decisao adm");
    EXPECT_EQ(FoldedFilter(std::optional<std::string>("   ")), std::nullopt);
}

}  // namespace
}  // namespace lastro::companies
