#include "core/arguments/cursor_codec.hpp"

#include <gtest/gtest.h>

namespace lastro::arguments {
namespace {

constexpr std::time_t kNow = 2000;

TEST(CursorCodecTest, RoundTripsAndBindsOperationAndFilters) {
    CursorCodec codec("secret");
    std::string cursor =
        codec.Encode({"funds.search", "F1", 7, 1000, 25, boost::json::object{{"after", "abc"}}});
    EXPECT_LE(cursor.size(), 512u);
    auto decoded = codec.Decode(cursor, "funds.search", "F1", 7, kNow);
    ASSERT_TRUE(std::holds_alternative<CursorPayload>(decoded));
    EXPECT_EQ(std::get<CursorPayload>(decoded).position.as_object().at("after").as_string(), "abc");
    EXPECT_EQ(std::get<CursorPayload>(decoded).key_id, 7);
    EXPECT_EQ(std::get<CursorPayload>(decoded).issued_at, 1000);
    EXPECT_EQ(std::get<CursorPayload>(decoded).paid_limit, std::optional<std::int64_t>(25));
    EXPECT_EQ(std::get<CursorError>(codec.Decode(cursor, "funds.search", "F2", 7, kNow)),
              CursorError::kOtherFilters);
    EXPECT_EQ(std::get<CursorError>(codec.Decode(cursor, "other.op", "F1", 7, kNow)),
              CursorError::kOtherOperation);
}

TEST(CursorCodecTest, RefusesAnotherKeysCursorAndOneIssuedInTheFuture) {
    CursorCodec codec("secret");
    const std::string cursor = codec.Encode({"funds.search", "F1", 7, 1000, 25, boost::json::object{}});
    EXPECT_EQ(std::get<CursorError>(codec.Decode(cursor, "funds.search", "F1", 8, kNow)),
              CursorError::kOtherKey);
    // Issued at 1000: refused by a clock that reads earlier than that, beyond the skew allowed.
    EXPECT_EQ(std::get<CursorError>(
                  codec.Decode(cursor, "funds.search", "F1", 7, 1000 - kCursorClockSkewSeconds - 1)),
              CursorError::kFuture);
    EXPECT_TRUE(std::holds_alternative<CursorPayload>(
        codec.Decode(cursor, "funds.search", "F1", 7, 1000 - kCursorClockSkewSeconds)));
}

TEST(CursorCodecTest, AcceptsThePreviousSecretAndSignsWithTheFirst) {
    CursorCodec old_codec("old");
    const std::string old_cursor =
        old_codec.Encode({"funds.search", "F1", 7, 1000, 25, boost::json::object{}});
    CursorCodec rotated(std::vector<std::string>{"new", "old"});
    EXPECT_TRUE(
        std::holds_alternative<CursorPayload>(rotated.Decode(old_cursor, "funds.search", "F1", 7, kNow)));
    const std::string new_cursor = rotated.Encode({"funds.search", "F1", 7, 1000, 25, boost::json::object{}});
    EXPECT_TRUE(std::holds_alternative<CursorPayload>(
        CursorCodec("new").Decode(new_cursor, "funds.search", "F1", 7, kNow)));
    EXPECT_EQ(std::get<CursorError>(old_codec.Decode(new_cursor, "funds.search", "F1", 7, kNow)),
              CursorError::kMalformed);
}

TEST(CursorCodecTest, ReadsCursorsWithoutAPaidLimit) {
    // A cursor of a version before the limit was carried: its position still serves.
    CursorCodec codec("secret");
    const std::string cursor =
        codec.Encode({"funds.search", "F1", 7, 1000, std::nullopt, boost::json::object{{"after", "x"}}});
    auto decoded = codec.Decode(cursor, "funds.search", "F1", 7, kNow);
    ASSERT_TRUE(std::holds_alternative<CursorPayload>(decoded));
    EXPECT_FALSE(std::get<CursorPayload>(decoded).paid_limit);
}

TEST(CursorCodecTest, RejectsTamperingAndForeignSecrets) {
    CursorCodec codec("secret");
    std::string cursor =
        codec.Encode({"funds.search", "F1", 7, 1000, 25, boost::json::object{{"after", "abc"}}});
    for (std::size_t i = 0; i < cursor.size(); i += 7) {
        std::string tampered = cursor;
        tampered[i] = tampered[i] == 'A' ? 'B' : 'A';
        if (tampered == cursor)
            continue;
        EXPECT_EQ(std::get<CursorError>(codec.Decode(tampered, "funds.search", "F1", 7, kNow)),
                  CursorError::kMalformed)
            << i;
    }
    EXPECT_EQ(std::get<CursorError>(CursorCodec("other").Decode(cursor, "funds.search", "F1", 7, kNow)),
              CursorError::kMalformed);
    EXPECT_EQ(std::get<CursorError>(codec.Decode("garbage", "funds.search", "F1", 7, kNow)),
              CursorError::kMalformed);
    EXPECT_EQ(std::get<CursorError>(codec.Decode("a.b.c", "funds.search", "F1", 7, kNow)),
              CursorError::kMalformed);
}

TEST(Base64UrlTest, RoundTrips) {
    for (std::string s : {"", "f", "fo", "foo", "foob", "\xff\xfe\x00z"}) {
        EXPECT_EQ(Base64UrlDecode(Base64UrlEncode(s)).value(), s);
    }
    EXPECT_FALSE(Base64UrlDecode("a+b").has_value());
}

}  // namespace
}  // namespace lastro::arguments
