// The FRE (reference form): its readers on CVM's published headers (../shared/datasets/real/
// cvm_headers/fre_cia_aberta_*_header.csv) and on bad lines, the rules of its cells, its ingester
// and GET /v1/companhias/fre/{cnpj}/{table}/linhas on a plugin database (SQLite, or PostgreSQL
// with LASTRO_TEST_BACKEND), fed the sample's two years on each side of CVM Resolution 59.
#include "domain/filings/filing_index_reader.hpp"
#include "domain/filings/filing_rules.hpp"
#include "domain/filings/filing_table_reader.hpp"
#include "ingest/filings/filing_ingester.hpp"
#include "sample/filings_writer.hpp"
#include "sample/sample_writer.hpp"
#include "src/handlers.hpp"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/sample/sample_directory.hpp>
#include <lastro/sdk/testing/byte_sources.hpp>
#include <lastro/sdk/testing/fake_host.hpp>
#include <lastro/sdk/testing/plugin_calls.hpp>
#include <lastro/sdk/testing/plugin_database.hpp>
#include <lastro/sdk/testing/temp_dir.hpp>

#include <gtest/gtest.h>
#include <boost/json.hpp>
#include <odb/transaction.hxx>

#include <algorithm>
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

std::string RealHeader(const std::string& member) {
    std::ifstream in(
        fs::path(LASTRO_SOURCE_DIR) / "../shared/datasets/real/cvm_headers" / (member + "_header.csv"),
        std::ios::binary);
    std::string text(std::istreambuf_iterator<char>(in), {});
    return text.substr(0, text.find('\n') + 1);
}

TEST(FilingIndexReaderTest, ReadsThePublishedLayoutAndRejectsBadLines) {
    const std::string file =
        RealHeader("fre_cia_aberta") +
        "33.000.167/0001-01;2025-01-01;2;PETROLEO BRASILEIRO S.A.;9512;FRE;0145678;2025-06-02;"
        "https://www.rad.cvm.gov.br/ENET/frmExibirArquivoFRE.aspx?NumeroSequencialDocumento=145678\r\n"
        "33.000.167/0001-01;2025-01-01;x;PETROBRAS;9512;FRE;145679;2025-06-02;https://a\r\n"
        "33.000.167/0001-01;2025-01-01;1;PETROBRAS;9512;FRE;;2025-06-02;https://a\r\n"
        "33.000.167/0001-01;2025-01-01;1;PETROBRAS;0;FRE;145680;2025-06-02;https://a\r\n"
        "33.000.167/0001-01;01/01/2025;1;PETROBRAS;9512;FRE;145681;2025-06-02;https://a\r\n";
    FilingIndexReader reader(Bytes(file, "fre_cia_aberta_2025.csv", 5));
    DocumentRecord record;
    std::string problem;
    ASSERT_EQ(reader.Next(record, problem), ReadOutcome::kRow);
    EXPECT_EQ(FilingDocumentId(record), 145678);
    EXPECT_EQ(record.protocol, "145678");  // leading zeros dropped: the id is a number
    EXPECT_EQ(record.version, 2);
    EXPECT_EQ(record.cvm_code, 9512);
    EXPECT_EQ(record.cnpj.cnpj, "33000167000101");
    EXPECT_EQ(record.category, "FRE");
    EXPECT_EQ(record.reference_date, "2025-01-01");
    EXPECT_EQ(record.delivered_at, "2025-06-02");
    std::vector<std::string> problems;
    while (reader.Next(record, problem) == ReadOutcome::kRejected) {
        problems.push_back(problem);
    }
    ASSERT_EQ(problems.size(), 4u);
    EXPECT_NE(problems[0].find("VERSAO is not a version"), std::string::npos) << problems[0];
    EXPECT_NE(problems[1].find("ID_DOC is empty"), std::string::npos) << problems[1];
    EXPECT_NE(problems[2].find("CD_CVM is not a CVM code"), std::string::npos) << problems[2];
    EXPECT_NE(problems[3].find("DT_REFER is not a YYYY-MM-DD date"), std::string::npos) << problems[3];

    std::string header = RealHeader("fre_cia_aberta");
    header.replace(header.find("ID_DOC"), 6, "IDDOC");
    EXPECT_NE(ErrorOf([&] {
                  FilingIndexReader(Bytes(header, "fre_cia_aberta_2025.csv"));
              }).find("missing column ID_DOC"),
              std::string::npos);
}

TEST(FilingTableReaderTest, KeepsTheTablesOwnColumnsAndMasksCpfs) {
    const std::string header = RealHeader("fre_cia_aberta_posicao_acionaria");
    std::vector<std::string> fields(29);
    fields[0] = "33.000.167/0001-01";
    fields[1] = "2025-01-01";
    fields[2] = "1";
    fields[3] = "145678";
    fields[4] = "PETROBRAS";
    fields[6] = "Fulano de Tal";
    fields[7] = "PF";
    fields[8] = "529.982.247-25";       // CPF_CNPJ_Acionista: a person
    fields[12] = "00.394.460/0058-87";  // CPF_CNPJ_Acionista_Relacionado: a company
    fields[14] = "50.3";
    fields[19] = "Brasileira";
    fields[24] = "1234567890";  // CPF_CNPJ_Representante_legal: fails every check
    std::string line;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        line += (i ? ";" : "") + fields[i];
    }
    FilingTableReader reader(
        Bytes(header + line + "\r\n" + "a;b\r\n", "fre_cia_aberta_posicao_acionaria_2025.csv"));
    const std::vector<std::string>& columns = reader.Columns();
    ASSERT_EQ(columns.size(), 24u);  // 29 less the key and the company's name
    EXPECT_EQ(columns.front(), "ID_Acionista");
    FilingRow row;
    std::string problem;
    ASSERT_EQ(reader.Next(row, problem), ReadOutcome::kRow);
    EXPECT_EQ(row.document_id, 145678);
    EXPECT_EQ(row.version, 1);
    EXPECT_EQ(row.cnpj.cnpj, "33000167000101");
    auto cell = [&](std::string_view column) {
        const auto at = std::find(columns.begin(), columns.end(), column) - columns.begin();
        return row.cells.at(static_cast<std::size_t>(at));
    };
    EXPECT_EQ(cell("Acionista"), "Fulano de Tal");
    EXPECT_EQ(cell("CPF_CNPJ_Acionista"), "***.982.247-**");
    EXPECT_EQ(cell("CPF_CNPJ_Acionista_Relacionado"), "00.394.460/0058-87");
    EXPECT_EQ(cell("CPF_CNPJ_Representante_legal"), "**********");
    EXPECT_EQ(cell("Quantidade_Acao_Ordinaria_Circulacao"), std::nullopt);  // blank stays missing
    ASSERT_EQ(reader.Next(row, problem), ReadOutcome::kRejected);
    EXPECT_NE(problem.find("expected 29 fields, found 2"), std::string::npos) << problem;

    EXPECT_NE(ErrorOf([] {
                  FilingTableReader(Bytes("CNPJ_Companhia;Versao;X\r\n", "t.csv"));
              }).find("missing columns Data_Referencia, ID_Documento"),
              std::string::npos);
    EXPECT_NE(ErrorOf([] {
                  FilingTableReader(
                      Bytes("CNPJ_Companhia;Data_Referencia;Versao;ID_Documento;Valor;Valor\r\n", "t.csv"));
              }).find("column Valor is named twice"),
              std::string::npos);
}

TEST(FilingRulesTest, ColumnTypesComeFromEveryCellAndIdentifiersStayText) {
    ColumnTypes types({"Valor_Capital", "Data_Posse", "Codigo_CVM", "Prazo", "Quantidade", "Vazia"});
    for (const auto& [column, cell] : std::vector<std::pair<std::size_t, std::string>>{{0, "1500000000.00"},
                                                                                       {0, "-3.5"},
                                                                                       {1, "2025-03-01"},
                                                                                       {2, "9512"},
                                                                                       {3, "12"},
                                                                                       {3, "0123"},
                                                                                       {4, "10"},
                                                                                       {4, "2025-01-01"}}) {
        types.See(column, cell);
    }
    const std::vector<CellType> kinds = types.Types();
    EXPECT_EQ(kinds[0], CellType::kNumber);
    EXPECT_EQ(kinds[1], CellType::kDate);
    EXPECT_EQ(kinds[2], CellType::kText);  // an identifier, whatever its cells
    EXPECT_EQ(kinds[3], CellType::kText);  // a leading zero: a code
    EXPECT_EQ(kinds[4], CellType::kText);  // mixed
    EXPECT_EQ(kinds[5], CellType::kText);  // never seen
    EXPECT_TRUE(IsPlainDecimal("95.73"));
    EXPECT_TRUE(IsPlainDecimal("0.5"));
    EXPECT_FALSE(IsPlainDecimal("1e5"));
    EXPECT_FALSE(IsPlainDecimal("1,5"));
    EXPECT_FALSE(IsPlainDecimal("."));
    EXPECT_EQ(MaskPersonDocument("00000000000"), "00000000000");  // CVM's placeholder
    EXPECT_EQ(MaskPersonDocument("52998224725"), "***.982.247-**");
    EXPECT_EQ(MaskPersonDocument("529.982.247-25 / 111.444.777-35"), "***.***.***-** / ***.***.***-**");
    EXPECT_TRUE(IsTableSegment("administrador_PCD"));
    EXPECT_FALSE(IsTableSegment("a/b"));
    EXPECT_FALSE(IsTableSegment(""));
}

class FreDatabase : public sdk::testing::PluginDatabase {
public:
    FreDatabase() : PluginDatabase("companies") {
        host_.SetRelease(std::string(kFre.dataset), "fre");
        CompaniesSampleWriter writer;
        writer.Write({Subdir("sample"), sdk::kDefaultSampleSeed, sdk::SampleScale::kSample});
        sdk::sample::SampleDirectory scratch(Subdir("cases"), 0);
        const CompanyUniverse universe =
            DrawCompanyUniverse(sdk::kDefaultSampleSeed, sdk::SampleScale::kSample);
        cases_ = WriteFreSample(scratch, universe, sdk::kDefaultSampleSeed, sdk::SampleScale::kSample).cases;
    }
    fs::path Sample(const std::string& name) { return Subdir("sample") / name; }
    const FilingCases& Cases() const { return cases_; }

    sdk::IngestSummary Ingest(const std::vector<fs::path>& files, std::time_t now = kFirstIngest) {
        FilingIngester ingester(kFre);
        return RunIngest(ingester, Db(), std::string(kFre.dataset), files, now);
    }
    std::string One(const std::string& query) {
        odb::transaction transaction(Db().begin());
        const sdk::SqlRows rows = sdk::SqlSession(Db()).Query(query);
        transaction.commit();
        return rows.at(0).at(0).value_or("NULL");
    }
    sdk::Result Rows(const sdk::Params& params,
                     const std::optional<boost::json::value>& cursor = std::nullopt) {
        return CallHandler(&HandleFreRows, Db(), params, host_, cursor);
    }

private:
    sdk::testing::FakeHost host_;
    FilingCases cases_;
};

std::size_t DataLines(const fs::path& zip) {
    std::size_t lines = 0;
    for (const auto& [name, bytes] : sdk::testing::ZipMemberBytes(zip)) {
        lines += static_cast<std::size_t>(std::count(bytes.begin(), bytes.end(), '\n')) - 1;
    }
    return lines;
}

TEST(FreIngesterTest, ReadsEveryMemberOfEachYearAndAppliesItAsADiff) {
    FreDatabase db;
    const fs::path old_form = db.Sample("fre_cia_aberta_2022.zip");
    const fs::path new_form = db.Sample("fre_cia_aberta_2025.zip");
    const std::size_t lines = DataLines(old_form) + DataLines(new_form);
    const sdk::IngestSummary summary = db.Ingest({new_form, old_form});
    EXPECT_EQ(summary.rows_read, lines);
    EXPECT_EQ(summary.inserted, lines);
    EXPECT_EQ(summary.rejected, 0u);
    EXPECT_EQ(summary.periods, (std::vector<std::string>{"2022", "2025"}));

    // The tables are the members found: the old form's and the new form's.
    EXPECT_EQ(
        db.One("SELECT count(*) FROM companies_filing_table WHERE table_key = 'capital_social_aumento'"),
        "1");
    EXPECT_EQ(db.One("SELECT year FROM companies_filing_table WHERE table_key = 'capital_social_aumento'"),
              "2022");
    EXPECT_EQ(
        db.One("SELECT year FROM companies_filing_table WHERE table_key = 'administrador_declaracao_genero'"),
        "2025");
    EXPECT_EQ(db.One("SELECT count(*) FROM companies_filing_table WHERE table_key = 'capital_social'"), "2");
    const std::string columns = db.One(
        "SELECT columns FROM companies_filing_table WHERE table_key = 'capital_social' AND year = 2025");
    EXPECT_NE(columns.find(R"({"name":"Valor_Capital","type":"number"})"), std::string::npos) << columns;
    EXPECT_NE(columns.find(R"({"name":"ID_Capital_Social","type":"text"})"), std::string::npos) << columns;
    // The index reached the documents, each version in its delivery.
    EXPECT_EQ(
        db.One("SELECT count(DISTINCT version) FROM companies_document WHERE kind = 'fre' AND cnpj = '" +
               db.Cases().cnpj + "' AND year = 2025"),
        "3");
    // The full CPF is never stored.
    EXPECT_EQ(db.One("SELECT count(*) FROM companies_filing_row WHERE cells LIKE '%529.982.247-25%'"), "0");

    // Both years again: nothing changes.
    const sdk::IngestSummary again = db.Ingest({old_form, new_form}, kSecondIngest);
    EXPECT_EQ(again.inserted + again.updated + again.removed, 0u);
    EXPECT_EQ(again.unchanged, lines);

    // 2025 without one table: its rows are removed, its catalog row too, 2022 untouched.
    std::vector<sdk::sample::ArchiveMember> members;
    std::size_t dropped = 0;
    for (auto& [name, bytes] : sdk::testing::ZipMemberBytes(new_form)) {
        if (name == "fre_cia_aberta_membro_comite_2025.csv") {
            dropped = static_cast<std::size_t>(std::count(bytes.begin(), bytes.end(), '\n')) - 1;
            continue;
        }
        members.push_back({name, bytes});
    }
    ASSERT_GT(dropped, 0u);
    sdk::sample::SampleDirectory out(db.Subdir("fewer"), 0);
    out.WriteZip("fre_cia_aberta_2025.zip", members);
    const sdk::IngestSummary fewer =
        db.Ingest({db.Subdir("fewer") / "fre_cia_aberta_2025.zip"}, kSecondIngest);
    EXPECT_EQ(fewer.removed, dropped);
    EXPECT_EQ(fewer.inserted + fewer.updated, 0u);
    EXPECT_EQ(db.One("SELECT count(*) FROM companies_filing_table WHERE table_key = 'membro_comite'"), "1");
}

TEST(FreIngesterTest, BadFilesAreRefusedWholeAndOrphanRowsNamed) {
    FreDatabase db;
    const fs::path new_form = db.Sample("fre_cia_aberta_2025.zip");
    auto members = sdk::testing::ZipMemberBytes(new_form);
    sdk::sample::SampleDirectory out(db.Subdir("bad"), 0);

    // No index member: refused, naming it.
    std::vector<sdk::sample::ArchiveMember> no_index;
    for (const auto& [name, bytes] : members) {
        if (name != "fre_cia_aberta_2025.csv") {
            no_index.push_back({name, bytes});
        }
    }
    out.WriteZip("fre_cia_aberta_2025.zip", no_index);
    const std::string missing = ErrorOf([&] { db.Ingest({db.Subdir("bad") / "fre_cia_aberta_2025.zip"}); });
    EXPECT_NE(missing.find("fre_cia_aberta_2025.csv"), std::string::npos) << missing;
    EXPECT_EQ(db.One("SELECT count(*) FROM companies_document"), "0");

    // A table member without its key column: refused with the member and line 1; nothing written.
    std::vector<sdk::sample::ArchiveMember> bad_header;
    for (const auto& [name, bytes] : members) {
        std::string text = bytes;
        if (name == "fre_cia_aberta_auditor_2025.csv") {
            text.replace(text.find("ID_Documento"), 12, "ID_Doc");
        }
        bad_header.push_back({name, text});
    }
    sdk::sample::SampleDirectory header_dir(db.Subdir("header"), 0);
    header_dir.WriteZip("fre_cia_aberta_2025.zip", bad_header);
    const std::string header = ErrorOf([&] { db.Ingest({db.Subdir("header") / "fre_cia_aberta_2025.zip"}); });
    EXPECT_NE(header.find("fre_cia_aberta_auditor_2025.csv"), std::string::npos) << header;
    EXPECT_NE(header.find("missing column ID_Documento"), std::string::npos) << header;
    EXPECT_EQ(db.One("SELECT count(*) FROM companies_document"), "0");
    EXPECT_EQ(db.One("SELECT count(*) FROM companies_filing_row"), "0");

    // A member separated by ',' instead of ';': refused with the member and line 1; nothing written.
    std::vector<sdk::sample::ArchiveMember> commas;
    for (const auto& [name, bytes] : members) {
        std::string text = bytes;
        if (name == "fre_cia_aberta_auditor_2025.csv") {
            std::replace(text.begin(), text.end(), ';', ',');
        }
        commas.push_back({name, text});
    }
    sdk::sample::SampleDirectory commas_dir(db.Subdir("commas"), 0);
    commas_dir.WriteZip("fre_cia_aberta_2025.zip", commas);
    const std::string separator =
        ErrorOf([&] { db.Ingest({db.Subdir("commas") / "fre_cia_aberta_2025.zip"}); });
    EXPECT_NE(separator.find("fre_cia_aberta_auditor_2025.csv"), std::string::npos) << separator;
    EXPECT_EQ(db.One("SELECT count(*) FROM companies_filing_row"), "0");

    // A truncated zip: refused naming the file.
    std::ifstream in(new_form, std::ios::binary);
    std::string zip(std::istreambuf_iterator<char>(in), {});
    const fs::path cut = db.Subdir("cut") / "fre_cia_aberta_2025.zip";
    std::ofstream(cut, std::ios::binary) << zip.substr(0, zip.size() / 2);
    EXPECT_NE(ErrorOf([&] { db.Ingest({cut}); }).find("fre_cia_aberta_2025.zip"), std::string::npos);

    // A row whose document is not in the index: rejected with its line, the rest ingested.
    std::vector<sdk::sample::ArchiveMember> orphan;
    for (const auto& [name, bytes] : members) {
        std::string text = bytes;
        if (name == "fre_cia_aberta_capital_social_2025.csv") {
            const std::size_t second = text.find('\n') + 1;
            const std::string line = text.substr(second, text.find('\n', second) - second + 1);
            std::vector<std::string> fields;
            std::size_t from = 0;
            for (std::size_t semicolon; (semicolon = line.find(';', from)) != std::string::npos;
                 from = semicolon + 1) {
                fields.push_back(line.substr(from, semicolon - from));
            }
            fields.push_back(line.substr(from));
            fields[3] = "999999999";
            std::string changed;
            for (std::size_t i = 0; i < fields.size(); ++i) {
                changed += (i ? ";" : "") + fields[i];
            }
            text += changed;
        }
        orphan.push_back({name, text});
    }
    sdk::sample::SampleDirectory orphan_dir(db.Subdir("orphan"), 0);
    orphan_dir.WriteZip("fre_cia_aberta_2025.zip", orphan);
    const sdk::IngestSummary summary = db.Ingest({db.Subdir("orphan") / "fre_cia_aberta_2025.zip"});
    EXPECT_EQ(summary.rejected, 1u);
    ASSERT_FALSE(summary.rejections.empty());
    EXPECT_NE(summary.rejections[0].find("ID_Documento 999999999 is not in the year's index"),
              std::string::npos)
        << summary.rejections[0];
}

TEST(FreRowsTest, LatestVersionByDefaultAVersionOrWhatWasKnownAtADate) {
    FreDatabase db;
    db.Ingest({db.Sample("fre_cia_aberta_2022.zip"), db.Sample("fre_cia_aberta_2025.zip")});
    const FilingCases& cases = db.Cases();
    sdk::Params params;
    params.Set("cnpj", cases.cnpj);
    params.Set("table", std::string("Capital_Social"));  // tables ignore case
    auto capital = [&](const sdk::Params& asked) {
        std::map<std::string, std::string> by_reference;  // reference date -> the first row's capital
        const sdk::Result result = db.Rows(asked);
        for (const auto& item : result.data.as_array()) {
            const auto& row = item.as_object();
            const std::string reference(row.at("reference_date").as_string());
            if (row.at("row").as_int64() == 1 && !by_reference.contains(reference)) {
                by_reference[reference] = std::to_string(static_cast<std::int64_t>(
                                              row.at("values").at("Valor_Capital").to_number<double>())) +
                                          "@v" + std::to_string(row.at("version").as_int64());
            }
        }
        return by_reference;
    };
    const auto latest = capital(params);
    EXPECT_EQ(latest.at("2025-01-01"), "2000000000@v3");  // a number
    EXPECT_EQ(latest.at("2022-01-01").substr(latest.at("2022-01-01").find("@")), "@v1");
    sdk::Params second = params;
    second.Set("version", std::int64_t{2});
    EXPECT_EQ(capital(second).at("2025-01-01"), "1750000000@v2");
    sdk::Params known = params;
    known.Set("as_of", sdk::Date::Parse(cases.delivered[1]).value());
    const auto then = capital(known);
    EXPECT_EQ(then.at("2025-01-01"), "1750000000@v2");
    sdk::Params before = params;
    before.Set("as_of", sdk::Date{2025, 1, 31});
    EXPECT_FALSE(capital(before).contains("2025-01-01"));  // not delivered yet

    // Every row says which version it is and whether a later one exists.
    sdk::Params everything = second;
    const sdk::Result second_rows = db.Rows(everything);
    ASSERT_FALSE(second_rows.data.as_array().empty());
    for (const auto& item : second_rows.data.as_array()) {
        EXPECT_FALSE(item.at("latest_version").as_bool());
        EXPECT_EQ(item.at("cvm_code").as_int64(), cases.cvm_code);
    }

    // Percentages stay percentages; a CPF is masked; CVM's placeholder CNPJ is kept as published.
    sdk::Params spread = params;
    spread.Set("table", std::string("distribuicao_capital"));
    const sdk::Result spread_result = db.Rows(spread);
    ASSERT_FALSE(spread_result.data.as_array().empty());
    // The published digits reach the answer's text.
    ASSERT_TRUE(spread_result.data_json);
    EXPECT_NE(spread_result.data_json->find("\"Percentual_Total_Acoes_Circulacao\":95.73"),
              std::string::npos);
    sdk::Params holders = params;
    holders.Set("table", std::string("posicao_acionaria"));
    EXPECT_EQ(db.Rows(holders).data.as_array()[0].at("values").at("CPF_CNPJ_Acionista").as_string(),
              "***.982.247-**");
    sdk::Params holdings = params;
    holdings.Set("table", std::string("participacao_sociedade"));
    EXPECT_EQ(db.Rows(holdings).data.as_array()[0].at("values").at("CNPJ").as_string(), "00000000000000");

    // Pages of 2 walk the same rows.
    sdk::Params all = params;
    all.Set("table", std::string("posicao_acionaria"));
    all.Set("limit", std::int64_t{500});
    const auto whole = db.Rows(all).data.as_array();
    std::vector<std::string> walked;
    std::optional<boost::json::value> cursor;
    do {
        sdk::Params page = all;
        page.Set("limit", std::int64_t{2});
        const sdk::Result result = db.Rows(page, cursor);
        for (const auto& item : result.data.as_array()) {
            walked.push_back(boost::json::serialize(item));
        }
        cursor = result.meta.next_position;
    } while (cursor);
    ASSERT_EQ(walked.size(), whole.size());
    for (std::size_t i = 0; i < walked.size(); ++i) {
        EXPECT_EQ(walked[i], boost::json::serialize(whole[i]));
    }
}

TEST(FreRowsTest, UnknownTablesCompaniesAndVersionsAreNotFoundNamingWhatExists) {
    FreDatabase db;
    db.Ingest({db.Sample("fre_cia_aberta_2022.zip"), db.Sample("fre_cia_aberta_2025.zip")});
    sdk::Params params;
    params.Set("cnpj", db.Cases().cnpj);
    params.Set("table", std::string("capital_social_reducao"));
    try {
        db.Rows(params);
        ADD_FAILURE() << "no 404";
    } catch (const sdk::NotFound& error) {
        EXPECT_EQ(error.Parameter(), "table");
        const std::string detail = error.what();
        EXPECT_NE(detail.find("capital_social_aumento (2022)"), std::string::npos) << detail;
        EXPECT_NE(detail.find("capital_social (2022, 2025)"), std::string::npos) << detail;
        EXPECT_NE(detail.find("administrador_declaracao_genero (2025)"), std::string::npos) << detail;
    }
    sdk::Params stranger = params;
    stranger.Set("table", std::string("capital_social"));
    stranger.Set("cnpj", std::string("11222333000181"));
    try {
        db.Rows(stranger);
        ADD_FAILURE() << "no 404";
    } catch (const sdk::NotFound& error) {
        EXPECT_EQ(error.Parameter(), "cnpj");
    }
    sdk::Params version = params;
    version.Set("table", std::string("capital_social"));
    version.Set("version", std::int64_t{7});
    try {
        db.Rows(version);
        ADD_FAILURE() << "no 404";
    } catch (const sdk::NotFound& error) {
        EXPECT_EQ(error.Parameter(), "version");
        EXPECT_NE(std::string(error.what()).find("its versions: 1, 2, 3"), std::string::npos) << error.what();
    }
    sdk::Params both = version;
    both.Set("version", std::int64_t{1});
    both.Set("as_of", sdk::Date{2025, 6, 1});
    EXPECT_THROW(db.Rows(both), sdk::BadRequest);
}

}  // namespace
}  // namespace lastro::companies
