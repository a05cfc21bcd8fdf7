// COTAHIST: the reader and the ingester on B3's real files (../shared/datasets/real/b3/: a daily
// edition of 2016 truncated by its origin, two complete days of February 2022), checked against
// the bytes of the file as B3's layout numbers them, and on bad files.
#include "domain/cotahist/cotahist_reader.hpp"
#include "domain/cotahist/instrument_class.hpp"
#include "ingest/cotahist/cotahist_ingester.hpp"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/testing/byte_sources.hpp>
#include <lastro/sdk/testing/plugin_calls.hpp>
#include <lastro/sdk/testing/plugin_database.hpp>
#include <lastro/sdk/text.hpp>

#include <gtest/gtest.h>
#include <odb/transaction.hxx>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace lastro::stocks {
namespace {

namespace fs = std::filesystem;
using sdk::testing::RunIngest;

constexpr std::time_t kIngestTime = 1790000000;  // 2026-09-21

fs::path Real(const std::string& name) {
    return fs::path(LASTRO_SOURCE_DIR) / "../shared/datasets/real/b3" / name;
}

std::string ReadAll(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// The line of `ticker` with market type `market` in a COTAHIST text, cut by the layout's
// positions independently of the reader: the test's own reading of the bytes.
std::string LineOf(const std::string& text, const std::string& ticker, const std::string& market) {
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) {
            end = text.size();
        }
        const std::string line = text.substr(start, end - start);
        std::string code = line.size() > 24 ? line.substr(12, 12) : "";
        code.erase(code.find_last_not_of(' ') + 1);
        if (line.starts_with("01") && code == ticker && line.substr(24, 3) == market) {
            return line;
        }
        start = end + 1;
    }
    return {};
}

long long Digits(const std::string& line, std::size_t position, std::size_t length) {
    return std::stoll(line.substr(position - 1, length));
}

class CotahistDatabase : public sdk::testing::PluginDatabase {
public:
    CotahistDatabase() : PluginDatabase("stocks") {}

    sdk::SqlRows Query(const std::string& sql, std::initializer_list<sdk::SqlValue> params = {}) {
        odb::transaction transaction(Db().begin());
        sdk::SqlRows rows = sdk::SqlSession(Db()).Query(sql, params);
        transaction.commit();
        return rows;
    }
};

TEST(CotahistReaderTest, TruncatedDailyFileReadsWholeAndNamesBothCounts) {
    CotahistReader reader(sdk::OpenFile(Real("COTAHIST_D04012016.TXT")));
    QuoteRecord record;
    std::string problem;
    std::size_t quotes = 0;
    bool bbas3 = false;
    for (CotahistReader::Outcome outcome;
         (outcome = reader.Next(record, problem)) != CotahistReader::Outcome::kEnd;) {
        ASSERT_EQ(outcome, CotahistReader::Outcome::kQuote) << problem;
        ++quotes;
        if (record.ticker == "BBAS3" && record.market_type == kMarketCash) {
            bbas3 = true;
            EXPECT_EQ(record.close, 1424);  // PREULT 0000000001424: R$ 14.24
            EXPECT_EQ(record.quotation_factor, 1);
            EXPECT_EQ(record.isin, "BRBBASACNOR3");
            EXPECT_EQ(record.day.ToString(), "2016-01-04");
            EXPECT_EQ(record.term, "");
        }
    }
    EXPECT_TRUE(bbas3);
    ASSERT_TRUE(reader.Header());
    EXPECT_EQ(reader.Header()->edition, "COTAHIST.2016");
    EXPECT_EQ(reader.DeclaredRecords(), 1745);
    EXPECT_EQ(reader.RecordsRead(), 506);
    std::int64_t dropped = 0;
    for (const auto& [market, count] : reader.Dropped()) {
        dropped += count;
    }
    EXPECT_EQ(static_cast<std::int64_t>(quotes) + dropped + 2, 506);
    ASSERT_TRUE(reader.CountProblem());
    EXPECT_NE(reader.CountProblem()->find("the trailer declares 1,745 records, the file has 506"),
              std::string::npos)
        << *reader.CountProblem();
}

// Found by fuzz/cotahist_reader (its seed regression_latin1_bytes_in_premin.txt): a field that is
// no number rejects its line with a reason quoting the field's bytes, which are ISO-8859-1 as the
// file is; the reason is UTF-8, those bytes read as the file's text.
TEST(CotahistReaderTest, AFieldOfLatin1BytesRejectsItsLineWithAUtf8Reason) {
    const std::string text = ReadAll(Real("COTAHIST_D04012016.TXT"));
    std::string line = LineOf(text, "BBAS3", "010");
    ASSERT_FALSE(line.empty());
    line.replace(83 - 1 + 9, 4, "\xD4\xC8\xC8\xC9");  // PREMIN (83, 13): "000000000" then 4 bytes
    CotahistReader reader(sdk::testing::Bytes(line + "\r\n", "COTAHIST_D04012016.TXT"));
    QuoteRecord record;
    std::string problem;
    ASSERT_EQ(reader.Next(record, problem), CotahistReader::Outcome::kRejected);
    EXPECT_EQ(record.line, 1u);
    EXPECT_TRUE(sdk::IsValidUtf8(problem)) << problem;
    EXPECT_NE(problem.find("PREMIN"), std::string::npos) << problem;
    EXPECT_NE(problem.find("000000000\u00d4\u00c8\u00c8\u00c9"), std::string::npos) << problem;
    EXPECT_EQ(reader.Next(record, problem), CotahistReader::Outcome::kEnd);
}

TEST(CotahistReaderTest, ClassesAndSegmentsFromTheSpecification) {
    EXPECT_EQ(InstrumentClass("ON      NM", 2), "ON");
    EXPECT_EQ(InstrumentClass("PNA     N1", 2), "PNA");
    EXPECT_EQ(InstrumentClass("PN  EJ  N1", 96), "PN");
    EXPECT_EQ(InstrumentClass("UNT     N2", 2), "UNIT");
    EXPECT_EQ(InstrumentClass("DRN", 2), "BDR");
    EXPECT_EQ(InstrumentClass("DR3", 2), "BDR");
    EXPECT_EQ(InstrumentClass("CI", 14), "ETF");
    EXPECT_EQ(InstrumentClass("CI  ER", 12), "FII");
    EXPECT_EQ(InstrumentClass("FIDCER", 14), "CI");
    EXPECT_EQ(InstrumentClass("DIR ORD NM", 10), "RIGHTS");
    EXPECT_EQ(InstrumentClass("BNS ORD NM", 22), "OTHER");
    EXPECT_EQ(ListingSegment("ON      NM"), "Novo Mercado");
    EXPECT_EQ(ListingSegment("PN  EJ  N1"), "Nível 1");
    EXPECT_EQ(ListingSegment("ON"), std::nullopt);
    EXPECT_TRUE(IsShareClass("PNB"));
    EXPECT_FALSE(IsShareClass("UNIT"));
}

TEST(CotahistIngestTest, RealDaysComeBackAsTheFilesSay) {
    CotahistDatabase db;
    CotahistIngester ingester;
    const sdk::IngestSummary first =
        RunIngest(ingester, db.Db(), "b3.cotahist",
                  {Real("COTAHIST_D04022022.TXT.zip"), Real("COTAHIST_D03022022.TXT.zip"),
                   Real("COTAHIST_D04012016.TXT")},
                  kIngestTime);
    EXPECT_GT(first.inserted, 1000u);
    EXPECT_EQ(first.updated, 0u);
    bool count_reported = false;
    for (const std::string& message : first.rejections) {
        count_reported |= message.find("declares 1,745 records, the file has 506") != std::string::npos;
    }
    EXPECT_TRUE(count_reported);
    EXPECT_EQ(first.as_of, "2022-02-04");

    // A handful of lines, each checked field by field against the bytes of the file.
    const std::string text = [] {
        // The zip's member, read by the test with the SDK's zip reader would share code with the
        // ingester; the loose 2016 file is read directly instead.
        return ReadAll(Real("COTAHIST_D04012016.TXT"));
    }();
    for (const std::string ticker : {"BBAS3", "ABEV3", "BBDC4", "CMIG4", "CBEE3"}) {
        const std::string line = LineOf(text, ticker, "010");
        ASSERT_FALSE(line.empty()) << ticker;
        const sdk::SqlRows rows = db.Query(
            "SELECT close_price, open_price, high_price, low_price, average_price, quantity, volume, trades,"
            " quotation_factor, isin, specification, bdi FROM stocks_quote WHERE ticker = $1 AND day = "
            "'2016-01-04'"
            " AND market_type = 10",
            {ticker});
        ASSERT_EQ(rows.size(), 1u) << ticker;
        EXPECT_EQ(std::stoll(*rows[0][0]), Digits(line, 109, 13)) << ticker;
        EXPECT_EQ(std::stoll(*rows[0][1]), Digits(line, 57, 13)) << ticker;
        EXPECT_EQ(std::stoll(*rows[0][2]), Digits(line, 70, 13)) << ticker;
        EXPECT_EQ(std::stoll(*rows[0][3]), Digits(line, 83, 13)) << ticker;
        EXPECT_EQ(std::stoll(*rows[0][4]), Digits(line, 96, 13)) << ticker;
        EXPECT_EQ(std::stoll(*rows[0][5]), Digits(line, 153, 18)) << ticker;
        EXPECT_EQ(std::stoll(*rows[0][6]), Digits(line, 171, 18)) << ticker;
        EXPECT_EQ(std::stoll(*rows[0][7]), Digits(line, 148, 5)) << ticker;
        EXPECT_EQ(std::stoll(*rows[0][8]), Digits(line, 211, 7)) << ticker;
        EXPECT_EQ(*rows[0][9], line.substr(230, 12)) << ticker;
        std::string specification = line.substr(39, 10);
        specification.erase(specification.find_last_not_of(' ') + 1);
        EXPECT_EQ(*rows[0][10], specification) << ticker;
        EXPECT_EQ(std::stoll(*rows[0][11]), Digits(line, 11, 2)) << ticker;
    }

    // Lines quoted per 1,000 shares keep their factor, so prices read per share.
    const sdk::SqlRows per_lot = db.Query("SELECT COUNT(*) FROM stocks_quote WHERE quotation_factor = 1000");
    EXPECT_GT(std::stoll(*per_lot[0][0]), 0);
    // Options never reach the table.
    EXPECT_EQ(*db.Query("SELECT COUNT(*) FROM stocks_quote WHERE market_type NOT IN (10, 20)")[0][0], "0");
    EXPECT_EQ(*db.Query("SELECT COUNT(*) FROM stocks_day")[0][0], "3");

    // Again, in another order: every row unchanged, nothing inserted or removed.
    const sdk::IngestSummary again =
        RunIngest(ingester, db.Db(), "b3.cotahist",
                  {Real("COTAHIST_D04012016.TXT"), Real("COTAHIST_D03022022.TXT.zip"),
                   Real("COTAHIST_D04022022.TXT.zip")},
                  kIngestTime + 60);
    EXPECT_EQ(again.inserted, 0u);
    EXPECT_EQ(again.updated, 0u);
    EXPECT_EQ(again.removed, 0u);
    EXPECT_EQ(again.unchanged, first.inserted);
}

TEST(CotahistIngestTest, BadFilesAreRefusedNamingWhatIsWrongAndWriteNothing) {
    CotahistDatabase db;
    CotahistIngester ingester;
    const fs::path dir = db.Subdir("bad");
    const std::string good = ReadAll(Real("COTAHIST_D04012016.TXT"));
    const auto write = [&](const std::string& name, const std::string& bytes) {
        std::ofstream(dir / name, std::ios::binary) << bytes;
        return dir / name;
    };
    // CBEE3 is quoted per 1,000 shares (FATCOT 0001000) in this file.
    // A last record cut short: refused by line.
    const fs::path cut = write("COTAHIST_D05012016.TXT", good.substr(0, 245 * 3 + 40));
    try {
        RunIngest(ingester, db.Db(), "b3.cotahist", {cut}, kIngestTime);
        FAIL() << "a cut record was accepted";
    } catch (const sdk::IngestError& error) {
        EXPECT_NE(std::string(error.what()).find("COTAHIST_D05012016.TXT"), std::string::npos)
            << error.what();
        EXPECT_EQ(error.Line(), 4u) << error.what();
    }
    // Not a COTAHIST name.
    const fs::path other = write("quotes.txt", good);
    EXPECT_THROW(RunIngest(ingester, db.Db(), "b3.cotahist", {other}, kIngestTime), sdk::IngestError);
    const fs::path bad_name = write("COTAHIST_D0401.TXT", good);
    EXPECT_THROW(RunIngest(ingester, db.Db(), "b3.cotahist", {bad_name}, kIngestTime), sdk::IngestError);
    // An unknown record type.
    std::string unknown = good;
    unknown.replace(247 * 5, 2, "07");  // CRLF lines of 247 bytes
    const fs::path typed = write("COTAHIST_D06012016.TXT", unknown);
    EXPECT_THROW(RunIngest(ingester, db.Db(), "b3.cotahist", {typed}, kIngestTime), sdk::IngestError);
    EXPECT_EQ(*db.Query("SELECT COUNT(*) FROM stocks_quote")[0][0], "0");
    EXPECT_EQ(*db.Query("SELECT COUNT(*) FROM stocks_day")[0][0], "0");

    // A malformed price rejects its line only, named with its column.
    std::string bad_price = good;
    const std::size_t bbas3 = bad_price.find("BBAS3       010");
    ASSERT_NE(bbas3, std::string::npos);
    bad_price.replace(bbas3 - 12 + 108, 3, "1x4");
    const fs::path priced = write("COTAHIST_D07012016.TXT", bad_price);
    const sdk::IngestSummary summary = RunIngest(ingester, db.Db(), "b3.cotahist", {priced}, kIngestTime);
    EXPECT_EQ(summary.rejected, 1u);
    ASSERT_FALSE(summary.rejections.empty());
    EXPECT_NE(summary.rejections[0].find("PREULT"), std::string::npos) << summary.rejections[0];
    EXPECT_EQ(*db.Query("SELECT COUNT(*) FROM stocks_quote WHERE ticker = 'BBAS3'")[0][0], "0");
}

TEST(CotahistIngestTest, AKeyGivenTwiceKeepsTheLaterLineAndRejectsTheEarlier) {
    CotahistDatabase db;
    CotahistIngester ingester;
    std::string text = ReadAll(Real("COTAHIST_D04012016.TXT"));
    const std::size_t start = text.find("012016010402BBAS3       010");
    ASSERT_NE(start, std::string::npos);
    std::string again = text.substr(start, 247);
    again.replace(108, 13, "0000000009999");  // PREULT R$ 99.99
    text.insert(start + 247, again);
    const fs::path file = db.Subdir("repeat") / "COTAHIST_D04012016.TXT";
    std::ofstream(file, std::ios::binary) << text;
    const sdk::IngestSummary summary = RunIngest(ingester, db.Db(), "b3.cotahist", {file}, kIngestTime);
    EXPECT_EQ(summary.rejected, 1u);
    bool named = false;
    for (const std::string& message : summary.rejections) {
        named |= message.find("BBAS3 on 2016-01-04 is given again later") != std::string::npos;
    }
    EXPECT_TRUE(named);
    const sdk::SqlRows rows =
        db.Query("SELECT close_price FROM stocks_quote WHERE ticker = 'BBAS3' AND market_type = 10");
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(*rows[0][0], "9999");
}

}  // namespace
}  // namespace lastro::stocks
