#include <lastro/sdk/serving/json_values.hpp>

#include <gtest/gtest.h>
#include <boost/json/serialize.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace lastro::sdk {
namespace {

TEST(JsonOrNull, AMissingValueIsNullNeverZeroOrEmpty) {
    EXPECT_TRUE(JsonOrNull(std::optional<std::string>()).is_null());
    EXPECT_TRUE(JsonOrNull(std::optional<std::int64_t>()).is_null());
    EXPECT_TRUE(JsonOrNull(std::optional<double>()).is_null());
    EXPECT_TRUE(JsonOrNull(std::optional<bool>()).is_null());
    EXPECT_TRUE(JsonOrNull(std::optional<Date>()).is_null());
    EXPECT_TRUE(JsonOrNull(std::optional<Month>()).is_null());
    EXPECT_TRUE(JsonOrNull(odb::nullable<std::string>()).is_null());
    EXPECT_TRUE(JsonOrNull(odb::nullable<std::int64_t>()).is_null());
    EXPECT_TRUE(JsonOrNull(odb::nullable<double>()).is_null());
    EXPECT_TRUE(JsonOrNull(odb::nullable<Date>()).is_null());
}

TEST(JsonOrNull, APresentValueKeepsItsKindAndZeroStaysZero) {
    EXPECT_EQ(JsonOrNull(std::optional<std::string>("FIDC")), boost::json::value("FIDC"));
    EXPECT_EQ(JsonOrNull(std::optional<std::string>("")), boost::json::value(""));
    const boost::json::value code = JsonOrNull(std::optional<std::int64_t>(123));
    ASSERT_TRUE(code.is_int64());
    EXPECT_EQ(code.get_int64(), 123);
    const boost::json::value zero = JsonOrNull(std::optional<double>(0.0));
    ASSERT_TRUE(zero.is_double());
    EXPECT_EQ(zero.get_double(), 0.0);
    EXPECT_EQ(JsonOrNull(std::optional<double>(-1156879.12)).get_double(), -1156879.12);
    EXPECT_EQ(JsonOrNull(std::optional<bool>(false)), boost::json::value(false));
    EXPECT_EQ(JsonOrNull(odb::nullable<std::string>("x")), boost::json::value("x"));
    EXPECT_EQ(JsonOrNull(odb::nullable<std::int64_t>(std::int64_t{0})).get_int64(), 0);
}

TEST(JsonOrNull, DatesAndMonthsAreTheirApiText) {
    EXPECT_EQ(JsonOrNull(std::optional<Date>(Date{2024, 2, 29})), boost::json::value("2024-02-29"));
    EXPECT_EQ(JsonOrNull(std::optional<Month>(Month{2024, 5})), boost::json::value("2024-05"));
    EXPECT_EQ(JsonOrNull(odb::nullable<Date>(Date{1999, 12, 31})), boost::json::value("1999-12-31"));
}

TEST(MonthAndDateFromJson, ReadExactlyTheirTextAndNothingElse) {
    EXPECT_EQ(boost::json::value_to<Month>(boost::json::value("2025-05")), (Month{2025, 5}));
    EXPECT_EQ(boost::json::value_to<Date>(boost::json::value("2025-05-31")), (Date{2025, 5, 31}));
    for (const boost::json::value& bad :
         {boost::json::value("2025-13"), boost::json::value("2025-5"), boost::json::value(202505),
          boost::json::value(nullptr), boost::json::value("2025-05-01")}) {
        EXPECT_FALSE(boost::json::try_value_to<Month>(bad)) << boost::json::serialize(bad);
    }
    for (const boost::json::value& bad : {boost::json::value("2025-02-30"), boost::json::value("2025-05"),
                                          boost::json::value(true), boost::json::value(nullptr)}) {
        EXPECT_FALSE(boost::json::try_value_to<Date>(bad)) << boost::json::serialize(bad);
    }
}

}  // namespace
}  // namespace lastro::sdk
