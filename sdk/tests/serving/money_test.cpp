#include <lastro/sdk/serving/money.hpp>

#include <gtest/gtest.h>

#include <charconv>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace lastro::sdk {
namespace {

// What the host's JSON writer prints for a double: the shortest text that reads back as it.
std::string Shortest(double value) {
    char text[64];
    const auto written = std::to_chars(text, text + sizeof text, value);
    return std::string(text, written.ptr);
}

TEST(Money, APlainFloatSumIsNoisyAndTheCentSumIsNot) {
    // The real values behind the issue: a float sum prints 17 digits.
    EXPECT_EQ(Shortest(5826.69 + 7547266.98), "7553093.670000001");
    EXPECT_EQ(Shortest(*SumOfAmounts({5826.69, 7547266.98})), "7553093.67");
    EXPECT_EQ(Shortest(1337255484.4 + 0.2), "1337255484.6000001");
    EXPECT_EQ(Shortest(*SumOfAmounts({1337255484.4, 0.2})), "1337255484.6");
    EXPECT_EQ(Shortest(*SumOfAmounts({0.1, 0.2})), "0.3");
    EXPECT_EQ(Shortest(0.1 + 0.2), "0.30000000000000004");
}

TEST(Money, CentsAreTheDecimalTheDoubleStandsFor) {
    EXPECT_EQ(ToCents(1337255484.6), 133725548460);
    EXPECT_EQ(ToCents(1337255484.6000001), 133725548460);
    EXPECT_EQ(ToCents(-0.35), -35);
    EXPECT_EQ(ToCents(7.0), 700);
    EXPECT_EQ(ToCents(0.0), 0);
    EXPECT_EQ(ToCents(-0.0), 0);
    EXPECT_EQ(ToCents(1e-300), 0);
    EXPECT_EQ(ToCents(0.004), 0);
    // Halves away from zero on the decimal, not on the binary value (0.285 is stored as
    // 0.28499999999999998); beyond the third decimal only the third decides.
    EXPECT_EQ(ToCents(0.285), 29);
    EXPECT_EQ(ToCents(-0.285), -29);
    EXPECT_EQ(ToCents(0.2849), 28);
    EXPECT_EQ(ToCents(0.005), 1);
    EXPECT_EQ(ToCents(12.3456789), 1235);
    EXPECT_EQ(ToCents(99.995), 10000);
}

TEST(Money, FromCentsPrintsAtMostTwoDecimalsAndNeverMinusZero) {
    EXPECT_EQ(Shortest(FromCents(133725548460)), "1337255484.6");
    EXPECT_EQ(Shortest(FromCents(-35)), "-0.35");
    EXPECT_EQ(Shortest(FromCents(1)), "0.01");
    EXPECT_EQ(Shortest(FromCents(0)), "0");
    EXPECT_EQ(Shortest(FromCents(kMaxCents)), "9999999999999.99");
    EXPECT_EQ(Shortest(FromCents(-kMaxCents)), "-9999999999999.99");
    // Every cent of a spread of magnitudes reads back as itself with at most two decimals.
    for (std::int64_t cents = -100'000; cents <= 100'000; cents += 7) {
        for (std::int64_t scale : {std::int64_t{1}, std::int64_t{1'000'003}, std::int64_t{99'999'999'999}}) {
            const std::int64_t c = cents * scale;
            if (c > kMaxCents || c < -kMaxCents) {
                continue;
            }
            const std::string text = Shortest(FromCents(c));
            const auto point = text.find('.');
            ASSERT_TRUE(point == std::string::npos || text.size() - point - 1 <= 2) << c << " -> " << text;
            ASSERT_EQ(ToCents(FromCents(c)), c) << text;
        }
    }
}

TEST(Money, ImpossibleAmountsAreRefused) {
    EXPECT_THROW(ToCents(std::numeric_limits<double>::quiet_NaN()), std::domain_error);
    EXPECT_THROW(ToCents(std::numeric_limits<double>::infinity()), std::domain_error);
    EXPECT_THROW(ToCents(1e13), std::domain_error);
    EXPECT_THROW(FromCents(kMaxCents + 1), std::domain_error);
    MoneySum sum;
    sum.Add(FromCents(kMaxCents));
    EXPECT_THROW(sum.Add(0.01), std::domain_error);
}

TEST(Money, RoundingAndDifferencesAreToTheCentAndKeepNull) {
    EXPECT_EQ(Shortest(RoundToCents(1000.123 * 3.0)), "3000.37");
    EXPECT_EQ(RoundToCents(std::optional<double>()), std::nullopt);
    EXPECT_EQ(Shortest(*MoneyDifference(1337255484.6, 0.2)), "1337255484.4");
    EXPECT_EQ(Shortest(1337255484.6 - 0.2), "1337255484.3999999");
    EXPECT_EQ(*MoneyDifference(0.3, 0.1 + 0.2), 0.0);
    EXPECT_EQ(MoneyDifference(1.0, std::nullopt), std::nullopt);
    EXPECT_EQ(MoneyDifference(std::nullopt, 1.0), std::nullopt);
}

TEST(MoneySum, AMissingPartMakesTheTotalNullAndThePartialTotalKeepsThePresentParts) {
    MoneySum sum;
    EXPECT_EQ(sum.Total(), std::nullopt);  // no part: nothing to add up
    EXPECT_EQ(sum.PartialTotal(), std::nullopt);
    sum.Add(10.10).Add(std::nullopt).Add(0.0);
    EXPECT_EQ(sum.Parts(), 3u);
    EXPECT_EQ(sum.Present(), 2u);
    EXPECT_EQ(sum.Missing(), 1u);
    EXPECT_FALSE(sum.Complete());
    EXPECT_EQ(sum.Total(), std::nullopt);
    EXPECT_EQ(sum.PartialTotal(), 10.1);

    MoneySum zeros;
    zeros.Add(0.0).Add(-0.0);  // a published 0.00 is a value
    EXPECT_TRUE(zeros.Complete());
    EXPECT_EQ(zeros.Total(), 0.0);

    MoneySum missing;
    missing.Add(std::nullopt);
    EXPECT_EQ(missing.Total(), std::nullopt);
    EXPECT_EQ(missing.PartialTotal(), std::nullopt);

    MoneySum both;
    both.Add(1.25).Add(sum);
    EXPECT_EQ(both.Parts(), 4u);
    EXPECT_EQ(both.Total(), std::nullopt);
    EXPECT_EQ(both.PartialTotal(), 11.35);
}

TEST(MoneySum, TheOrderOfThePartsDoesNotChangeTheTotal) {
    const std::vector<std::optional<double>> parts = {0.1, 1e9 + 0.07, 0.2, 123456.78, -0.37, 0.01};
    std::vector<std::optional<double>> reversed(parts.rbegin(), parts.rend());
    EXPECT_EQ(SumOfAmounts(parts), SumOfAmounts(reversed));
    EXPECT_EQ(Shortest(*SumOfAmounts(parts)), "1000123456.79");
    EXPECT_EQ(SumOfAmounts({}), std::nullopt);
    EXPECT_EQ(SumOfAmounts({1.0, std::nullopt}), std::nullopt);
}

}  // namespace
}  // namespace lastro::sdk
