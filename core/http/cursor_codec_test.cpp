#include "core/http/cursor_codec.hpp"

#include <gtest/gtest.h>

namespace lastro::http {
namespace {

TEST(CursorCodecTest, RoundTripsAndBindsOperationAndFilters) {
    CursorCodec codec("secret");
    std::string cursor = codec.Encode({"funds.search", "F1", 7, 1000, boost::json::object{{"after", "abc"}}});
    EXPECT_LE(cursor.size(), 512u);
    auto decoded = codec.Decode(cursor, "funds.search", "F1");
    ASSERT_TRUE(std::holds_alternative<CursorPayload>(decoded));
    EXPECT_EQ(std::get<CursorPayload>(decoded).position.as_object().at("after").as_string(), "abc");
    EXPECT_EQ(std::get<CursorPayload>(decoded).key_id, 7);
    EXPECT_EQ(std::get<CursorError>(codec.Decode(cursor, "funds.search", "F2")), CursorError::kOtherFilters);
    EXPECT_EQ(std::get<CursorError>(codec.Decode(cursor, "other.op", "F1")), CursorError::kOtherOperation);
}

TEST(CursorCodecTest, RejectsTamperingAndForeignSecrets) {
    CursorCodec codec("secret");
    std::string cursor = codec.Encode({"funds.search", "F1", 7, 1000, boost::json::object{{"after", "abc"}}});
    for (std::size_t i = 0; i < cursor.size(); i += 7) {
        std::string tampered = cursor;
        tampered[i] = tampered[i] == 'A' ? 'B' : 'A';
        if (tampered == cursor)
            continue;
        EXPECT_EQ(std::get<CursorError>(codec.Decode(tampered, "funds.search", "F1")),
                  CursorError::kMalformed)
            << i;
    }
    EXPECT_EQ(std::get<CursorError>(CursorCodec("other").Decode(cursor, "funds.search", "F1")),
              CursorError::kMalformed);
    EXPECT_EQ(std::get<CursorError>(codec.Decode("garbage", "funds.search", "F1")), CursorError::kMalformed);
    EXPECT_EQ(std::get<CursorError>(codec.Decode("a.b.c", "funds.search", "F1")), CursorError::kMalformed);
}

TEST(Base64UrlTest, RoundTrips) {
    for (std::string s : {"", "f", "fo", "foo", "foob", "\xff\xfe\x00z"}) {
        EXPECT_EQ(Base64UrlDecode(Base64UrlEncode(s)).value(), s);
    }
    EXPECT_FALSE(Base64UrlDecode("a+b").has_value());
}

}  // namespace
}  // namespace lastro::http
