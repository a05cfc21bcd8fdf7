#include <lastro/sdk/serving/json_text.hpp>

#include <gtest/gtest.h>
#include <boost/json.hpp>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

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

TEST(JsonWriterTest, NonFiniteNumbersBecomeNull) {
    EXPECT_EQ(WriteJson(boost::json::value(std::nan(""))), "null");
}

}  // namespace
}  // namespace lastro::sdk
