#include <lastro/sdk/serving/json_text.hpp>

#include <gtest/gtest.h>
#include <boost/json.hpp>

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

TEST(JsonWriterTest, NonFiniteNumbersBecomeNull) {
    EXPECT_EQ(WriteJson(boost::json::value(std::nan(""))), "null");
}

}  // namespace
}  // namespace lastro::sdk
