#include "core/request/percent_decoding.hpp"

#include <gtest/gtest.h>

namespace lastro::request {
namespace {

TEST(PercentDecodingTest, DecodesEscapesAndPlusOnlyInQueries) {
    EXPECT_EQ(PercentDecode("cr%C3%A9dito+imobili%c3%a1rio", true).value(), "crédito imobiliário");
    EXPECT_EQ(PercentDecode("/v1/a+b%2Fc", false).value(), "/v1/a+b/c");
    EXPECT_EQ(PercentDecode("", true).value(), "");
    EXPECT_EQ(PercentDecode("a%00b", true).value(), std::string("a\0b", 3));
}

TEST(PercentDecodingTest, RefusesInvalidEscapes) {
    for (const char* raw : {"%", "%4", "%zz", "a%G1", "100%"}) {
        EXPECT_FALSE(PercentDecode(raw, true).has_value()) << raw;
    }
}

}  // namespace
}  // namespace lastro::request
