#include <lastro/sdk/cvm_csv.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/text.hpp>

#include <lastro/sdk/testing/byte_sources.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace lastro::sdk {
namespace {

using namespace std::string_literals;
using Records = std::vector<std::vector<std::string>>;

using testing::StringSource;

CvmCsvReader Reader(std::string bytes, std::size_t chunk = 1 << 20) {
    return CvmCsvReader(std::make_unique<StringSource>(std::move(bytes), chunk));
}

Records ReadAll(CvmCsvReader& reader) {
    Records records;
    while (reader.Next()) {
        std::vector<std::string> fields;
        for (std::size_t i = 0; i < reader.FieldCount(); ++i) {
            fields.emplace_back(reader.Field(i));
        }
        records.push_back(std::move(fields));
    }
    return records;
}

// The message of the IngestError that reading the whole of `bytes` throws.
std::string ErrorReading(std::string bytes) {
    try {
        CvmCsvReader reader = Reader(std::move(bytes));
        ReadAll(reader);
    } catch (const IngestError& error) {
        return error.what();
    }
    return "(no error)";
}

TEST(CvmCsvReader, EmptyFile) {
    EXPECT_EQ(ErrorReading(""), "test.csv:1: empty file, no header");
}

TEST(CvmCsvReader, HeaderNotSemicolonSeparated) {
    EXPECT_EQ(ErrorReading("CNPJ_FUNDO,DENOM_SOCIAL\n00.000.684/0001-21,FUNDO\n"),
              "test.csv:1: header is not ';' separated");
    EXPECT_EQ(ErrorReading("\n"), "test.csv:1: header is not ';' separated");
    EXPECT_EQ(ErrorReading("CNPJ_FUNDO"), "test.csv:1: header is not ';' separated");
}

TEST(CvmCsvReader, Utf8ByteOrderMarkIsRejected) {
    EXPECT_EQ(ErrorReading("\xEF\xBB\xBF"
                           "CNPJ_FUNDO;DENOM_SOCIAL\n"),
              "test.csv:1: the file looks UTF-8 encoded; CVM files are ISO-8859-1");
}

TEST(CvmCsvReader, Utf8InputIsRejectedWithItsLine) {
    EXPECT_EQ(ErrorReading("Denominacao_Social;Situacao\nFUNDO A;Ativo\nFUNDO CREDITÓRIOS;Ativo\n"),
              "test.csv:3: the file looks UTF-8 encoded; CVM files are ISO-8859-1");
    EXPECT_EQ(ErrorReading("Denominação_Social;Situação\n"),
              "test.csv:1: the file looks UTF-8 encoded; CVM files are ISO-8859-1");
}

TEST(CvmCsvReader, ControlBytesAreRejectedWithTheirLine) {
    EXPECT_EQ(ErrorReading("a;b\n1;2\n3\x01;4\n"), "test.csv:3: byte 0x01 is not ISO-8859-1 text");
    EXPECT_EQ(ErrorReading("a;b\n1;\0\n"s), "test.csv:2: byte 0x00 is not ISO-8859-1 text");
    EXPECT_EQ(ErrorReading("a\0;b\n"s), "test.csv:1: byte 0x00 is not ISO-8859-1 text");
    EXPECT_EQ(ErrorReading("a;b\n1;\x0B\n"), "test.csv:2: byte 0x0B is not ISO-8859-1 text");
    EXPECT_EQ(ErrorReading("a;b\n1;\x0C\n"), "test.csv:2: byte 0x0C is not ISO-8859-1 text");
    EXPECT_EQ(ErrorReading("a;b\n1;\x1F\n"), "test.csv:2: byte 0x1F is not ISO-8859-1 text");
    EXPECT_EQ(ErrorReading("a;b\n1;\x0E\n"), "test.csv:2: byte 0x0E is not ISO-8859-1 text");
    EXPECT_EQ(ErrorReading("a;b\n1;\x08\n"), "test.csv:2: byte 0x08 is not ISO-8859-1 text");
    // A control byte among long printable runs (the eight-byte fast path) is found too.
    EXPECT_EQ(ErrorReading("a;b\nFUNDO DE INVESTIMENTO;FUNDO DE\x02 INVESTIMENTO\n"),
              "test.csv:2: byte 0x02 is not ISO-8859-1 text");
}

TEST(CvmCsvReader, BytesUndefinedInWindows1252AreRejected) {
    for (const char byte : {'\x81', '\x8D', '\x8F', '\x90', '\x9D'}) {
        char expected[64];
        std::snprintf(expected, sizeof expected, "test.csv:2: byte 0x%02X is not ISO-8859-1 text",
                      static_cast<unsigned char>(byte));
        EXPECT_EQ(ErrorReading("a;b\nx;y" + std::string(1, byte) + "\n"), expected);
    }
}

TEST(CvmCsvReader, MissingColumn) {
    CvmCsvReader reader = Reader("CNPJ_Fundo;Denominacao_Social\n");
    try {
        reader.Require("Tipo_Fundo");
        FAIL() << "expected IngestError";
    } catch (const IngestError& error) {
        EXPECT_EQ(std::string(error.what()), "test.csv:1: missing column Tipo_Fundo");
        EXPECT_EQ(error.File(), "test.csv");
        EXPECT_EQ(error.Line(), 1u);
    }
    EXPECT_EQ(reader.Find("Tipo_Fundo"), std::nullopt);
    EXPECT_EQ(reader.Find("cnpj_fundo"), std::nullopt);  // names are exact
}

TEST(CvmCsvReader, TruncatedLastLine) {
    EXPECT_EQ(ErrorReading("a;b;c\n1;2;3\n4;5"), "test.csv:3: truncated file: last line has 2 of 3 fields");
    EXPECT_EQ(ErrorReading("a;b;c\n1;2;3\r\n4"), "test.csv:3: truncated file: last line has 1 of 3 fields");
    // The records before it were delivered.
    CvmCsvReader reader = Reader("a;b;c\n1;2;3\n4;5");
    ASSERT_TRUE(reader.Next());
    EXPECT_EQ(reader.Field(2), "3");
    EXPECT_THROW(reader.Next(), IngestError);
}

TEST(CvmCsvReader, UnterminatedLastLineWithAllFieldsIsFine) {
    CvmCsvReader reader = Reader("a;b\n1;2\n3;4");
    EXPECT_EQ(ReadAll(reader), (Records{{"1", "2"}, {"3", "4"}}));
    CvmCsvReader with_empty_last_field = Reader("a;b\n1;");
    EXPECT_EQ(ReadAll(with_empty_last_field), (Records{{"1", ""}}));
}

TEST(CvmCsvReader, BlankLinesCarryNoRecord) {
    CvmCsvReader reader = Reader("a;b\n1;2\n\n");
    EXPECT_EQ(ReadAll(reader), (Records{{"1", "2"}}));
    CvmCsvReader crlf = Reader("a;b\r\n1;2\r\n\r\n");
    EXPECT_EQ(ReadAll(crlf), (Records{{"1", "2"}}));
    CvmCsvReader middle = Reader("a;b\n1;2\n\n3;4\n");
    ASSERT_TRUE(middle.Next());
    EXPECT_EQ(middle.Line(), 2u);
    ASSERT_TRUE(middle.Next());
    EXPECT_EQ(middle.Field(0), "3");
    EXPECT_EQ(middle.Line(), 4u);
    EXPECT_FALSE(middle.Next());
    EXPECT_FALSE(middle.Next());  // stays at the end
}

TEST(CvmCsvReader, DecodesIso88591ToUtf8AndStripsCrlf) {
    CvmCsvReader reader = Reader(
        "Denominacao_Social;Situacao\n"
        "FUNDO DE INVESTIMENTO EM DIREITOS CREDIT\xD3RIOS;Em Funcionamento Normal\r\n"
        "A\xC7\xC3O IMOBILI\xC1RIA;Cancelado\r\n");
    EXPECT_EQ(reader.SourceName(), "test.csv");
    EXPECT_EQ(reader.Header(), (std::vector<std::string>{"Denominacao_Social", "Situacao"}));
    const std::size_t name = reader.Require("Denominacao_Social");
    const std::size_t status = reader.Require("Situacao");
    ASSERT_TRUE(reader.Next());
    EXPECT_EQ(reader.Line(), 2u);
    EXPECT_EQ(reader.Field(name), "FUNDO DE INVESTIMENTO EM DIREITOS CREDITÓRIOS");
    EXPECT_EQ(reader.Field(status), "Em Funcionamento Normal");
    ASSERT_TRUE(reader.Next());
    EXPECT_EQ(reader.Line(), 3u);
    EXPECT_EQ(reader.Field(name), "AÇÃO IMOBILIÁRIA");
    EXPECT_TRUE(IsValidUtf8(reader.Field(name)));
    EXPECT_EQ(reader.Field(status), "Cancelado");
    EXPECT_FALSE(reader.Next());
}

TEST(CvmCsvReader, HeaderWithCrlfAndColumnsByName) {
    CvmCsvReader reader = Reader("TP_FUNDO;CNPJ_FUNDO;DENOM_SOCIAL\r\nFI;00.000.684/0001-21;X\r\n");
    EXPECT_EQ(reader.Header().back(), "DENOM_SOCIAL");
    EXPECT_EQ(reader.Find("CNPJ_FUNDO"), 1u);
    EXPECT_EQ(reader.Require("DENOM_SOCIAL"), 2u);
}

TEST(CvmCsvReader, QuotesAreData) {
    CvmCsvReader reader = Reader("a;b;c\n\"FUNDO \"ALFA\" FIDC;\"x;y\"\n");
    ASSERT_TRUE(reader.Next());
    ASSERT_EQ(reader.FieldCount(), 3u);
    EXPECT_EQ(reader.Field(0), "\"FUNDO \"ALFA\" FIDC");
    EXPECT_EQ(reader.Field(1), "\"x");
    EXPECT_EQ(reader.Field(2), "y\"");
}

TEST(CvmCsvReader, EmptyFieldIsAMissingValue) {
    CvmCsvReader reader = Reader("a;b;c;d\n;x;;\n");
    ASSERT_TRUE(reader.Next());
    ASSERT_EQ(reader.FieldCount(), 4u);
    EXPECT_EQ(reader.Optional(0), std::nullopt);
    EXPECT_EQ(reader.Optional(1), "x");
    EXPECT_EQ(reader.Optional(2), std::nullopt);
    EXPECT_EQ(reader.Optional(3), std::nullopt);
    EXPECT_EQ(reader.Field(9), "");  // out of range
    EXPECT_EQ(reader.Optional(9), std::nullopt);
}

TEST(CvmCsvReader, Windows1252CharactersAreDecoded) {
    CvmCsvReader reader = Reader(
        "a;b\n\x93"
        "FIDC\x94;\x80 \x85 \x96 \x97 \x99 \x8A \x9F \x92\n");
    ASSERT_TRUE(reader.Next());
    EXPECT_EQ(reader.Field(0),
              "\u201C"
              "FIDC\u201D");
    EXPECT_EQ(reader.Field(1), "€ … – — ™ Š Ÿ ’");
}

TEST(CvmCsvReader, EveryLatin1ByteAboveA0IsItsOwnCodePoint) {
    std::string high;
    for (int byte = 0xA0; byte <= 0xFF; ++byte) {
        if (byte != 0xC3) {  // Ã followed by 0x80..0xBF is how UTF-8 looks: tested above
            high.push_back(static_cast<char>(byte));
        }
    }
    CvmCsvReader reader = Reader("a;b\n" + high + ";\t tab and \x7F\n");
    ASSERT_TRUE(reader.Next());
    EXPECT_EQ(reader.Field(0), Latin1ToUtf8(high));
    EXPECT_EQ(reader.Field(1), "\t tab and \x7F");
    CvmCsvReader tilde = Reader("a;b\nS\xC3O PAULO;\xC3\n");  // Ã before an ASCII letter is Latin-1
    ASSERT_TRUE(tilde.Next());
    EXPECT_EQ(tilde.Field(0), "SÃO PAULO");
    EXPECT_EQ(tilde.Field(1), "Ã");
}

TEST(CvmCsvReader, ChunkBoundariesDoNotMatter) {
    std::string csv = "CNPJ_FUNDO;DENOM_SOCIAL;VL_PATRIM_LIQ\r\n";
    Records expected;
    for (int i = 0; i < 300; ++i) {
        const std::string n = std::to_string(i);
        csv += n + ";FUNDO N\xBA " + n +
               " \x93"
               "CR\xC9"
               "DITO\x94;" +
               (i % 3 ? n + ".5" : "") + "\r\n";
        expected.push_back({n, "FUNDO Nº " + n + " “CRÉDITO”", i % 3 ? n + ".5" : ""});
    }
    // A line far longer than the reader's 64 KiB chunk.
    const std::string long_name(200000, 'X');
    csv += "300;" + long_name + ";1\n";
    expected.push_back({"300", long_name, "1"});
    for (std::size_t chunk : {1, 2, 3, 7, 64, 4096, 1 << 20}) {
        CvmCsvReader reader = Reader(csv, chunk);
        EXPECT_EQ(ReadAll(reader), expected) << "chunk " << chunk;
    }
}

TEST(CvmCsvReader, NeedsASource) {
    EXPECT_THROW(CvmCsvReader(nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace lastro::sdk
