#include <lastro/sdk/calendar.hpp>

#include <gtest/gtest.h>

namespace lastro::sdk {
namespace {

TEST(MonthParse, RejectsAnythingButStrictYearDashMonth) {
    for (const char* text : {"", "2024-13", "2024-00", "24-01", "2024-1", "2024-001", " 2024-01", "2024-01 ",
                             "2024-01\n", "2024/01", "2024_01", "+024-01", "2024-+1", "2024-1a", "1899-12",
                             "3000-01", "202401", "2024-01-01", "２０24-01"}) {
        EXPECT_FALSE(Month::Parse(text).has_value()) << "'" << text << "'";
    }
}

TEST(MonthParse, AcceptsTheYearRangeBounds) {
    EXPECT_EQ(Month::Parse("1900-01"), (Month{1900, 1}));
    EXPECT_EQ(Month::Parse("2999-12"), (Month{2999, 12}));
    EXPECT_EQ(Month::Parse("2024-07"), (Month{2024, 7}));
}

TEST(MonthToString, IsZeroPadded) {
    EXPECT_EQ((Month{2024, 3}).ToString(), "2024-03");
    EXPECT_EQ((Month{1900, 12}).ToString(), "1900-12");
}

TEST(MonthNavigation, WrapsAcrossYears) {
    EXPECT_EQ((Month{2024, 1}).Previous(), (Month{2023, 12}));
    EXPECT_EQ((Month{2023, 12}).Next(), (Month{2024, 1}));
    EXPECT_EQ((Month{2024, 6}).Previous(), (Month{2024, 5}));
    EXPECT_EQ((Month{2024, 6}).Next(), (Month{2024, 7}));
}

TEST(MonthCompare, OrdersByYearThenMonth) {
    EXPECT_LT((Month{2023, 12}), (Month{2024, 1}));
    EXPECT_LT((Month{2024, 1}), (Month{2024, 2}));
}

TEST(DateParse, RejectsDaysThatDoNotExist) {
    for (const char* text :
         {"2023-02-29", "1900-02-29", "2100-02-29", "2024-02-30", "2024-04-31", "2024-06-31", "2024-09-31",
          "2024-11-31", "2024-01-32", "2024-01-00", "2024-13-01", "2024-00-10"}) {
        EXPECT_FALSE(Date::Parse(text).has_value()) << text;
    }
}

TEST(DateParse, RejectsMalformedText) {
    for (const char* text :
         {"", "2024-1-01", "2024-01-1", "24-01-01", "2024/01/01", "20240101", " 2024-01-01", "2024-01-01 ",
          "2024-01-01T00:00", "2024-01-0a", "2024-01--1", "1899-12-31", "3000-01-01"}) {
        EXPECT_FALSE(Date::Parse(text).has_value()) << "'" << text << "'";
    }
}

TEST(DateParse, AcceptsLeapDaysAndMonthEnds) {
    EXPECT_EQ(Date::Parse("2024-02-29"), (Date{2024, 2, 29}));
    EXPECT_EQ(Date::Parse("2000-02-29"), (Date{2000, 2, 29}));
    EXPECT_EQ(Date::Parse("2023-02-28"), (Date{2023, 2, 28}));
    EXPECT_EQ(Date::Parse("2024-12-31"), (Date{2024, 12, 31}));
    EXPECT_EQ(Date::Parse("2024-04-30"), (Date{2024, 4, 30}));
}

TEST(DateToString, IsZeroPaddedAndRoundTrips) {
    EXPECT_EQ((Date{2024, 3, 5}).ToString(), "2024-03-05");
    EXPECT_EQ(Date::Parse("1999-01-09")->ToString(), "1999-01-09");
    EXPECT_EQ((Date{2024, 3, 5}).ToMonth(), (Month{2024, 3}));
}

TEST(DaysInMonth, KnowsLeapYearsAndRejectsBadMonths) {
    EXPECT_EQ(DaysInMonth(2024, 2), 29);
    EXPECT_EQ(DaysInMonth(2023, 2), 28);
    EXPECT_EQ(DaysInMonth(1900, 2), 28);
    EXPECT_EQ(DaysInMonth(2000, 2), 29);
    EXPECT_EQ(DaysInMonth(2024, 4), 30);
    EXPECT_EQ(DaysInMonth(2024, 12), 31);
    EXPECT_EQ(DaysInMonth(2024, 0), 0);
    EXPECT_EQ(DaysInMonth(2024, 13), 0);
}

}  // namespace
}  // namespace lastro::sdk

TEST(UtcClock, WritesRfc3339AndTheDayInUtcWhateverTheLocalZone) {
    EXPECT_EQ(lastro::sdk::Rfc3339Utc(1707100000), "2024-02-05T02:26:40Z");
    EXPECT_EQ(lastro::sdk::Rfc3339Utc(0), "1970-01-01T00:00:00Z");
    EXPECT_EQ(lastro::sdk::UtcDate(1707100000), (lastro::sdk::Date{2024, 2, 5}));
    EXPECT_EQ(lastro::sdk::UtcDate(1704067199), (lastro::sdk::Date{2023, 12, 31}));  // a second before 2024
}
