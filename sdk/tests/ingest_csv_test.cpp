// The typed CSV reads of the ingest kit: both encodings, both separators, decimals with a point
// or a comma, dates, integers, nulls, and errors that name the line and the column.
#include <lastro/sdk/ingest/csv.hpp>

#include <lastro/sdk/testing/byte_sources.hpp>

#include <gtest/gtest.h>

#include <array>
#include <functional>
#include <string>
#include <string_view>

namespace lastro::sdk {
namespace {

using testing::Bytes;
using testing::ErrorOf;

CsvReader Reader(std::string bytes, CsvFormat format = CsvFormat::Cvm(), std::string name = "test.csv") {
    return CsvReader(Bytes(std::move(bytes), std::move(name)), format);
}

TEST(CsvReaderTyped, CvmRowReadByHeaderName) {
    // ISO-8859-1 bytes, as CVM publishes them.
    CsvReader r = Reader(
        "CNPJ_FUNDO;DENOM_SOCIAL;VL_PATRIM_LIQ;DT_COMPTC;NR_COTST\r\n"
        "12.345.678/0001-95;FIDC CR\xC9"
        "DITO ; -1234.56;2024-06-30; 007\r\n");
    const std::size_t cnpj = r.Require("CNPJ_FUNDO");
    const std::size_t name = r.Require("DENOM_SOCIAL");
    const std::size_t nav = r.Require("VL_PATRIM_LIQ");
    const std::size_t date = r.Require("DT_COMPTC");
    const std::size_t count = r.Require("NR_COTST");
    ASSERT_TRUE(r.Next());
    EXPECT_EQ(r.Cnpj(cnpj), "12345678000195");
    EXPECT_EQ(r.Text(name), "FIDC CRÉDITO");  // trimmed, UTF-8
    EXPECT_EQ(r.Decimal(nav), -1234.56);
    EXPECT_EQ(r.DateValue(date), (Date{2024, 6, 30}));
    EXPECT_EQ(r.IsoDate(date), "2024-06-30");
    EXPECT_EQ(r.Integer(count), 7);
    EXPECT_FALSE(r.FieldCountProblem());
}

TEST(CsvReaderTyped, Utf8CommaSeparatedWithDecimalCommaAndBrazilianDates) {
    const CsvFormat format{TextEncoding::kUtf8, ',', ',', DateFormat::kBrazilian};
    // A comma-separated file with a comma decimal cannot quote; its numbers carry no point.
    CsvReader r = Reader(
        "\xEF\xBB\xBF"
        "data,valor,nome\n02/01/2024,\"0,5\",x\n31/12/2023,13,Crédito\n",
        format);
    EXPECT_EQ(r.Header().front(), "data");  // the byte order mark is dropped
    ASSERT_TRUE(r.Next());
    EXPECT_EQ(r.FieldCountProblem(), "expected 3 fields, found 4");  // quoting is off
    ASSERT_TRUE(r.Next());
    EXPECT_EQ(r.DateValue(0), (Date{2023, 12, 31}));
    EXPECT_EQ(r.Decimal(1), 13.0);
    EXPECT_EQ(r.Text(2), "Crédito");

    const CsvFormat semicolon{TextEncoding::kUtf8, ';', ',', DateFormat::kBrazilian};
    CsvReader sgs = Reader("data;valor\n02/01/2024;0,043739\n", semicolon);
    ASSERT_TRUE(sgs.Next());
    EXPECT_DOUBLE_EQ(*sgs.Decimal(sgs.Require("valor")), 0.043739);
    EXPECT_EQ(sgs.IsoDate(sgs.Require("data")), "2024-01-02");
}

TEST(CsvReaderTyped, AnEmptyCellStaysNullNeverZero) {
    CsvReader r = Reader("a;b;c;d;e;f\n;  ;\t;;;\n");
    ASSERT_TRUE(r.Next());
    EXPECT_EQ(r.Text(0), std::nullopt);
    EXPECT_EQ(r.Text(1), std::nullopt);  // blanks only
    EXPECT_EQ(r.Decimal(2), std::nullopt);
    EXPECT_EQ(r.Integer(3), std::nullopt);
    EXPECT_EQ(r.DateValue(4), std::nullopt);
    EXPECT_EQ(r.Cnpj(5), std::nullopt);
    EXPECT_EQ(r.Document(5), std::nullopt);
    EXPECT_EQ(ErrorOf([&] { r.RequiredText(0); }), "test.csv:2: a is empty");
}

TEST(CsvReaderTyped, MalformedValuesNameTheLineAndTheColumn) {
    CsvReader r =
        Reader("ID;VALOR;DATA;CNPJ;DIAS\n1;10.5;2024-01-31;12345678000195;3\n2;1.234,56;31/01/2024;123;-4\n");
    ASSERT_TRUE(r.Next());
    ASSERT_TRUE(r.Next());
    EXPECT_EQ(ErrorOf([&] { r.Decimal(1); }), "test.csv:3: VALOR is not a number: '1.234,56'");
    EXPECT_EQ(ErrorOf([&] { r.Decimal(1, Sign::kAny, "a plain decimal such as 1000.00"); }),
              "test.csv:3: VALOR is not a plain decimal such as 1000.00: '1.234,56'");
    EXPECT_EQ(ErrorOf([&] { r.DateValue(2); }), "test.csv:3: DATA is not a YYYY-MM-DD date: '31/01/2024'");
    EXPECT_EQ(ErrorOf([&] { r.Cnpj(3); }), "test.csv:3: CNPJ is not a valid CNPJ: '123'");
    EXPECT_EQ(ErrorOf([&] { r.Integer(4, Sign::kNonNegative, "a non-negative integer"); }),
              "test.csv:3: DIAS is not a non-negative integer: '-4'");
    EXPECT_EQ(r.Integer(4), -4);
    try {
        r.Decimal(1);
        FAIL() << "expected FieldError";
    } catch (const FieldError& error) {
        EXPECT_EQ(error.Line(), 3u);
        EXPECT_EQ(error.Column(), "VALOR");
        EXPECT_EQ(error.Reason(), "VALOR is not a number: '1.234,56'");
    }
}

TEST(CsvReaderTyped, HeaderChecks) {
    CsvReader r = Reader("CNPJ_FUNDO;DENOM_SOCIAL\n");
    EXPECT_EQ(r.FindAny({"CNPJ_FUNDO_CLASSE", "CNPJ_FUNDO"}), 0u);
    EXPECT_EQ(r.RequireAny({"CNPJ_FUNDO_CLASSE", "CNPJ_FUNDO"}), 0u);
    EXPECT_EQ(ErrorOf([&] { r.RequireAny({"TP_FUNDO_CLASSE", "TP_FUNDO"}); }),
              "test.csv:1: missing column TP_FUNDO_CLASSE (or TP_FUNDO)");
    EXPECT_EQ(ErrorOf([&] { r.Require("DT_COMPTC"); }), "test.csv:1: missing column DT_COMPTC");

    constexpr std::array<std::string_view, 2> kExact = {"CNPJ_FUNDO", "DENOM_SOCIAL"};
    r.RequireHeader(kExact);
    constexpr std::array<std::string_view, 2> kSwapped = {"DENOM_SOCIAL", "CNPJ_FUNDO"};
    EXPECT_EQ(ErrorOf([&] { r.RequireHeader(kSwapped); }),
              "test.csv:1: the header must be exactly: DENOM_SOCIAL;CNPJ_FUNDO");
    constexpr std::array<std::string_view, 3> kLonger = {"CNPJ_FUNDO", "DENOM_SOCIAL", "X"};
    EXPECT_NE(ErrorOf([&] { r.RequireHeader(kLonger); }), "(no error)");
}

TEST(CsvReaderTyped, WrongSeparatorInTheHeader) {
    EXPECT_EQ(ErrorOf([] { Reader("a;b\n", {TextEncoding::kUtf8, ','}); }),
              "test.csv:1: header is not ',' separated");
}

TEST(CsvReaderTyped, FieldCounts) {
    CsvReader r = Reader("a;b;c\n1;2\n1;2;3\n");
    ASSERT_TRUE(r.Next());
    EXPECT_EQ(r.FieldCountProblem(), "expected 3 fields, found 2");
    EXPECT_EQ(ErrorOf([&] { r.RequireFieldCount(); }), "test.csv:2: expected 3 fields, found 2");
    ASSERT_TRUE(r.Next());
    r.RequireFieldCount();
}

TEST(CsvReaderTyped, Utf8LayoutRefusesLatin1AndControlBytes) {
    const CsvFormat utf8{TextEncoding::kUtf8};
    EXPECT_EQ(ErrorOf([&] {
                  CsvReader r = Reader(
                      "a;b\nx;CR\xC9"
                      "DITO\n",
                      utf8);
                  r.Next();
              }),
              "test.csv:2: not UTF-8 text (this layout is UTF-8, not ISO-8859-1)");
    EXPECT_EQ(ErrorOf([&] {
                  CsvReader r = Reader(
                      "a;b\n\nx;A\x01"
                      "B\n",
                      utf8);
                  r.Next();
              }),
              "test.csv:3: control byte 0x01");
    CsvReader tab = Reader("a;b\nx;\tok\n", utf8);
    ASSERT_TRUE(tab.Next());
    EXPECT_EQ(tab.Field(1), "\tok");
    EXPECT_EQ(ErrorOf([&] { Reader("", utf8); }), "test.csv:1: empty file, no header");
}

TEST(CsvReaderTyped, SplitFieldsGivesBackAStoredLine) {
    std::vector<std::string_view> fields;
    SplitFields("a;;b;", ';', fields);
    EXPECT_EQ(fields, (std::vector<std::string_view>{"a", "", "b", ""}));
    SplitFields("", ',', fields);
    EXPECT_EQ(fields, (std::vector<std::string_view>{""}));
}

}  // namespace
}  // namespace lastro::sdk
