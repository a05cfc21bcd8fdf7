// The IPE document index: its reader on CVM's published header (../shared/datasets/real/
// cvm_headers/ipe_cia_aberta_header.csv) and on bad lines; its ingester and
// /v1/companhias/{cvm_code}/documentos on a plugin database (SQLite, or PostgreSQL with
// LASTRO_TEST_BACKEND), fed the sample's two years.
#include "domain/documents/document_rules.hpp"
#include "domain/documents/ipe_reader.hpp"
#include "domain/registry/registry_rules.hpp"
#include "ingest/cad_cia_aberta/registry_ingester.hpp"
#include "ingest/ipe_cia_aberta/ipe_ingester.hpp"
#include "sample/company_universe.hpp"
#include "sample/sample_writer.hpp"
#include "src/handlers.hpp"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/testing/byte_sources.hpp>
#include <lastro/sdk/testing/fake_host.hpp>
#include <lastro/sdk/testing/plugin_calls.hpp>
#include <lastro/sdk/testing/plugin_database.hpp>
#include <lastro/sdk/zip_archive.hpp>

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

std::string RealHeader() {
    std::ifstream in(
        fs::path(LASTRO_SOURCE_DIR) / "../shared/datasets/real/cvm_headers/ipe_cia_aberta_header.csv",
        std::ios::binary);
    std::string text(std::istreambuf_iterator<char>(in), {});
    return text.substr(0, text.find('\n') + 1);
}

std::string Line(const std::string& protocol, const std::string& version, const std::string& code = "9512",
                 const std::string& delivered = "2025-03-10",
                 const std::string& link = "https://www.rad.cvm.gov.br/x") {
    return "33.000.167/0001-01;PETROLEO BRASILEIRO S.A. - PETROBRAS;" + code +
           ";2025-03-07;Fato Relevante;;;Aquisi\xE7\xE3o;" + delivered + ";AP - Apresenta\xE7\xE3o;" +
           protocol + ";" + version + ";" + link + "\r\n";
}

TEST(IpeReaderTest, ReadsThePublishedLayoutAndRejectsBadLines) {
    const std::string file =
        RealHeader() + Line("009512IPE100320250100000001-01", "1") +
        Line("009512IPE100320250100000002-02", "x") + Line("", "1") +
        Line("009512IPE100320250100000003-03", "1", "9512", "10/03/2025") +
        Line("009512IPE100320250100000004-04", "1", "9512", "2025-03-10", "javascript:alert(1)") + "a;b\r\n";
    IpeReader reader(Bytes(file, "ipe_cia_aberta_2025.csv", 7));
    DocumentRecord record;
    std::string problem;
    ASSERT_EQ(reader.Next(record, problem), ReadOutcome::kRow);
    EXPECT_EQ(record.protocol, "009512IPE100320250100000001-01");
    EXPECT_EQ(record.version, 1);
    EXPECT_EQ(record.cvm_code, 9512);
    EXPECT_EQ(record.cnpj.cnpj, "33000167000101");
    EXPECT_EQ(record.subject, "Aquisição");  // Latin-1 decoded
    EXPECT_EQ(record.presentation, "AP - Apresentação");
    EXPECT_EQ(record.type, std::nullopt);
    EXPECT_EQ(record.link, "https://www.rad.cvm.gov.br/x");
    std::vector<std::string> problems;
    while (reader.Next(record, problem) == ReadOutcome::kRejected) {
        problems.push_back(problem);
    }
    ASSERT_EQ(problems.size(), 5u);
    EXPECT_NE(problems[0].find("Versao"), std::string::npos) << problems[0];
    EXPECT_NE(problems[1].find("Protocolo_Entrega is empty"), std::string::npos) << problems[1];
    EXPECT_NE(problems[2].find("Data_Entrega is not a YYYY-MM-DD date"), std::string::npos) << problems[2];
    EXPECT_NE(problems[3].find("Link_Download is not an http(s) link"), std::string::npos) << problems[3];
    EXPECT_NE(problems[4].find("expected 13 fields, found 2"), std::string::npos) << problems[4];

    std::string header = RealHeader();
    header.replace(header.find("Versao"), 6, "Version");
    EXPECT_NE(
        ErrorOf([&] { IpeReader(Bytes(header, "ipe_cia_aberta_2025.csv")); }).find("missing column Versao"),
        std::string::npos);
}

class DocumentsDatabase : public sdk::testing::PluginDatabase {
public:
    DocumentsDatabase() : PluginDatabase("companies") {
        host_.SetRelease(std::string(kIpeDataset), "ipe");
        host_.SetRelease(std::string(kRegistryDataset), "cad");
        CompaniesSampleWriter writer;
        writer.Write({Subdir("sample"), sdk::kDefaultSampleSeed, sdk::SampleScale::kSample});
    }
    fs::path Sample(const std::string& name) { return Subdir("sample") / name; }

    sdk::IngestSummary Ingest(const std::vector<fs::path>& files, std::time_t now = kFirstIngest) {
        IpeIngester ingester;
        return RunIngest(ingester, Db(), std::string(kIpeDataset), files, now);
    }
    void IngestRegistry() {
        RegistryIngester ingester;
        RunIngest(ingester, Db(), std::string(kRegistryDataset), {Sample("cad_cia_aberta.csv")},
                  kFirstIngest);
    }
    std::string One(const std::string& query) {
        odb::transaction transaction(Db().begin());
        const sdk::SqlRows rows = sdk::SqlSession(Db()).Query(query);
        transaction.commit();
        return rows.at(0).at(0).value_or("NULL");
    }
    sdk::Result Documents(const sdk::Params& params,
                          const std::optional<boost::json::value>& cursor = std::nullopt) {
        return CallHandler(&HandleCompanyDocuments, Db(), params, host_, cursor);
    }

private:
    sdk::testing::FakeHost host_;
};

// The sample's rows of one year, read back from its zip (lines after the header).
std::vector<std::string> SampleLines(const fs::path& zip, const std::string& member) {
    sdk::ZipArchive archive(zip);
    std::unique_ptr<sdk::ByteSource> source = archive.Open(member);
    std::string text;
    char buffer[1 << 16];
    for (std::size_t read; (read = source->Read(buffer, sizeof buffer)) > 0;) {
        text.append(buffer, read);
    }
    std::vector<std::string> lines;
    for (std::size_t start = text.find('\n') + 1; start < text.size();) {
        const std::size_t end = text.find('\n', start);
        lines.push_back(text.substr(start, end - start));
        start = end == std::string::npos ? text.size() : end + 1;
    }
    return lines;
}

TEST(IpeIngesterTest, AppliesEachYearAsADiffByProtocolAndVersion) {
    DocumentsDatabase db;
    const auto lines2025 = SampleLines(db.Sample("ipe_cia_aberta_2025.zip"), "ipe_cia_aberta_2025.csv");
    const auto lines2026 = SampleLines(db.Sample("ipe_cia_aberta_2026.zip"), "ipe_cia_aberta_2026.csv");
    const sdk::IngestSummary summary =
        db.Ingest({db.Sample("ipe_cia_aberta_2026.zip"), db.Sample("ipe_cia_aberta_2025.zip")});
    EXPECT_EQ(summary.rows_read, lines2025.size() + lines2026.size());
    EXPECT_EQ(summary.inserted, lines2025.size() + lines2026.size() - 1);  // the line listed twice
    EXPECT_EQ(summary.rejected, 1u);
    ASSERT_EQ(summary.periods, (std::vector<std::string>{"2025", "2026"}));
    bool named_repeat = false;
    bool named_placeholder = false;
    for (const std::string& message : summary.rejections) {
        named_repeat |= message.find("is listed again later") != std::string::npos;
        named_placeholder |=
            message.find("1 deliveries whose CNPJ_Companhia is not a valid CNPJ") != std::string::npos;
    }
    EXPECT_TRUE(named_repeat);
    EXPECT_TRUE(named_placeholder);
    EXPECT_EQ(db.One("SELECT cnpj_kind FROM companies_document WHERE cnpj IS NULL"), "placeholder");

    // Both years again: nothing changes. 2025 alone with one line less: that delivery is removed
    // and 2026 untouched.
    const sdk::IngestSummary again = db.Ingest(
        {db.Sample("ipe_cia_aberta_2025.zip"), db.Sample("ipe_cia_aberta_2026.zip")}, kSecondIngest);
    EXPECT_EQ(again.inserted + again.updated + again.removed, 0u);
    std::string fewer =
        "CNPJ_Companhia;Nome_Companhia;Codigo_CVM;Data_Referencia;Categoria;Tipo;Especie;Assunto;"
        "Data_Entrega;Tipo_Apresentacao;Protocolo_Entrega;Versao;Link_Download\n";
    for (std::size_t i = 1; i < lines2025.size(); ++i) {
        fewer += lines2025[i] + "\n";
    }
    const fs::path csv = db.Subdir("in") / "ipe_cia_aberta_2025.csv";
    std::ofstream(csv, std::ios::binary) << fewer;
    const sdk::IngestSummary fewer_summary = db.Ingest({csv}, kSecondIngest);
    EXPECT_EQ(fewer_summary.removed, 1u);
    EXPECT_EQ(fewer_summary.inserted, 0u);
    EXPECT_EQ(db.One("SELECT count(*) FROM companies_document WHERE year = 2026"),
              std::to_string(lines2026.size()));
}

TEST(CompanyDocumentsTest, LatestVersionsNewestFirstFilteredAndPaged) {
    DocumentsDatabase db;
    db.IngestRegistry();
    db.Ingest({db.Sample("ipe_cia_aberta_2025.zip"), db.Sample("ipe_cia_aberta_2026.zip")});
    const std::string code = db.One(
        "SELECT cvm_code FROM companies_document WHERE protocol IN (SELECT protocol FROM companies_document"
        " WHERE version = 2) LIMIT 1");

    sdk::Params latest;
    latest.Set("cvm_code", std::stoll(code));
    latest.Set("limit", std::int64_t{500});
    const sdk::Result one = db.Documents(latest);
    sdk::Params every = latest;
    every.Set("versions", std::string("all"));
    const sdk::Result all = db.Documents(every);
    EXPECT_EQ(all.data.as_array().size(), one.data.as_array().size() + 1);
    std::set<std::string> protocols;
    std::string previous = "9999-99-99";
    for (const auto& item : one.data.as_array()) {
        EXPECT_TRUE(protocols.insert(std::string(item.at("protocol").as_string())).second);
        EXPECT_TRUE(item.at("latest_version").as_bool());
        const std::string delivered(item.at("delivered_at").as_string());
        EXPECT_LE(delivered, previous);  // newest first
        previous = delivered;
        EXPECT_TRUE(std::string(item.at("link").as_string()).starts_with("https://www.rad.cvm.gov.br/"));
    }

    // Pages of 2 walk the same rows.
    std::vector<std::string> walked;
    std::optional<boost::json::value> cursor;
    do {
        sdk::Params page = every;
        page.Set("limit", std::int64_t{2});
        const sdk::Result result = db.Documents(page, cursor);
        for (const auto& item : result.data.as_array()) {
            walked.push_back(std::string(item.at("protocol").as_string()) + "/" +
                             std::to_string(item.at("version").as_int64()));
        }
        cursor = result.meta.next_position;
    } while (cursor);
    ASSERT_EQ(walked.size(), all.data.as_array().size());
    for (std::size_t i = 0; i < walked.size(); ++i) {
        EXPECT_EQ(walked[i], std::string(all.data.as_array()[i].at("protocol").as_string()) + "/" +
                                 std::to_string(all.data.as_array()[i].at("version").as_int64()));
    }

    // Category folded; dates.
    sdk::Params facts = latest;
    facts.Set("category", std::string("fato relevante"));
    const sdk::Result fact_rows = db.Documents(facts);
    for (const auto& item : fact_rows.data.as_array()) {
        EXPECT_EQ(item.at("category").as_string(), "Fato Relevante");
    }
    sdk::Params late = latest;
    late.Set("delivered_from", sdk::Date{2026, 1, 1});
    const sdk::Result recent = db.Documents(late);
    for (const auto& item : recent.data.as_array()) {
        EXPECT_GE(std::string(item.at("delivered_at").as_string()), "2026-01-01");
    }

    // An unknown company is a 404 naming cvm_code; a known one without documents, an empty page.
    sdk::Params unknown;
    unknown.Set("cvm_code", std::int64_t{99999990});
    try {
        db.Documents(unknown);
        ADD_FAILURE() << "no 404";
    } catch (const sdk::NotFound& error) {
        EXPECT_EQ(error.Parameter(), "cvm_code");
    }
    sdk::Params far = latest;
    far.Set("delivered_from", sdk::Date{2030, 1, 1});
    EXPECT_TRUE(db.Documents(far).data.as_array().empty());
}

}  // namespace
}  // namespace lastro::companies

namespace lastro::companies {
namespace {

// Scale full writes the real files' sizes: the registry's 2,677 companies (one listed twice, and
// the newcomer only in the current snapshot), about 48,000 IPE deliveries and 130,000 FRE table
// rows a year.
TEST(CompaniesSampleTest, ScaleFullWritesTheRealFilesSizes) {
    sdk::testing::PluginDatabase scratch("companies");
    const fs::path out = scratch.Subdir("full");
    CompaniesSampleWriter writer;
    const sdk::SampleReport report = writer.Write({out, sdk::kDefaultSampleSeed, sdk::SampleScale::kFull});
    std::map<std::string, std::size_t> counts;
    for (const sdk::SampleCount& count : report.counts) {
        counts[count.name] = count.count;
    }
    EXPECT_EQ(counts["companies"], kFullCompanies + 2);  // the re-registered code and the newcomer
    const std::size_t year2025 =
        SampleLines(out / "ipe_cia_aberta_2025.zip", "ipe_cia_aberta_2025.csv").size();
    EXPECT_GT(year2025, 40'000u);  // the real 2025 file: 49,277
    EXPECT_LT(year2025, 60'000u);
    EXPECT_EQ(year2025 + SampleLines(out / "ipe_cia_aberta_2026.zip", "ipe_cia_aberta_2026.csv").size(),
              counts["IPE deliveries"]);
    // The FRE: about 130,000 table rows a year (the real 2025 zip: 131,000 in 35 tables) and a few
    // thousand documents (4,931 index lines in 2025), in each of the two years.
    EXPECT_GT(counts["FRE table rows"], 2 * 110'000u);
    EXPECT_LT(counts["FRE table rows"], 2 * 160'000u);
    EXPECT_GT(counts["FRE documents"], 2 * 1'500u);
    EXPECT_LT(counts["FRE documents"], 2 * 5'500u);
}

}  // namespace
}  // namespace lastro::companies
