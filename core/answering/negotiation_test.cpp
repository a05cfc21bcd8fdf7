#include "core/answering/negotiation.hpp"

#include <gtest/gtest.h>

namespace lastro::answering {
namespace {

TEST(Negotiation, GzipWhenAcceptedAndNotOutweighedByIdentity) {
    EXPECT_EQ(ChooseCoding(std::nullopt), Coding::kIdentity);
    EXPECT_EQ(ChooseCoding(""), Coding::kIdentity);
    EXPECT_EQ(ChooseCoding("gzip"), Coding::kGzip);
    EXPECT_EQ(ChooseCoding("GZip, deflate, br"), Coding::kGzip);
    EXPECT_EQ(ChooseCoding("x-gzip"), Coding::kGzip);
    EXPECT_EQ(ChooseCoding("*"), Coding::kGzip);
    EXPECT_EQ(ChooseCoding("br;q=1.0, gzip;q=0.8, *;q=0.1"), Coding::kGzip);
    EXPECT_EQ(ChooseCoding("deflate, br"), Coding::kIdentity) << "nothing we offer";
    EXPECT_EQ(ChooseCoding("gzip;q=0"), Coding::kIdentity) << "q=0 refuses it";
    EXPECT_EQ(ChooseCoding("gzip; q=0.000"), Coding::kIdentity);
    EXPECT_EQ(ChooseCoding("*;q=0.5, gzip;q=0"), Coding::kIdentity) << "named beats *";
    EXPECT_EQ(ChooseCoding("gzip;q=0.2, identity;q=0.9"), Coding::kIdentity);
    EXPECT_EQ(ChooseCoding("identity;q=0, gzip;q=0.1"), Coding::kGzip);
    EXPECT_EQ(ChooseCoding("identity;q=0, *;q=0"), Coding::kIdentity)
        << "nothing acceptable: answered without coding";
    EXPECT_EQ(ChooseCoding("gzip;q=2"), Coding::kIdentity) << "a malformed weight counts for nothing";
    EXPECT_EQ(ChooseCoding("gzip;q=0.0001"), Coding::kIdentity);
    EXPECT_EQ(ChooseCoding(" , ,gzip ;q=1 ,"), Coding::kGzip);
}

TEST(Negotiation, CsvOnlyWhenAcceptWeighsItAboveJson) {
    EXPECT_FALSE(PrefersCsv(std::nullopt));
    EXPECT_TRUE(PrefersCsv("text/csv"));
    EXPECT_TRUE(PrefersCsv("Text/CSV; charset=utf-8"));
    EXPECT_TRUE(PrefersCsv("text/*"));
    EXPECT_TRUE(PrefersCsv("text/csv, application/json;q=0.5"));
    EXPECT_TRUE(PrefersCsv("text/csv;q=0.9, */*;q=0.1"));
    EXPECT_FALSE(PrefersCsv("*/*"));
    EXPECT_FALSE(PrefersCsv("text/csv, application/json")) << "a tie is JSON";
    EXPECT_FALSE(PrefersCsv("application/json"));
    EXPECT_FALSE(PrefersCsv("text/csv;q=0, */*"));
    EXPECT_FALSE(PrefersCsv("text/html"));
    EXPECT_FALSE(PrefersCsv("text/csv;q=x"));
}

TEST(Negotiation, IfNoneMatchComparesTagsWeakly) {
    const std::string_view tag = "\"abc.json\"";
    EXPECT_TRUE(NoneMatchNames("\"abc.json\"", tag));
    EXPECT_TRUE(NoneMatchNames("W/\"abc.json\"", tag));
    EXPECT_TRUE(NoneMatchNames("\"x\", \"abc.json\"", tag));
    EXPECT_TRUE(NoneMatchNames(" * ", tag));
    EXPECT_FALSE(NoneMatchNames("\"abc\"", tag));
    EXPECT_FALSE(NoneMatchNames("abc.json", tag)) << "unquoted is not a tag";
    EXPECT_FALSE(NoneMatchNames("\"abc.json", tag));
    EXPECT_FALSE(NoneMatchNames("junk, \"abc.json\"", tag)) << "nothing is read after a malformed element";
    EXPECT_FALSE(NoneMatchNames("", tag));
    EXPECT_FALSE(NoneMatchNames("\"\"", tag));
}

}  // namespace
}  // namespace lastro::answering
