#include <lastro/sdk/sample/date_math.hpp>

#include <lastro/sdk/sample/prng.hpp>

#include <gtest/gtest.h>

namespace lastro::sdk::sample {
namespace {

TEST(DateMathTest, DayNumbersOfKnownDates) {
    EXPECT_EQ(DayNumber({1970, 1, 1}), 0);
    EXPECT_EQ(DayNumber({1970, 1, 2}), 1);
    EXPECT_EQ(DayNumber({1969, 12, 31}), -1);
    EXPECT_EQ(DayNumber({2000, 3, 1}), 11017);
    EXPECT_EQ(DayNumber({2026, 10, 14}), 20740);
}

TEST(DateMathTest, RoundTripsEveryDayFrom2000To2030) {
    for (std::int64_t n = DayNumber({2000, 1, 1}); n <= DayNumber({2030, 12, 31}); ++n) {
        const Date date = FromDayNumber(n);
        ASSERT_EQ(DayNumber(date), n);
        ASSERT_GE(date.day, 1);
        ASSERT_LE(date.day, DaysInMonth(date.year, date.month));
    }
    EXPECT_EQ(AddDays({2024, 2, 28}, 1), (Date{2024, 2, 29}));
    EXPECT_EQ(AddDays({2023, 2, 28}, 1), (Date{2023, 3, 1}));
}

TEST(DateMathTest, Weekdays) {
    EXPECT_EQ(Weekday({2026, 10, 14}), 3);  // a Wednesday
    EXPECT_EQ(NextWeekday({2026, 10, 17}), (Date{2026, 10, 19}));
    EXPECT_EQ(NextWeekday({2026, 10, 18}), (Date{2026, 10, 19}));
    EXPECT_EQ(NextWeekday({2026, 10, 14}), (Date{2026, 10, 14}));
    EXPECT_EQ(LastWeekdayOfMonth(2026, 5), (Date{2026, 5, 29}));  // the 31st is a Sunday
    EXPECT_EQ(LastWeekdayOfMonth(2026, 9), (Date{2026, 9, 30}));
}

TEST(DateMathTest, RandomDatesStayInRange) {
    Prng rng(3);
    for (int i = 0; i < 500; ++i) {
        const Date date = RecentSkewedDate(rng, {2005, 1, 3}, {2026, 6, 30});
        ASSERT_GE(date, (Date{2005, 1, 3}));
        ASSERT_LE(date, (Date{2026, 6, 30}));
    }
}

}  // namespace
}  // namespace lastro::sdk::sample
