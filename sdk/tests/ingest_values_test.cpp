#include <lastro/sdk/ingest/values.hpp>
#include <lastro/sdk/text.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace lastro::sdk {
namespace {

TEST(IngestValues, DigitsCaseBlanksAndQuotes) {
    EXPECT_TRUE(AllDigits("202608"));
    EXPECT_FALSE(AllDigits(""));
    EXPECT_FALSE(AllDigits("2026-08"));
    EXPECT_EQ(LowerAscii("CDA_FI_202608.ZIP"), "cda_fi_202608.zip");
    EXPECT_EQ(LowerAscii("Crédito"), "crédito");  // bytes beyond ASCII are left alone
    EXPECT_EQ(TrimBlanks(" \t12.5 \t"), "12.5");
    EXPECT_EQ(TrimBlanks("\r\n 12.5\r"), "12.5");
    EXPECT_EQ(TrimBlanks("   "), "");
    EXPECT_EQ(Quoted("abc"), "'abc'");
    EXPECT_EQ(Quoted(std::string(70, 'x')), "'" + std::string(60, 'x') + "...'");
    EXPECT_EQ(Quoted(std::string(50, 'x'), 40), "'" + std::string(40, 'x') + "...'");
    // A cut never splits a UTF-8 character (found by fuzz/cad_reader): "ƒ" is two bytes.
    std::string twos;
    for (int i = 0; i < 40; ++i) {
        twos += "\xC6\x92";
    }
    EXPECT_EQ(Quoted("2" + twos, 60), "'2" + twos.substr(0, 58) + "...'");
    EXPECT_TRUE(IsValidUtf8(Quoted("2" + twos, 60)));
}

TEST(IngestValues, PlainDecimalsWithAPoint) {
    for (const auto& [text, value] :
         std::vector<std::pair<std::string, double>>{{"123.45", 123.45},
                                                     {"-50000.00", -50000.0},
                                                     {"0", 0.0},
                                                     {" 12.5 ", 12.5},
                                                     {"007", 7.0},
                                                     {"44.275588000000", 44.275588}}) {
        const Parsed<double> parsed = ParseDecimal(text);
        EXPECT_EQ(parsed.status, ValueStatus::kValue) << text;
        EXPECT_DOUBLE_EQ(parsed.value, value) << text;
        EXPECT_EQ(CheckDecimal(text), ValueStatus::kValue) << text;
    }
}

TEST(IngestValues, DecimalsWithAComma) {
    const DecimalFormat comma{','};
    EXPECT_DOUBLE_EQ(ParseDecimal("1234,56", comma).value, 1234.56);
    EXPECT_DOUBLE_EQ(ParseDecimal("-0,5", comma).value, -0.5);
    EXPECT_EQ(ParseDecimal("1234.56", comma).status, ValueStatus::kInvalid);
    EXPECT_EQ(ParseDecimal("1.234,56", comma).status, ValueStatus::kInvalid);  // no thousands separator
    EXPECT_EQ(CheckDecimal("12,5", comma), ValueStatus::kValue);
    EXPECT_EQ(ParseDecimal("12,5").status, ValueStatus::kInvalid);  // the default point is '.'
}

TEST(IngestValues, AnEmptyValueIsEmptyNeverZero) {
    for (const char* text : {"", "   ", "\t"}) {
        EXPECT_EQ(ParseDecimal(text).status, ValueStatus::kEmpty);
        EXPECT_EQ(CheckDecimal(text), ValueStatus::kEmpty);
        EXPECT_EQ(ParseInteger(text).status, ValueStatus::kEmpty);
        EXPECT_EQ(ParseDate(text).status, ValueStatus::kEmpty);
    }
    EXPECT_FALSE(DocumentOrText("  ").has_value());
}

TEST(IngestValues, BadDecimalsAreInvalid) {
    for (const char* text : {"1.234,56", "1,5", "1e5", "1E5", "+1", ".5", "5.", "NaN", "inf", "--1", "1.2.3",
                             "-", "12 345", "R$ 10", "0x10"}) {
        EXPECT_EQ(ParseDecimal(text).status, ValueStatus::kInvalid) << text;
        EXPECT_EQ(CheckDecimal(text), ValueStatus::kInvalid) << text;
    }
    EXPECT_EQ(ParseDecimal("-5", {'.', Sign::kNonNegative}).status, ValueStatus::kInvalid);
    EXPECT_EQ(ParseDecimal("5", {'.', Sign::kNonNegative}).status, ValueStatus::kValue);
    // Beyond the largest double: a plain decimal, yet not a number we can hold.
    EXPECT_EQ(ParseDecimal("1" + std::string(400, '0')).status, ValueStatus::kInvalid);
    EXPECT_EQ(CheckDecimal("1" + std::string(400, '0')), ValueStatus::kInvalid);
    EXPECT_EQ(CheckDecimal(std::string(300, '9')), ValueStatus::kValue);
}

TEST(IngestValues, Integers) {
    EXPECT_EQ(ParseInteger("42").value, 42);
    EXPECT_EQ(ParseInteger(" 007 ").value, 7);
    EXPECT_EQ(ParseInteger("-7").value, -7);
    EXPECT_EQ(ParseInteger("9223372036854775807").value, std::numeric_limits<std::int64_t>::max());
    for (const char* text : {"-7", "+7", "1.0", "12a", "-", "9223372036854775808", "1 2"}) {
        EXPECT_EQ(ParseInteger(text, Sign::kNonNegative).status, ValueStatus::kInvalid) << text;
    }
    EXPECT_EQ(ParseInteger("9223372036854775808").status, ValueStatus::kInvalid);  // overflow
    EXPECT_EQ(ParseInteger("1.0").status, ValueStatus::kInvalid);
}

TEST(IngestValues, DatesInThreeFormats) {
    EXPECT_EQ(ParseDate("2024-02-29").value, (Date{2024, 2, 29}));
    EXPECT_EQ(ParseDate("29/02/2024", DateFormat::kBrazilian).value, (Date{2024, 2, 29}));
    EXPECT_EQ(ParseDate("20240229", DateFormat::kCompact).value, (Date{2024, 2, 29}));
    for (const char* text : {"2023-02-29", "31/01/2024", "2024-1-5", "20240229", "2024-13-01"}) {
        EXPECT_EQ(ParseDate(text).status, ValueStatus::kInvalid) << text;
    }
    for (const char* text : {"29/02/2023", "2024-02-29", "1/2/2024", "31-01-2024", "aa/bb/cccc"}) {
        EXPECT_EQ(ParseDate(text, DateFormat::kBrazilian).status, ValueStatus::kInvalid) << text;
    }
    for (const char* text : {"99991231", "2024022", "2024-02-29", "2024022a"}) {
        EXPECT_EQ(ParseDate(text, DateFormat::kCompact).status, ValueStatus::kInvalid) << text;
    }
    EXPECT_EQ(DateFormatName(DateFormat::kBrazilian), "a DD/MM/YYYY date");
}

TEST(IngestValues, DocumentsAreCnpjDigitsOrTheTextAsPublished) {
    EXPECT_EQ(DocumentOrText(" 12.345.678/0001-95 "), "12345678000195");
    EXPECT_EQ(DocumentOrText("123.456.789-09"), "123.456.789-09");  // a CPF stays as published
    EXPECT_EQ(DocumentOrText("12.345.678/0001-00"), "12.345.678/0001-00");
}

TEST(IngestValues, FieldErrorsNameFileLineAndColumn) {
    const FieldError error("registro_fundo.csv", 12, "Patrimonio_Liquido", "is not a number", "1,5");
    EXPECT_STREQ(error.what(), "registro_fundo.csv:12: Patrimonio_Liquido is not a number: '1,5'");
    EXPECT_EQ(error.Reason(), "Patrimonio_Liquido is not a number: '1,5'");
    EXPECT_EQ(error.Column(), "Patrimonio_Liquido");
    EXPECT_EQ(error.File(), "registro_fundo.csv");
    EXPECT_EQ(error.Line(), 12u);
    const FieldError empty("x.csv", 3, "ID_DOC", "is empty");
    EXPECT_STREQ(empty.what(), "x.csv:3: ID_DOC is empty");
}

}  // namespace
}  // namespace lastro::sdk
