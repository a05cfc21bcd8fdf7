// ReadSgsAnswer (domain/sgs_reader.hpp): the real SGS answers of ../shared/datasets/real/bcb_sgs/
// (see its SOURCES.md) read whole, the forms SGS writes, and every refusal with its line and reason.
#include "domain/sgs_reader.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

namespace lastro::series::testing {
namespace {

using ::testing::HasSubstr;

const std::filesystem::path kRealDir =
    std::filesystem::path(LASTRO_SOURCE_DIR) / "../shared/datasets/real/bcb_sgs";

std::string FileBytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

SgsAnswer Read(std::string_view bytes) {
    return ReadSgsAnswer(bytes, "answer");
}

// Why an answer is refused: the line and the message after "answer:LINE: ".
struct Refusal {
    std::size_t line = 0;
    std::string reason;
};

Refusal RefusalOf(std::string_view bytes) {
    try {
        (void)ReadSgsAnswer(bytes, "answer");
    } catch (const sdk::IngestError& error) {
        EXPECT_EQ(error.File(), "answer");
        const std::string prefix = "answer" + (error.Line() ? ":" + std::to_string(error.Line()) : "") + ": ";
        const std::string what = error.what();
        EXPECT_TRUE(what.starts_with(prefix)) << what;
        return {error.Line(), what.substr(std::min(prefix.size(), what.size()))};
    }
    ADD_FAILURE() << "accepted: " << bytes;
    return {};
}

std::string Value(const SgsObservation& observation) {
    return observation.value.value_or("(null)");
}

// ---- The real answers -------------------------------------------------------------------------

// SGS 12 (CDI, % a day): the API's compact JSON on one line, saved with a UTF-8 byte order mark.
TEST(SgsReaderRealFiles, CdiJsonWithByteOrderMark) {
    const auto path = kRealDir / "sgs12_cdi_daily_2016-2026.json";
    if (!std::filesystem::exists(path)) {
        GTEST_SKIP() << "real SGS file not present: " << path;
    }
    const std::string bytes = FileBytes(path);
    ASSERT_TRUE(bytes.starts_with("\xEF\xBB\xBF["));
    const SgsAnswer answer = ReadSgsAnswer(bytes, path.filename().string());
    EXPECT_EQ(answer.format, SgsFormat::kJson);
    ASSERT_EQ(answer.observations.size(), 2508u);
    EXPECT_EQ(answer.observations.front().date, (sdk::Date{2016, 5, 25}));
    EXPECT_EQ(Value(answer.observations.front()), "0.052461");
    EXPECT_EQ(answer.observations.back().date, (sdk::Date{2026, 5, 22}));
    EXPECT_EQ(Value(answer.observations.back()), "0.053400");
    // 2023: 249 business days; compounded, 13.0394 % (SOURCES.md).
    double factor = 1;
    std::size_t days_2023 = 0;
    for (const SgsObservation& o : answer.observations) {
        ASSERT_TRUE(o.value) << o.date.ToString();
        EXPECT_EQ(o.line, 1u);
        if (o.date.year == 2023) {
            ++days_2023;
            factor *= 1 + std::stod(*o.value) / 100;
        }
    }
    EXPECT_EQ(days_2023, 249u);
    EXPECT_NEAR((factor - 1) * 100, 13.0394, 0.00005);
}

// SGS 433 (IPCA, % a month): compact JSON, no byte order mark, no final newline.
TEST(SgsReaderRealFiles, IpcaJsonWithoutFinalNewline) {
    const auto path = kRealDir / "sgs433_ipca_monthly_1980-2026.json";
    if (!std::filesystem::exists(path)) {
        GTEST_SKIP() << "real SGS file not present: " << path;
    }
    const std::string bytes = FileBytes(path);
    ASSERT_TRUE(bytes.ends_with("}]"));
    const SgsAnswer answer = ReadSgsAnswer(bytes, path.filename().string());
    EXPECT_EQ(answer.format, SgsFormat::kJson);
    ASSERT_EQ(answer.observations.size(), 557u);
    EXPECT_EQ(answer.observations.front().date, (sdk::Date{1980, 1, 1}));
    EXPECT_EQ(Value(answer.observations.front()), "6.62");
    EXPECT_EQ(answer.observations.back().date, (sdk::Date{2026, 5, 1}));
    EXPECT_EQ(Value(answer.observations.back()), "0.58");

    std::size_t negative = 0;
    const SgsObservation* maximum = &answer.observations.front();
    double factor_2023 = 1;
    for (std::size_t i = 0; i < answer.observations.size(); ++i) {
        const SgsObservation& o = answer.observations[i];
        ASSERT_TRUE(o.value) << o.date.ToString();
        // One observation a month, on its first day, none missing.
        EXPECT_EQ(o.date, (sdk::Date{1980 + static_cast<int>(i / 12), 1 + static_cast<int>(i % 12), 1}));
        negative += o.value->starts_with("-") ? 1 : 0;
        if (std::stod(*o.value) > std::stod(*maximum->value)) {
            maximum = &o;
        }
        if (o.date.year == 2023) {
            factor_2023 *= 1 + std::stod(*o.value) / 100;
        }
        if (o.date == sdk::Date{2010, 6, 1}) {
            EXPECT_EQ(*o.value, "0.00");  // a published zero is a value, kept as published
        }
    }
    EXPECT_EQ(negative, 20u);
    EXPECT_EQ(maximum->date, (sdk::Date{1990, 3, 1}));
    EXPECT_EQ(*maximum->value, "82.39");
    EXPECT_NEAR((factor_2023 - 1) * 100, 4.6211, 0.00005);  // IBGE published 4.62 %
}

// SGS 11 (Selic, % a day) as formato=csv: quoted fields, ';', decimal comma, CRLF.
TEST(SgsReaderRealFiles, SelicCsv) {
    const auto path = kRealDir / "sgs11_selic_daily_2023.csv";
    if (!std::filesystem::exists(path)) {
        GTEST_SKIP() << "real SGS file not present: " << path;
    }
    const std::string bytes = FileBytes(path);
    ASSERT_TRUE(bytes.starts_with("\"data\";\"valor\"\r\n"));
    const SgsAnswer answer = ReadSgsAnswer(bytes, path.filename().string());
    EXPECT_EQ(answer.format, SgsFormat::kCsv);
    ASSERT_EQ(answer.observations.size(), 249u);
    EXPECT_EQ(answer.observations.front().date, (sdk::Date{2023, 1, 2}));
    EXPECT_EQ(Value(answer.observations.front()), "0.050788");
    EXPECT_EQ(answer.observations.front().line, 2u);
    EXPECT_EQ(answer.observations.back().date, (sdk::Date{2023, 12, 29}));
    EXPECT_EQ(Value(answer.observations.back()), "0.043739");
    EXPECT_EQ(answer.observations.back().line, 250u);
    for (std::size_t i = 0; i < answer.observations.size(); ++i) {
        EXPECT_EQ(answer.observations[i].line, i + 2);
        EXPECT_TRUE(answer.observations[i].value);
    }
}

// ---- The forms SGS writes ---------------------------------------------------------------------

TEST(SgsReaderJson, CompactAnswer) {
    const SgsAnswer answer =
        Read(R"([{"data":"02/01/2023","valor":"0.050788"},{"data":"03/01/2023","valor":"-0.21"}])");
    EXPECT_EQ(answer.format, SgsFormat::kJson);
    ASSERT_EQ(answer.observations.size(), 2u);
    EXPECT_EQ(answer.observations[0].date, (sdk::Date{2023, 1, 2}));
    EXPECT_EQ(Value(answer.observations[0]), "0.050788");
    EXPECT_EQ(answer.observations[1].date, (sdk::Date{2023, 1, 3}));
    EXPECT_EQ(Value(answer.observations[1]), "-0.21");
}

// Indented, keys in any order, blanks wherever JSON allows them, an unknown key ignored; the
// line of an observation is the line of its '{'.
TEST(SgsReaderJson, IndentedWithByteOrderMarkAnyKeyOrder) {
    const SgsAnswer answer = Read(
        "\xEF\xBB\xBF\r\n"
        "[\r\n"
        "  {\r\n"
        "    \"valor\" : \"1.5\",\r\n"
        "    \"data\" :\t\"31/01/2024\"\r\n"
        "  } ,\r\n"
        "  { \"data\": \"29/02/2024\", \"fonte\": \"BCB\", \"valor\": \"2.25\" }\r\n"
        "]\r\n"
        "\r\n");
    ASSERT_EQ(answer.observations.size(), 2u);
    EXPECT_EQ(answer.observations[0].date, (sdk::Date{2024, 1, 31}));
    EXPECT_EQ(Value(answer.observations[0]), "1.5");
    EXPECT_EQ(answer.observations[0].line, 3u);
    EXPECT_EQ(answer.observations[1].date, (sdk::Date{2024, 2, 29}));  // a leap day
    EXPECT_EQ(Value(answer.observations[1]), "2.25");
    EXPECT_EQ(answer.observations[1].line, 7u);
}

TEST(SgsReaderJson, NumberTokenValorKeepsItsText) {
    const SgsAnswer answer =
        Read(R"([{"data":"01/01/2020","valor":82.39},{"data":"01/02/2020","valor":-0.21},)"
             R"({"data":"01/03/2020","valor":0},{"data":"01/04/2020","valor":0.10000000000000000555},)"
             R"({"data":"01/05/2020","valor":123456789012345678901234567890.5}])");
    ASSERT_EQ(answer.observations.size(), 5u);
    EXPECT_EQ(Value(answer.observations[0]), "82.39");
    EXPECT_EQ(Value(answer.observations[1]), "-0.21");
    EXPECT_EQ(Value(answer.observations[2]), "0");
    EXPECT_EQ(Value(answer.observations[3]), "0.10000000000000000555");  // never through double
    EXPECT_EQ(Value(answer.observations[4]), "123456789012345678901234567890.5");
}

TEST(SgsReaderJson, EmptyValorIsNoValue) {
    const SgsAnswer answer = Read(R"([{"data":"01/01/2020","valor":""},{"data":"02/01/2020","valor":null},)"
                                  R"({"data":"03/01/2020","valor":"0"}])");
    ASSERT_EQ(answer.observations.size(), 3u);
    EXPECT_FALSE(answer.observations[0].value);
    EXPECT_FALSE(answer.observations[1].value);
    EXPECT_EQ(Value(answer.observations[2]), "0");  // never confused with an empty one
}

TEST(SgsReaderJson, PublishedZeroKeptAsPublished) {
    const SgsAnswer answer =
        Read(R"([{"data":"01/01/2020","valor":"0.000000"},{"data":"02/01/2020","valor":"-0.0"}])");
    ASSERT_EQ(answer.observations.size(), 2u);
    EXPECT_EQ(Value(answer.observations[0]), "0.000000");
    EXPECT_EQ(Value(answer.observations[1]), "-0.0");
}

TEST(SgsReaderJson, LeadingZerosOfTheIntegerPartDropped) {
    const SgsAnswer answer =
        Read(R"([{"data":"01/01/2020","valor":"007.5"},{"data":"02/01/2020","valor":"-00.1"},)"
             R"({"data":"03/01/2020","valor":"000"},{"data":"04/01/2020","valor":"0100.050"}])");
    ASSERT_EQ(answer.observations.size(), 4u);
    EXPECT_EQ(Value(answer.observations[0]), "7.5");
    EXPECT_EQ(Value(answer.observations[1]), "-0.1");
    EXPECT_EQ(Value(answer.observations[2]), "0");
    EXPECT_EQ(Value(answer.observations[3]), "100.050");  // the fraction as published
}

// A window without data: an empty array.
TEST(SgsReaderJson, EmptyArrayIsAnAnswerWithoutObservations) {
    for (const std::string_view bytes : {"[]", "\xEF\xBB\xBF[]", " \n[\n]\n\n", "[ ]"}) {
        const SgsAnswer answer = Read(bytes);
        EXPECT_EQ(answer.format, SgsFormat::kJson);
        EXPECT_TRUE(answer.observations.empty()) << bytes;
    }
}

// JSON escapes are JSON: "d\u0061ta" is the key data.
TEST(SgsReaderJson, EscapedTextIsDecoded) {
    const SgsAnswer answer = Read(R"([{"d\u0061ta":"01\/01\/2020","valor":"\u0031.5"}])");
    ASSERT_EQ(answer.observations.size(), 1u);
    EXPECT_EQ(answer.observations[0].date, (sdk::Date{2020, 1, 1}));
    EXPECT_EQ(Value(answer.observations[0]), "1.5");
}

TEST(SgsReaderCsv, QuotedCrlfDecimalComma) {
    const SgsAnswer answer = Read(
        "\"data\";\"valor\"\r\n"
        "\"02/01/2023\";\"0,050788\"\r\n"
        "\"03/01/2023\";\"-0,21\"\r\n"
        "\"04/01/2023\";\"\"\r\n"
        "\"05/01/2023\";\"0,000000\"\r\n");
    EXPECT_EQ(answer.format, SgsFormat::kCsv);
    ASSERT_EQ(answer.observations.size(), 4u);
    EXPECT_EQ(answer.observations[0].date, (sdk::Date{2023, 1, 2}));
    EXPECT_EQ(Value(answer.observations[0]), "0.050788");
    EXPECT_EQ(answer.observations[0].line, 2u);
    EXPECT_EQ(Value(answer.observations[1]), "-0.21");
    EXPECT_FALSE(answer.observations[2].value);  // an empty valor: no value, never 0
    EXPECT_EQ(Value(answer.observations[3]), "0.000000");
    EXPECT_EQ(answer.observations[3].line, 5u);
}

// Unquoted, any case, LF, a last line without newline; or empty lines at the end.
TEST(SgsReaderCsv, UnquotedLfAndTrailingLines) {
    const SgsAnswer plain = Read("DATA;Valor\n02/01/2023;007,50\n03/01/2023;\n04/01/2023;-00,1");
    ASSERT_EQ(plain.observations.size(), 3u);
    EXPECT_EQ(Value(plain.observations[0]), "7.50");
    EXPECT_FALSE(plain.observations[1].value);
    EXPECT_EQ(Value(plain.observations[2]), "-0.1");
    EXPECT_EQ(plain.observations[2].line, 4u);

    const SgsAnswer trailing = Read("\xEF\xBB\xBF\"data\";valor\r\n\"02/01/2023\";1\r\n\r\n\r\n");
    ASSERT_EQ(trailing.observations.size(), 1u);
    EXPECT_EQ(Value(trailing.observations[0]), "1");
}

// A window without data: the header alone.
TEST(SgsReaderCsv, HeaderAloneIsAnAnswerWithoutObservations) {
    for (const std::string_view bytes : {"\"data\";\"valor\"", "\"data\";\"valor\"\r\n", "data;valor\n\n"}) {
        const SgsAnswer answer = Read(bytes);
        EXPECT_EQ(answer.format, SgsFormat::kCsv);
        EXPECT_TRUE(answer.observations.empty()) << bytes;
    }
}

// ---- Refusals, one rule each ------------------------------------------------------------------

TEST(SgsReaderRefusal, EmptyFile) {
    const Refusal empty = RefusalOf("");
    EXPECT_EQ(empty.line, 0u);
    EXPECT_EQ(empty.reason, "empty file: not an SGS answer");
    const Refusal blanks = RefusalOf("\xEF\xBB\xBF \r\n\r\n");
    EXPECT_EQ(blanks.line, 0u);
    EXPECT_EQ(blanks.reason, "empty file (only blanks): not an SGS answer");
}

TEST(SgsReaderRefusal, LargerThanTheLimitBeforeParsing) {
    const std::string huge(kMaxSgsAnswerBytes + 1, '[');
    const Refusal refusal = RefusalOf(huge);
    EXPECT_EQ(refusal.line, 0u);
    EXPECT_EQ(refusal.reason, "67108865 bytes, more than the largest SGS answer read (67108864 bytes)");
}

TEST(SgsReaderRefusal, HtmlOrXmlPage) {
    const Refusal html = RefusalOf("\r\n<!DOCTYPE html>\n<html><body>Manuten\xC3\xA7\xC3\xA3o</body></html>");
    EXPECT_EQ(html.line, 2u);
    EXPECT_EQ(html.reason, "an HTML page, not an SGS answer (the origin's error or maintenance page)");
    const Refusal xml = RefusalOf("<?xml version=\"1.0\"?><erro/>");
    EXPECT_EQ(xml.line, 1u);
    EXPECT_EQ(xml.reason, "an XML page, not an SGS answer (the origin's error or maintenance page)");
}

// SGS's JSON errors (406 beyond the 10-year window, 404...): the message is in the refusal.
TEST(SgsReaderRefusal, SgsErrorObject) {
    const Refusal window = RefusalOf(
        "{\"error\":\"O sistema aceita uma janela de consulta de, no m\xC3\xA1ximo, 10 anos em s\xC3\xA9ries "
        "de "
        "periodicidade di\xC3\xA1ria\",\"message\":\"Para acessar...\"}");
    EXPECT_EQ(window.line, 1u);
    EXPECT_EQ(window.reason,
              "an SGS error answer, not data: O sistema aceita uma janela de consulta de, no m\xC3\xA1ximo, "
              "10 anos "
              "em s\xC3\xA9ries de periodicidade di\xC3\xA1ria");
    // The key may come after others; "erro" holds an object.
    const Refusal erro = RefusalOf(
        "{\n  \"status\": 404,\n  \"erro\": {\"code\": null, \"detail\": \"Value(s) not found\"}\n}");
    EXPECT_EQ(erro.line, 3u);
    EXPECT_EQ(erro.reason, "an SGS error answer, not data: Value(s) not found");
    // At most 200 bytes of it, cut on a character boundary.
    const std::string long_message(199, 'a');
    const Refusal cut = RefusalOf("{\"error\":\"" + long_message + "\xC3\xA1" + "bbbb\"}");
    EXPECT_EQ(cut.reason, "an SGS error answer, not data: " + long_message + "...");
    const Refusal none = RefusalOf("{\"error\":null}");
    EXPECT_EQ(none.reason, "an SGS error answer, not data: (no message)");
    // Any other object is no answer either.
    const Refusal other = RefusalOf(R"({"data":"01/01/2020","valor":"1"})");
    EXPECT_THAT(other.reason, HasSubstr("a JSON object, not an SGS answer"));
}

TEST(SgsReaderRefusal, TruncatedJson) {
    const Refusal refusal = RefusalOf(
        "[\n"
        "  {\"data\": \"01/01/2020\", \"valor\": \"1\"},\n"
        "  {\"data\": \"02/01/2020\", \"val");
    EXPECT_EQ(refusal.line, 3u);
    EXPECT_EQ(refusal.reason, "truncated JSON: the array is not closed when the file ends");
    const Refusal newline = RefusalOf(R"([{"data":"01/01/2020","valor":"1"})"
                                      "\n");
    EXPECT_EQ(newline.line, 1u);
    EXPECT_EQ(newline.reason, "truncated JSON: the array is not closed when the file ends");
    EXPECT_EQ(RefusalOf("[").reason, "truncated JSON: the array is not closed when the file ends");
}

TEST(SgsReaderRefusal, MalformedJson) {
    const Refusal refusal = RefusalOf("[\n{\"data\":\"01/01/2020\" \"valor\":\"1\"}]");
    EXPECT_EQ(refusal.line, 2u);
    EXPECT_THAT(refusal.reason, HasSubstr("malformed JSON"));
    EXPECT_THAT(refusal.reason, HasSubstr("'\"valor\":\"1\"}]'"));
    EXPECT_EQ(RefusalOf(R"([{"data":"01/01/2020","valor":"1"},])").line, 1u);  // a trailing comma
    EXPECT_THAT(RefusalOf("[{\"data\":\"01/01/2020\",\"valor\":\"\xFF\"}]").reason, HasSubstr("'\\xFF\"}]'"));
}

TEST(SgsReaderRefusal, ElementWithoutDataOrValor) {
    const Refusal no_valor =
        RefusalOf("[\n{\"data\":\"01/01/2020\",\"valor\":\"1\"},\n{\"data\":\"02/01/2020\"\n}]");
    EXPECT_EQ(no_valor.line, 3u);
    EXPECT_EQ(no_valor.reason, "element without \"valor\" (an SGS observation has both data and valor)");
    const Refusal no_data = RefusalOf(R"([{"valor":"1","Data":"01/01/2020"}])");
    EXPECT_EQ(no_data.line, 1u);
    EXPECT_EQ(no_data.reason, "element without \"data\" (an SGS observation has both data and valor)");
}

TEST(SgsReaderRefusal, DuplicateKey) {
    const Refusal data = RefusalOf(R"([{"data":"01/01/2020","valor":"1","data":"02/01/2020"}])");
    EXPECT_EQ(data.line, 1u);
    EXPECT_EQ(data.reason, "key 'data' twice in one element");
    EXPECT_EQ(RefusalOf(R"([{"x":1,"data":"01/01/2020","x":2,"valor":"1"}])").reason,
              "key 'x' twice in one element");
}

TEST(SgsReaderRefusal, ElementNotAnObject) {
    EXPECT_EQ(RefusalOf(R"(["01/01/2020"])").reason,
              "element '01/01/2020' is not an object {\"data\", \"valor\"}");
    EXPECT_EQ(RefusalOf(R"([[1]])").reason, "an element is an array, not an object {\"data\", \"valor\"}");
}

// An answer has two levels; a third is refused (bounded work on hostile input).
TEST(SgsReaderRefusal, NestingDeeperThanAnAnswer) {
    const Refusal refusal = RefusalOf(R"([{"data":"01/01/2020","valor":{"v":"1"}}])");
    EXPECT_EQ(refusal.line, 1u);
    EXPECT_THAT(refusal.reason, HasSubstr("nested deeper than an SGS answer"));
    EXPECT_THAT(RefusalOf(R"({"erro":{"detail":["x"]}})").reason,
                HasSubstr("nested deeper than an SGS answer"));
    EXPECT_THAT(RefusalOf(std::string(100000, '[')).reason, HasSubstr("an element is an array"));
}

TEST(SgsReaderRefusal, DateNotDdMmYyyy) {
    const auto reason = [](std::string_view date) {
        return RefusalOf(R"([{"data":")" + std::string(date) + R"(","valor":"1"}])").reason;
    };
    for (const std::string_view bad :
         {"2020-01-01", "1/01/2020", "01/1/2020", "31/02/2020", "29/02/2021", "00/01/2020", "01/13/2020",
          "01/01/1899", "01/01/3000", "01/01/2020 ", " 01/01/2020", "01-01-2020", "", "0a/01/2020"}) {
        EXPECT_EQ(reason(bad), "data '" + std::string(bad) +
                                   "' is not a dd/MM/yyyy date naming a real day (years 1900..2999)");
    }
    EXPECT_EQ(RefusalOf(R"([{"data":20200101,"valor":"1"}])").reason,
              "data '20200101' is not a string (SGS writes \"dd/MM/yyyy\")");
    const Refusal csv = RefusalOf("data;valor\n01/01/2020;1\n32/01/2020;1\n");
    EXPECT_EQ(csv.line, 3u);
    EXPECT_EQ(csv.reason, "data '32/01/2020' is not a dd/MM/yyyy date naming a real day (years 1900..2999)");
}

TEST(SgsReaderRefusal, ValueNotAPlainDecimalInJson) {
    const auto reason = [](std::string_view valor) {
        return RefusalOf("[\n{\"data\":\"01/01/2020\",\n\"valor\":" + std::string(valor) + "}]");
    };
    for (const std::string_view bad :
         {R"("1e5")", R"("+1")", R"(" 1")", R"("1 ")", R"("1.")", R"(".5")", R"("1 000")", R"("abc")",
          R"("-")", R"("1.2.3")", R"("NaN")", "1e5", "1.5E-3", "-0.5e1"}) {
        const Refusal refusal = reason(bad);
        EXPECT_EQ(refusal.line, 3u) << bad;
        std::string text(bad);
        if (text.front() == '"') {
            text = text.substr(1, text.size() - 2);
        }
        EXPECT_EQ(refusal.reason,
                  "valor '" + text +
                      "' is not a plain decimal (an optional '-', digits, optionally the decimal "
                      "separator and digits)")
            << bad;
    }
    // A decimal comma in JSON names the value and says why.
    EXPECT_EQ(reason(R"("0,5")").reason,
              "valor '0,5' is not a plain decimal (SGS's JSON writes a decimal point, not a comma)");
    EXPECT_EQ(reason(R"("1.234,56")").reason,
              "valor '1.234,56' is not a plain decimal (SGS's JSON writes a decimal point, not a comma)");
    EXPECT_EQ(reason("true").reason, "valor 'true' is not a number");
}

TEST(SgsReaderRefusal, ValueNotAPlainDecimalInCsv) {
    const Refusal point =
        RefusalOf("\"data\";\"valor\"\r\n\"02/01/2023\";\"0,5\"\r\n\"03/01/2023\";\"0.5\"\r\n");
    EXPECT_EQ(point.line, 3u);
    EXPECT_EQ(point.reason,
              "valor '0.5' is not a plain decimal (SGS's CSV writes a decimal comma, not a point)");
    EXPECT_EQ(RefusalOf("data;valor\n02/01/2023;1.234,56\n").reason,
              "valor '1.234,56' is not a plain decimal (SGS's CSV writes a decimal comma, not a point)");
    for (const std::string_view bad : {"1e5", "+1", " 1", "1,", ",5", "1 000"}) {
        EXPECT_EQ(RefusalOf("data;valor\n02/01/2023;" + std::string(bad) + "\n").reason,
                  "valor '" + std::string(bad) +
                      "' is not a plain decimal (an optional '-', digits, optionally the decimal separator "
                      "and digits)");
    }
}

TEST(SgsReaderRefusal, SameDateTwice) {
    const Refusal json = RefusalOf(
        "[\n{\"data\":\"01/01/2020\",\"valor\":\"1\"},\n{\"data\":\"02/01/2020\",\"valor\":\"1\"},\n"
        "{\"valor\":\"2\",\n\"data\":\"02/01/2020\"}]");
    EXPECT_EQ(json.line, 5u);  // the line of the repeated date
    EXPECT_EQ(json.reason, "date 02/01/2020 twice (also at line 3)");
    const Refusal csv = RefusalOf("data;valor\n02/01/2023;1\n02/01/2023;1\n");
    EXPECT_EQ(csv.line, 3u);
    EXPECT_EQ(csv.reason, "date 02/01/2023 twice (also at line 2)");
}

TEST(SgsReaderRefusal, DatesNotAscending) {
    const Refusal json =
        RefusalOf(R"([{"data":"03/01/2020","valor":"1"},{"data":"02/01/2020","valor":"1"}])");
    EXPECT_EQ(json.line, 1u);
    EXPECT_EQ(json.reason, "date 02/01/2020 after 03/01/2020 (line 1): SGS answers in ascending date order");
    const Refusal csv = RefusalOf("data;valor\r\n01/02/2023;1\r\n31/01/2023;1\r\n");
    EXPECT_EQ(csv.line, 3u);
    EXPECT_EQ(csv.reason, "date 31/01/2023 after 01/02/2023 (line 2): SGS answers in ascending date order");
}

TEST(SgsReaderRefusal, CsvRowWithOtherThanTwoFields) {
    const Refusal three = RefusalOf("\"data\";\"valor\"\r\n\"02/01/2023\";\"0,5\";\"x\"\r\n");
    EXPECT_EQ(three.line, 2u);
    EXPECT_EQ(three.reason, "expected 2 fields (data;valor), found 3: '\"02/01/2023\";\"0,5\";\"x\"'");
    const Refusal one = RefusalOf("data;valor\n02/01/2023;1\n03/01/2023\n");
    EXPECT_EQ(one.line, 3u);
    EXPECT_EQ(one.reason, "expected 2 fields (data;valor), found 1: '03/01/2023'");
    EXPECT_EQ(RefusalOf("data;valor\n02/01/2023;1;\n").reason,
              "expected 2 fields (data;valor), found 3: '02/01/2023;1;'");
}

TEST(SgsReaderRefusal, CsvQuoting) {
    const Refusal open = RefusalOf("data;valor\n\"02/01/2023;1\n");
    EXPECT_EQ(open.line, 2u);
    EXPECT_EQ(open.reason, "a quote not closed in '\"02/01/2023;1'");
    const Refusal after = RefusalOf("data;valor\n\"02/01/2023\"x;1\n");
    EXPECT_EQ(after.line, 2u);
    EXPECT_EQ(after.reason, "text after a closing quote in '\"02/01/2023\"x;1'");
}

// Empty lines may end a CSV answer, not split it.
TEST(SgsReaderRefusal, CsvEmptyLineAmongRows) {
    const Refusal refusal = RefusalOf("data;valor\r\n02/01/2023;1\r\n\r\n03/01/2023;1\r\n");
    EXPECT_EQ(refusal.line, 3u);
    EXPECT_EQ(refusal.reason, "an empty line among the rows (a row follows at line 4)");
}

TEST(SgsReaderRefusal, TextAfterTheClosingBracket) {
    const Refusal same_line = RefusalOf(R"([{"data":"01/01/2020","valor":"1"}] ])");
    EXPECT_EQ(same_line.line, 1u);
    EXPECT_EQ(same_line.reason, "text after the closing ']' of the answer: ']'");
    // Two answers glued together.
    const Refusal next_lines = RefusalOf("[]\n\n[{\"data\":\"01/01/2020\",\"valor\":\"1\"}]\n");
    EXPECT_EQ(next_lines.line, 3u);
    EXPECT_EQ(next_lines.reason,
              "text after the closing ']' of the answer: '[{\"data\":\"01/01/2020\",\"valor\":\"1\"}]'");
}

TEST(SgsReaderRefusal, NeitherJsonNorCsv) {
    const Refusal refusal = RefusalOf("\n\ndate;value\n01/01/2020;1\n");
    EXPECT_EQ(refusal.line, 3u);
    EXPECT_EQ(
        refusal.reason,
        "not an SGS answer: it starts with 'date;value' (expected a JSON array of {\"data\", \"valor\"} "
        "or the CSV header \"data\";\"valor\")");
    EXPECT_THAT(RefusalOf("data;valor;extra\n").reason,
                HasSubstr("not an SGS answer: it starts with 'data;valor;extra'"));
    EXPECT_THAT(RefusalOf("\"01/01/2020\",1\n").reason, HasSubstr("not an SGS answer"));
}

// The offending text is cut at 60 bytes, and bytes outside printable ASCII are written \xNN.
TEST(SgsReaderRefusal, OffendingTextIsCutAndEscaped) {
    const std::string long_value(100, '9');
    EXPECT_EQ(RefusalOf("data;valor\n01/01/2020;" + long_value + "x\n").reason,
              "valor '" + std::string(60, '9') +
                  "...' is not a plain decimal (an optional '-', digits, optionally "
                  "the decimal separator and digits)");
    EXPECT_EQ(
        RefusalOf("data;valor\n01/01/2020;1\x01\xC3\xA9\n").reason,
        "valor '1\\x01\\xC3\\xA9' is not a plain decimal (an optional '-', digits, optionally the decimal "
        "separator and digits)");
    EXPECT_THAT(RefusalOf(std::string("\x00\x01garbage", 9)).reason, HasSubstr("'\\x00\\x01garbage'"));
}

}  // namespace
}  // namespace lastro::series::testing
