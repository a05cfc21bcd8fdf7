#include <lastro/sdk/serving/json_text.hpp>

#include <gtest/gtest.h>
#include <boost/json.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace lastro::sdk {
namespace {

TEST(JsonWriterTest, WritesMoneyInPlainNotationAndRoundTrips) {
    boost::json::object o{
        {"nav", 1156879.12}, {"ratio", 0.0525},           {"count", 3},
        {"none", nullptr},   {"name", "CRÉDITO \"A\"\n"}, {"list", boost::json::array{1.5, true, "x"}}};
    const std::string text = WriteJson(o);
    EXPECT_NE(text.find("\"nav\":1156879.12"), std::string::npos) << text;
    EXPECT_NE(text.find("\"ratio\":0.0525"), std::string::npos) << text;
    EXPECT_EQ(boost::json::parse(text), boost::json::value(o));
}

TEST(JsonWriterTest, WholeAmountsAndSmallFractionsStayInPlainNotation) {
    // The shortest form alone would print 1e+06 and 5e-05.
    EXPECT_EQ(WriteJson(boost::json::value(1000000.0)), "1000000");
    EXPECT_EQ(WriteJson(boost::json::value(-500000.0)), "-500000");
    EXPECT_EQ(WriteJson(boost::json::value(1337255484.6)), "1337255484.6");
    EXPECT_EQ(WriteJson(boost::json::value(0.00005)), "0.00005");
    EXPECT_EQ(WriteJson(boost::json::value(0.0)), "0");
    EXPECT_EQ(WriteJson(boost::json::value(-0.0)), "-0");
    EXPECT_EQ(WriteJson(boost::json::value(9999999999999.99)), "9999999999999.99");
    // Beyond money's magnitudes: the shortest form, still valid JSON.
    EXPECT_EQ(WriteJson(boost::json::value(1e20)), "1e+20");
    EXPECT_EQ(WriteJson(boost::json::value(1e-7)), "1e-07");
    for (const double d : {1e20, 1e-7, 123456789012345.6, 0.1 + 0.2}) {
        EXPECT_EQ(boost::json::parse(WriteJson(boost::json::value(d))).as_double(), d);
    }
}

TEST(JsonWriterTest, EscapesStringsAsBoostJsonDoes) {
    std::string every_byte;
    for (int c = 1; c < 256; ++c) {
        every_byte += static_cast<char>(c);
    }
    for (const std::string& text :
         {std::string(""), std::string("plain"), std::string("tab\there \"q\" \\ end"),
          std::string("ação\x01\x1f\x7f"), every_byte}) {
        const boost::json::value value = boost::json::string(text);
        EXPECT_EQ(WriteJson(value), boost::json::serialize(value)) << text;
        EXPECT_EQ(WriteJson(boost::json::object{{text, 1}}),
                  boost::json::serialize(boost::json::object{{text, 1}}));
    }
}

// Strings are scanned eight bytes at a time: every byte that must be escaped, and a UTF-8 byte
// beside it, at every place in and around a word, in strings of every length up to three words.
TEST(JsonWriterTest, EscapesEveryByteWhereverItFallsInAWord) {
    std::string escaped = "\"\\";
    for (int c = 0; c < 0x20; ++c) {
        escaped += static_cast<char>(c);
    }
    EXPECT_EQ(WriteJson(boost::json::string("")), "\"\"");
    for (std::size_t length = 1; length <= 24; ++length) {
        for (std::size_t at = 0; at < length; ++at) {
            for (const char special : escaped) {
                std::string text(length, 'a');
                if (length > 1) {
                    text[(at + 1) % length] = '\xc3';
                }
                text[at] = special;
                const boost::json::value value = boost::json::string(text);
                ASSERT_EQ(WriteJson(value), boost::json::serialize(value)) << length << " " << at;
            }
        }
    }
}

// The writer's text is WriteJson's for the same values: nesting, commas, nulls, numbers, escapes.
TEST(JsonTextTest, WritesWhatWriteJsonWritesForTheSameValues) {
    const std::optional<std::string> none;
    const std::optional<std::int64_t> code = 42;
    const std::optional<double> money = 1156879.12;
    boost::json::array rows;
    JsonText json;
    json.BeginArray();
    for (int i = 0; i < 3; ++i) {
        boost::json::array classes;
        for (int j = 0; j < i; ++j) {
            classes.push_back(boost::json::object{{"id", j}, {"name", "classe \"a\"\n"}});
        }
        rows.push_back(boost::json::object{{"name", "ação " + std::to_string(i)},
                                           {"missing", nullptr},
                                           {"code", *code},
                                           {"money", *money},
                                           {"small", 1e-7},
                                           {"nan", std::nan("")},
                                           {"active", i % 2 == 0},
                                           {"classes", std::move(classes)},
                                           {"empty", boost::json::object{}}});
        json.BeginObject();
        json.Key("name").Value("ação " + std::to_string(i));
        json.Key("missing").Value(none);
        json.Key("code").Value(code);
        json.Key("money").Value(money);
        json.Key("small").Value(1e-7);
        json.Key("nan").Value(std::nan(""));
        json.Key("active").Value(i % 2 == 0);
        json.Key("classes").BeginArray();
        for (int j = 0; j < i; ++j) {
            json.BeginObject()
                .Key("id")
                .Value(std::int64_t{j})
                .Key("name")
                .Value("classe \"a\"\n")
                .EndObject();
        }
        json.EndArray();
        json.Key("empty").BeginObject().EndObject();
        json.EndObject();
    }
    json.EndArray();
    EXPECT_EQ(json.Take(), WriteJson(rows));
    EXPECT_EQ(json.Take(), "");
    json.BeginArray().EndArray();
    EXPECT_EQ(json.Take(), "[]");
}

TEST(JsonTextTest, RawTextTakesAValuesPlaceWithItsComma) {
    const boost::json::object stored{{"CD_ATIVO", "ação \"x\""}, {"EMISSOR", "b"}};
    JsonText json;
    json.BeginArray();
    json.Raw(boost::json::serialize(stored));
    json.BeginObject().Key("details").Raw(WriteJson(stored)).Key("n").Value(std::int64_t{1}).EndObject();
    json.EndArray();
    EXPECT_EQ(json.Take(),
              WriteJson(boost::json::array{stored, boost::json::object{{"details", stored}, {"n", 1}}}));
}

// What WriteJson wrote for every number before short decimals were written by hand: to_chars's
// shortest round-trip digits, in plain notation from 1e-6 to 1e15.
std::string ToCharsReference(double d) {
    char buffer[64];
    const double magnitude = std::fabs(d);
    const bool plain = magnitude == 0.0 || (magnitude >= 1e-6 && magnitude < 1e15);
    auto [end, ec] = plain ? std::to_chars(buffer, buffer + sizeof buffer, d, std::chars_format::fixed)
                           : std::to_chars(buffer, buffer + sizeof buffer, d);
    return std::string(buffer, end);
}

TEST(JsonWriterTest, ShortDecimalsAreWrittenAsToCharsWritesThem) {
    std::vector<double> numbers = {0.1 + 0.2,
                                   9999999999999.99,
                                   999999999999999.0,
                                   99999999999999.9,
                                   123456789012345.6,
                                   1e-6,
                                   0.000001234,
                                   1.5e-6,
                                   0.05,
                                   100.0,
                                   1e14,
                                   5e14,
                                   0.3,
                                   2.675,
                                   1.005,
                                   1234.5678,
                                   0.999999999999999,
                                   4503599627370495.5,
                                   1.0 / 3.0,
                                   2.0 / 3.0,
                                   1e15 - 0.5};
    std::mt19937_64 random(20261127);
    // Decimals of 1 to 17 digits with 0 to 21 places: money, quota values, ratios, and the
    // longest that no longer fit 15 digits.
    for (int i = 0; i < 200000; ++i) {
        const int digits = 1 + static_cast<int>(random() % 17);
        const int places = static_cast<int>(random() % 22);
        std::uint64_t m = random() % 100000000000000000ULL;
        for (int d = digits; d < 17; ++d) {
            m /= 10;
        }
        numbers.push_back(std::stod(std::to_string(m) + "e-" + std::to_string(places)));
    }
    // Doubles of any bits, and neighbours of short decimals.
    for (int i = 0; i < 200000; ++i) {
        const std::uint64_t bits = random();
        double d;
        std::memcpy(&d, &bits, sizeof d);
        numbers.push_back(d);
        numbers.push_back(std::nextafter(numbers[static_cast<std::size_t>(random() % numbers.size())], 0.0));
    }
    for (const double d : numbers) {
        if (!std::isfinite(d)) {
            continue;
        }
        for (const double signed_d : {d, -d}) {
            ASSERT_EQ(WriteJson(boost::json::value(signed_d)), ToCharsReference(signed_d))
                << "to_chars writes " << ToCharsReference(signed_d);
        }
    }
}

TEST(JsonWriterTest, NonFiniteNumbersBecomeNull) {
    EXPECT_EQ(WriteJson(boost::json::value(std::nan(""))), "null");
}

}  // namespace
}  // namespace lastro::sdk
