// The fixed-width reader of the ingest kit, on B3's COTAHIST layout (SeriesHistoricas_Layout:
// header 00, quotes 01, trailer 99; ../shared/datasets/DATASETS-2.md section 6.1) and on the real
// daily file of 2016-01-04 when it is at hand.
#include <lastro/sdk/byte_source.hpp>
#include <lastro/sdk/ingest/fixed_width.hpp>
#include <lastro/sdk/text.hpp>

#include <lastro/sdk/testing/byte_sources.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace lastro::sdk {
namespace {

using testing::Bytes;
using testing::ErrorOf;

std::vector<RecordLayout> CotahistLayouts() {
    using enum FieldType;
    return {
        RecordLayout("00",
                     {{"TIPREG", 1, 2}, {"NOMARQ", 3, 13}, {"CODORI", 16, 8}, {"DATGER", 24, 8, kDate}}),
        RecordLayout("01", {{"TIPREG", 1, 2},
                            {"DATPRE", 3, 8, kDate},
                            {"CODBDI", 11, 2},
                            {"CODNEG", 13, 12},
                            {"TPMERC", 25, 3, kInteger},
                            {"NOMRES", 28, 12},
                            {"ESPECI", 40, 10},
                            {"PRAZOT", 50, 3},
                            {"MODREF", 53, 4},
                            {"PREABE", 57, 13, kDecimal, 2},
                            {"PREMAX", 70, 13, kDecimal, 2},
                            {"PREMIN", 83, 13, kDecimal, 2},
                            {"PREMED", 96, 13, kDecimal, 2},
                            {"PREULT", 109, 13, kDecimal, 2},
                            {"PREOFC", 122, 13, kDecimal, 2},
                            {"PREOFV", 135, 13, kDecimal, 2},
                            {"TOTNEG", 148, 5, kInteger},
                            {"QUATOT", 153, 18, kInteger},
                            {"VOLTOT", 171, 18, kDecimal, 2},
                            {"PREEXE", 189, 13, kDecimal, 2},
                            {"INDOPC", 202, 1},
                            {"DATVEN", 203, 8, kDate, 0, "99991231"},
                            {"FATCOT", 211, 7, kInteger},
                            {"PTOEXE", 218, 13, kDecimal, 6},
                            {"CODISI", 231, 12},
                            {"DISMES", 243, 3, kInteger}}),
        RecordLayout("99", {{"TIPREG", 1, 2},
                            {"NOMARQ", 3, 13},
                            {"CODORI", 16, 8},
                            {"DATGER", 24, 8, kDate},
                            {"TOTREG", 32, 11, kInteger}}),
    };
}

// A quote record of 245 bytes with the given fields (positions of the 01 layout).
std::string QuoteRecord(const std::map<std::string, std::string>& fields) {
    std::string record(245, ' ');
    record.replace(0, 2, "01");
    const RecordLayout layout = CotahistLayouts()[1];
    for (const auto& [name, value] : fields) {
        const FixedField& field = layout.Fields()[layout.Index(name)];
        EXPECT_EQ(value.size(), field.length) << name;
        record.replace(field.start - 1, field.length, value);
    }
    return record;
}

FixedWidthReader Reader(std::string bytes) {
    return FixedWidthReader(Bytes(std::move(bytes), "COTAHIST_D04012016.TXT"), 1, 2, CotahistLayouts());
}

TEST(FixedWidthReader, ReadsTypedFieldsByPosition) {
    FixedWidthReader r = Reader(QuoteRecord({{"DATPRE", "20160104"},
                                             {"CODNEG", "BBAS3       "},
                                             {"TPMERC", "010"},
                                             {"NOMRES", "BRASIL   \xC7\xC3O"},
                                             {"PREULT", "0000000001424"},
                                             {"VOLTOT", "000000012345678901"},
                                             {"DATVEN", "99991231"},
                                             {"PTOEXE", "0000001000000"},
                                             {"FATCOT", "0001000"}}) +
                                "\r\n");
    ASSERT_TRUE(r.Next());
    const RecordLayout& quote = r.Layout();
    EXPECT_EQ(r.Type(), "01");
    EXPECT_EQ(r.Line(), 1u);
    EXPECT_EQ(r.DateValue(quote.Index("DATPRE")), (Date{2016, 1, 4}));
    EXPECT_EQ(r.Text(quote.Index("CODNEG")), "BBAS3");
    EXPECT_EQ(r.Raw(quote.Index("CODNEG")), "BBAS3       ");
    EXPECT_EQ(r.Text(quote.Index("NOMRES")), "BRASIL   ÇÃO");  // ISO-8859-1 decoded
    EXPECT_EQ(r.Integer(quote.Index("TPMERC")), 10);
    EXPECT_EQ(r.Decimal(quote.Index("PREULT")), 14.24);
    EXPECT_EQ(r.Decimal(quote.Index("VOLTOT")), 123456789.01);
    EXPECT_EQ(r.Decimal(quote.Index("PTOEXE")), 1.0);
    EXPECT_EQ(r.Integer(quote.Index("FATCOT")), 1000);
    EXPECT_EQ(r.DateValue(quote.Index("DATVEN")), std::nullopt);  // 99991231: no date
    EXPECT_EQ(r.Decimal(quote.Index("PREABE")), std::nullopt);    // blank: null, never 0
    EXPECT_EQ(r.Text(quote.Index("CODISI")), std::nullopt);
    EXPECT_FALSE(r.Next());
}

TEST(FixedWidthReader, MalformedFieldsNameTheLineAndTheField) {
    FixedWidthReader r = Reader(
        "\n" + QuoteRecord({{"DATPRE", "20160231"}, {"PREULT", "00000000014X4"}, {"TOTNEG", "12 45"}}) +
        "\n");
    ASSERT_TRUE(r.Next());
    const RecordLayout& quote = r.Layout();
    EXPECT_EQ(ErrorOf([&] { r.DateValue(quote.Index("DATPRE")); }),
              "COTAHIST_D04012016.TXT:2: DATPRE is not a YYYYMMDD date: '20160231'");
    EXPECT_EQ(ErrorOf([&] { r.Decimal(quote.Index("PREULT")); }),
              "COTAHIST_D04012016.TXT:2: PREULT is not a number of 13 digits with 2 implied decimals: "
              "'00000000014X4'");
    EXPECT_EQ(ErrorOf([&] { r.Integer(quote.Index("TOTNEG")); }),
              "COTAHIST_D04012016.TXT:2: TOTNEG is not an integer: '12 45'");
    EXPECT_THROW(r.Decimal(quote.Index("CODNEG")), std::logic_error);  // a text field
    EXPECT_THROW(quote.Index("NOPE"), std::invalid_argument);
}

TEST(FixedWidthReader, AMalformedLatin1ValueIsQuotedAsUtf8) {
    // Found by fuzz/cotahist_reader: the raw bytes of a Latin-1 file made the message, and the
    // ingest summary quoting it, invalid UTF-8.
    FixedWidthReader r = Reader(QuoteRecord({{"PREULT", "000000000\xD4\xC8\xC8\xC9"}}) + "\n");
    ASSERT_TRUE(r.Next());
    const std::string message = ErrorOf([&] { r.Decimal(r.Layout().Index("PREULT")); });
    EXPECT_TRUE(IsValidUtf8(message)) << message;
    EXPECT_NE(message.find("'000000000\u00D4\u00C8\u00C8\u00C9'"), std::string::npos) << message;
}

TEST(FixedWidthReader, UnknownAndShortRecordsAreRefused) {
    EXPECT_EQ(ErrorOf([] {
                  FixedWidthReader r = Reader("42COTAHIST\n");
                  r.Next();
              }),
              "COTAHIST_D04012016.TXT:1: unknown record type '42'");
    EXPECT_EQ(ErrorOf([] {
                  FixedWidthReader r = Reader(QuoteRecord({}).substr(0, 120));
                  r.Next();
              }),
              "COTAHIST_D04012016.TXT:1: record 01 has 120 bytes, its layout needs 245 (truncated file?)");
}

TEST(FixedWidthReader, LayoutsWrittenWrongAreRefused) {
    EXPECT_THROW(RecordLayout("01", {{"A", 0, 2}}), std::invalid_argument);
    EXPECT_THROW(RecordLayout("01", {{"A", 1, 0}}), std::invalid_argument);
    EXPECT_THROW(RecordLayout("01", {{"A", 1, 4}, {"B", 4, 2}}), std::invalid_argument);
    EXPECT_THROW(RecordLayout("01", {{"A", 1, 2, FieldType::kDecimal, 3}}), std::invalid_argument);
    EXPECT_EQ(RecordLayout("01", {{"A", 1, 2}, {"B", 10, 3}}).Width(), 12u);
}

// The real file: B3's daily COTAHIST of 2016-01-04 (../shared/datasets/real/b3/).
TEST(FixedWidthReader, RealCotahistFile) {
    const std::filesystem::path path =
        std::filesystem::path(LASTRO_SOURCE_DIR) / "../shared/datasets/real/b3/COTAHIST_D04012016.TXT";
    if (!std::filesystem::exists(path)) {
        GTEST_SKIP() << "real B3 file not present: " << path;
    }
    FixedWidthReader r(OpenFile(path), 1, 2, CotahistLayouts());
    const RecordLayout& header = r.LayoutOf("00");
    const RecordLayout& quote = r.LayoutOf("01");
    const RecordLayout& trailer = r.LayoutOf("99");
    std::size_t quotes = 0;
    std::optional<std::int64_t> declared;
    std::map<std::string, double> last_price;
    std::size_t per_lot = 0;
    while (r.Next()) {
        if (r.Type() == "00") {
            EXPECT_EQ(r.Line(), 1u);
            EXPECT_EQ(r.Text(header.Index("NOMARQ")), "COTAHIST.2016");
            EXPECT_EQ(r.DateValue(header.Index("DATGER")), (Date{2016, 1, 4}));
        } else if (r.Type() == "01") {
            ++quotes;
            EXPECT_EQ(r.DateValue(quote.Index("DATPRE")), (Date{2016, 1, 4})) << r.Line();
            const auto price = r.Decimal(quote.Index("PREULT"));
            ASSERT_TRUE(price) << r.Line();
            EXPECT_GE(*price, 0) << r.Line();
            last_price[*r.Text(quote.Index("CODNEG")) + "/" + *r.Text(quote.Index("CODBDI"))] = *price;
            // Every other field of the layout reads without error.
            r.Decimal(quote.Index("VOLTOT"));
            r.Decimal(quote.Index("PTOEXE"));
            r.Integer(quote.Index("QUATOT"));
            r.DateValue(quote.Index("DATVEN"));
            if (r.Integer(quote.Index("FATCOT")) != 1) {
                ++per_lot;
            }
        } else {
            EXPECT_EQ(r.Type(), "99");
            declared = r.Integer(trailer.Index("TOTREG"));
        }
    }
    EXPECT_EQ(quotes, 504u);
    EXPECT_EQ(last_price.at("BBAS3/02"), 14.24);
    EXPECT_EQ(last_price.at("AAPL34/02"), 42.08);
    EXPECT_EQ(per_lot, 1u);
    // The sample is truncated at its origin: the trailer declares more records than it holds,
    // which a record-count check reports rather than crashes on.
    EXPECT_EQ(declared, 1745);
    EXPECT_NE(static_cast<std::int64_t>(quotes + 2), *declared);
}

}  // namespace
}  // namespace lastro::sdk
