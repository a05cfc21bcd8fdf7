#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/pagination.hpp>
#include <lastro/sdk/uuid.hpp>

#include <gtest/gtest.h>
#include <boost/describe/class.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lastro::sdk {
namespace {

struct UuidAfter {
    std::string after;
    bool Valid() const { return IsUuid(after); }
};
BOOST_DESCRIBE_STRUCT(UuidAfter, (), (after))

struct OrdinalAfter {
    std::int64_t after = 0;
    bool Valid() const { return after >= 0; }
};
BOOST_DESCRIBE_STRUCT(OrdinalAfter, (), (after))

// A sort value that may be null, within one month, ties broken by id.
struct SortedAfter {
    Month month;
    std::optional<std::string> value;
    std::string id;
    bool Valid() const { return IsUuid(id); }
};
BOOST_DESCRIBE_STRUCT(SortedAfter, (), (month, value, id))

constexpr const char* kId = "0f8e4c1a-2b3d-5e6f-8a9b-0c1d2e3f4a5b";

// As the host hands it back: the position travels as JSON text inside the signed cursor.
std::optional<boost::json::value> Travelled(const boost::json::value& position) {
    return boost::json::parse(boost::json::serialize(position));
}

// The BadRequest a position gets, or "" when it is accepted.
template <typename Position>
std::string Refusal(const boost::json::value& position) {
    try {
        ReadPosition<Position>(Travelled(position), "/v1/things");
    } catch (const Problem& problem) {
        EXPECT_EQ(problem.Code(), ProblemCode::kBadRequest);
        EXPECT_EQ(problem.Parameter(), "cursor");
        return problem.what();
    }
    return "";
}

TEST(KeysetPosition, NoCursorIsAFirstPage) {
    EXPECT_FALSE(ReadPosition<UuidAfter>(std::nullopt, "/v1/things").has_value());
}

TEST(KeysetPosition, ReadsBackWhatItWrote) {
    const boost::json::value written = PositionValue(UuidAfter{kId});
    EXPECT_EQ(boost::json::serialize(written), std::string("{\"after\":\"") + kId + "\"}");
    EXPECT_EQ(ReadPosition<UuidAfter>(Travelled(written), "/v1/things")->after, kId);

    const auto ordinal = ReadPosition<OrdinalAfter>(Travelled(PositionValue(OrdinalAfter{41})), "/v1/things");
    EXPECT_EQ(ordinal->after, 41);

    const boost::json::value sorted = PositionValue(SortedAfter{{2025, 5}, std::nullopt, kId});
    EXPECT_EQ(boost::json::serialize(sorted),
              std::string("{\"month\":\"2025-05\",\"value\":null,\"id\":\"") + kId + "\"}");
    const auto read = ReadPosition<SortedAfter>(Travelled(sorted), "/v1/things");
    EXPECT_EQ(read->month, (Month{2025, 5}));
    EXPECT_FALSE(read->value.has_value());
    const auto valued = ReadPosition<SortedAfter>(
        Travelled(PositionValue(SortedAfter{{2025, 5}, "0.0492", kId})), "/v1/things");
    EXPECT_EQ(valued->value, "0.0492");
}

TEST(KeysetPosition, ASignedPositionOfAnotherShapeIsABadRequestNamingTheCursor) {
    const std::string message = "the cursor was not issued by /v1/things";
    EXPECT_EQ(Refusal<UuidAfter>(boost::json::value(kId)), message);                 // not an object
    EXPECT_EQ(Refusal<UuidAfter>(boost::json::object{}), message);                   // missing member
    EXPECT_EQ(Refusal<UuidAfter>(boost::json::object{{"offset", 3}}), message);      // another operation's
    EXPECT_EQ(Refusal<UuidAfter>(boost::json::object{{"after", 3}}), message);       // wrong type
    EXPECT_EQ(Refusal<UuidAfter>(boost::json::object{{"after", "nope"}}), message);  // not Valid()
    EXPECT_EQ(Refusal<UuidAfter>(boost::json::object{{"after", kId}, {"x", 1}}), message);  // extra member
    EXPECT_EQ(Refusal<UuidAfter>(boost::json::object{{"after", nullptr}}), message);

    EXPECT_EQ(Refusal<OrdinalAfter>(boost::json::object{{"after", -1}}), message);
    EXPECT_EQ(Refusal<OrdinalAfter>(boost::json::object{{"after", 2.5}}), message);
    EXPECT_EQ(Refusal<OrdinalAfter>(boost::json::object{{"after", "7"}}), message);
    EXPECT_EQ(Refusal<OrdinalAfter>(boost::json::object{{"after", std::uint64_t{1} << 63}}), message);

    EXPECT_EQ(
        Refusal<SortedAfter>(boost::json::object{{"month", "2025-13"}, {"value", nullptr}, {"id", kId}}),
        message);
    // A null-able member must still be there: its absence is another shape, not a null.
    EXPECT_EQ(Refusal<SortedAfter>(boost::json::object{{"month", "2025-05"}, {"id", kId}}), message);
    EXPECT_EQ(Refusal<SortedAfter>(boost::json::object{{"month", "2025-05"}, {"value", 0.5}, {"id", kId}}),
              message);
    EXPECT_EQ(Refusal<SortedAfter>(boost::json::object{{"month", "2025-05"}, {"value", "1"}, {"id", kId}}),
              "");
}

TEST(KeysetPage, CutsTheRowPastThePage) {
    std::vector<int> rows{1, 2, 3, 4};
    EXPECT_TRUE(CutToPage(rows, 3));
    EXPECT_EQ(rows, (std::vector<int>{1, 2, 3}));
    EXPECT_FALSE(CutToPage(rows, 3));  // exactly full: the last page
    EXPECT_EQ(rows.size(), 3u);
    std::vector<int> none;
    EXPECT_FALSE(CutToPage(none, 1));
}

TEST(PageLimit, IsTheParameterAtLeastOneElseTheFallback) {
    Params params;
    EXPECT_EQ(PageLimit(params, 25), 25u);
    params.Set("limit", std::int64_t{7});
    EXPECT_EQ(PageLimit(params, 25), 7u);
    params.Set("limit", std::int64_t{0});
    EXPECT_EQ(PageLimit(params, 25), 1u);
}

std::string PaginationOf(const Meta& meta) {
    return boost::json::serialize(meta.extra.at("pagination"));
}

TEST(OffsetPage, ReadsLimitAndOffset) {
    Params params;
    OffsetPage page = ReadOffsetPage(params, 50);
    EXPECT_EQ(page.limit, 50u);
    EXPECT_EQ(page.offset, 0u);
    params.Set("limit", std::int64_t{10});
    params.Set("offset", std::int64_t{20});
    page = ReadOffsetPage(params, 50);
    EXPECT_EQ(page.limit, 10u);
    EXPECT_EQ(page.offset, 20u);
    params.Set("offset", std::int64_t{-5});
    EXPECT_EQ(ReadOffsetPage(params, 50).offset, 0u);
}

TEST(OffsetPage, SlicesAndSaysWhetherMoreFollow) {
    const std::vector<int> rows{10, 11, 12, 13, 14};
    Meta meta;
    std::span<const int> page = OffsetSlice(rows, {2, 0}, meta);
    EXPECT_EQ(std::vector<int>(page.begin(), page.end()), (std::vector<int>{10, 11}));
    EXPECT_EQ(PaginationOf(meta), R"({"limit":2,"offset":0,"has_more":true})");

    page = OffsetSlice(rows, {2, 3}, meta);  // the last two rows exactly
    EXPECT_EQ(std::vector<int>(page.begin(), page.end()), (std::vector<int>{13, 14}));
    EXPECT_EQ(PaginationOf(meta), R"({"limit":2,"offset":3,"has_more":false})");

    page = OffsetSlice(rows, {10, 4}, meta);
    EXPECT_EQ(std::vector<int>(page.begin(), page.end()), (std::vector<int>{14}));
    EXPECT_EQ(PaginationOf(meta), R"({"limit":10,"offset":4,"has_more":false})");

    page = OffsetSlice(rows, {3, 9}, meta);  // past the end: empty, not an error
    EXPECT_TRUE(page.empty());
    EXPECT_EQ(PaginationOf(meta), R"({"limit":3,"offset":9,"has_more":false})");

    const std::vector<int> empty;
    EXPECT_TRUE(OffsetSlice(empty, {5, 0}, meta).empty());
    EXPECT_EQ(PaginationOf(meta), R"({"limit":5,"offset":0,"has_more":false})");
}

}  // namespace
}  // namespace lastro::sdk
