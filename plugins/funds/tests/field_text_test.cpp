#include "ingest/field_text.hpp"

#include <gtest/gtest.h>

namespace lastro::funds {
namespace {

TEST(FieldTextTest, DigitsCaseBlanksAndQuotes) {
    EXPECT_TRUE(AllDigits("202608"));
    EXPECT_FALSE(AllDigits(""));
    EXPECT_FALSE(AllDigits("2026-08"));
    EXPECT_EQ(LowerAscii("CDA_FI_202608.ZIP"), "cda_fi_202608.zip");
    EXPECT_EQ(LowerAscii("Crédito"), "crédito");  // bytes beyond ASCII are left alone
    EXPECT_EQ(TrimBlanks(" \t12.5 \t"), "12.5");
    EXPECT_EQ(TrimBlanks("   "), "");
    EXPECT_EQ(Quoted("abc"), "'abc'");
    EXPECT_EQ(Quoted(std::string(70, 'x')), "'" + std::string(60, 'x') + "...'");
    EXPECT_EQ(Quoted(std::string(50, 'x'), 40), "'" + std::string(40, 'x') + "...'");
}

}  // namespace
}  // namespace lastro::funds
