#include "core/http/json_writer.hpp"

#include <gtest/gtest.h>
#include <boost/json.hpp>

namespace lastro::http {
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

TEST(JsonWriterTest, NonFiniteNumbersBecomeNull) {
    EXPECT_EQ(WriteJson(boost::json::value(std::nan(""))), "null");
}

}  // namespace
}  // namespace lastro::http
