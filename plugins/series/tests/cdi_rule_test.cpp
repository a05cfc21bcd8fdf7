// B3's CDI rules (docs/cdi.md) against worked values and B3's own published files: the daily
// factor from the annual rate, rounded to 8 decimals; the accumulation truncated to 16.
#include "domain/cdi.hpp"
#include "domain/decimal_math.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace lastro::series {
namespace {

const std::filesystem::path kB3 = std::filesystem::path(LASTRO_SOURCE_DIR) / "../shared/datasets/real/b3";

std::string ReadText(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), {});
}

TEST(CdiRule, TheDailyFactorIsTheAnnualRatesRootRoundedToEightDecimals) {
    // (1 + 11.65 %)^(1/252) = 1.000437392...; SGS 12 publishes it as 0.043739 % a day.
    EXPECT_EQ(DailyFactorFromAnnual("11.65"), "1.00043739");
    EXPECT_EQ(DailyFactorFromAnnual("14.90"), "1.00055131");
    EXPECT_EQ(DailyFactorFromAnnual("13.65"), "1.00050788");
    EXPECT_EQ(DailyFactorFromAnnual("0.00"), "1.00000000");
    EXPECT_EQ(DailyFactorFromAnnual("2.00"), "1.00007858");  // 1.0000785849...
}

TEST(CdiRule, ANearTieIsSettledExactly) {
    // x = 1.000000005 exactly at 8 decimals is a tie: growth = x^252 rounds up (half up).
    // Take the annual rate whose root is just above and just below the tie.
    // (1.000000005)^252 = 1.00000126000079...; its rate in % with 12 decimals:
    EXPECT_EQ(DailyFactorFromAnnual("0.000126000080"), "1.00000001");  // above the tie
    EXPECT_EQ(DailyFactorFromAnnual("0.000126000078"), "1.00000000");  // below it
}

TEST(CdiRule, FactorsAccumulateTruncatedToSixteenDecimals) {
    const Wide one = OneAccumulated();
    const Wide factor = *DailyFactor("0.043739");  // 1.00043739
    EXPECT_EQ(FormatScaled(factor, kAccumulationDecimals), "1.0004373900000000");
    Wide accumulated = AccumulateTruncated(one, factor);
    accumulated = AccumulateTruncated(accumulated, factor);
    // 1.00043739^2 = 1.0008749713100121 exactly (16 decimals: nothing to truncate yet).
    EXPECT_EQ(FormatScaled(accumulated, kAccumulationDecimals), "1.0008749713100121");
    accumulated = AccumulateTruncated(accumulated, factor);
    // x 1.00043739 = 1.001312744013713366...: truncated at 16 decimals, never rounded.
    EXPECT_EQ(FormatScaled(accumulated, kAccumulationDecimals), "1.0013127440137133");
    EXPECT_FALSE(DailyFactor("0.0437391234567891").has_value()) << "more decimals than B3's factor";
}

// CDIIDI.json: B3's reading of 14/04/2022, 11,65 % a year; SGS 12 published 0.043739 that day.
TEST(CdiRule, B3sRateOfTheDayGivesTheFactorSgsPublished) {
    const std::string json = ReadText(kB3 / "CDIIDI.json");
    ASSERT_NE(json.find("\"taxa\": \"11,65\""), std::string::npos) << json;
    ASSERT_NE(json.find("\"dataTaxa\": \"14/04/2022\""), std::string::npos) << json;
    EXPECT_EQ(DailyFactorFromAnnual("11.65"), FormatScaled(*DailyFactor("0.043739") / 100000000, 8));
}

// Indic.txt (B3, 2014-12-11/12): the DI rate RTDI1 11.59 % and the IDI index (base 2003 and
// 2009) of both days. The index of the 12th is the 11th's times that day's factor, within the
// two roundings to the cent of the published indexes (B3 carries the index unrounded).
TEST(CdiRule, B3sIdiIndexGrowsByTheDailyFactorOfItsRate) {
    const std::string text = ReadText(kB3 / "Indic.txt");
    const auto value_of = [&](const std::string& date, const std::string& name) {
        // 19-byte prefix with the date at 11..18, the name at 19; at 46 the sign, 24 digits and
        // their count of implied decimals (2 digits): "+000000000000000000001159" "02" = 11.59.
        std::size_t at = 0;
        while ((at = text.find(date + name, at)) != std::string::npos) {
            const std::size_t line = text.rfind('\n', at) + 1;
            if (text.compare(line + 19, name.size(), name) == 0 && text[line + 19 + name.size()] == ' ') {
                std::string digits = text.substr(line + 47, 24);
                const int decimals = std::stoi(text.substr(line + 71, 2));
                digits = digits.substr(std::min(digits.find_first_not_of('0'), digits.size() - decimals - 1));
                return digits.insert(digits.size() - static_cast<std::size_t>(decimals), ".");
            }
            ++at;
        }
        return std::string("(absent)");
    };
    ASSERT_EQ(value_of("20141211", "RTDI1"), "11.59");
    for (const std::string index : {"IDIDI2003", "IDIDI2009"}) {
        SCOPED_TRACE(index);
        const Scaled before = ScaledOf(value_of("20141211", index));
        ASSERT_EQ(before.scale, 2);
        const Real grown = RealOf(value_of("20141211", index)) * RealOf(DailyFactorFromAnnual("11.59"));
        const Real published = RealOf(value_of("20141212", index));
        const auto distance = [](Real a, Real b) { return a > b ? a - b : b - a; };
        EXPECT_LE(distance(grown, published), RealOf("0.01"))
            << FormatFixed(grown, 4) << " vs " << FormatFixed(published, 2);
        // A factor 0.0000001 off would miss by more than the roundings allow.
        const Real off = RealOf(value_of("20141211", index)) *
                         (RealOf(DailyFactorFromAnnual("11.59")) + RealOf("0.0000001"));
        EXPECT_GT(distance(off, published), RealOf("0.01"));
    }
}

TEST(DecimalMath, FixedDecimalsRoundHalfAwayFromZeroWithoutBinaryNoise) {
    EXPECT_EQ(FormatFixed(RealOf("4.6210837151"), 8), "4.62108372");
    EXPECT_EQ(FormatFixed(RealOf("-4.6210837151"), 8), "-4.62108372");
    EXPECT_EQ(FormatFixed(RealOf("4.6210837149"), 8), "4.62108371");
    // A quadruple holds 34 digits: the 30-digit products of a series' history are exact here.
    EXPECT_EQ(FormatFixed(RealOf("123456789012345678.123456789"), 9), "123456789012345678.123456789");
    EXPECT_EQ(FormatFixed(RealOf("-0.000000001"), 8), "0.00000000");
    EXPECT_EQ(FormatFixed(RealOf("0.1"), 2), "0.10");
    EXPECT_EQ(FormatFixed(RealOf("123456789012.5"), 0), "123456789013");
    EXPECT_EQ(PercentOfGrowth(GrowthOf("0.052531")), "0.05253100");
    EXPECT_EQ(FormatScaled(ScaledOf("-0.21").units, 2), "-0.21");
    EXPECT_EQ(Rescale(ScaledOf("0.043739"), 8), Wide(4373900));
    EXPECT_THROW(Rescale(ScaledOf("0.043739"), 4), std::invalid_argument);
}

}  // namespace
}  // namespace lastro::series
