#include "core/request/request_id.hpp"

#include <lastro/sdk/uuid.hpp>

#include <gtest/gtest.h>

#include <set>

namespace lastro::request {
namespace {

TEST(RequestIdTest, IsAVersion7UuidOrderedByTime) {
    const auto t = std::chrono::system_clock::time_point(std::chrono::milliseconds(1'795'000'040'123));
    const std::string a = NewRequestId(t);
    const std::string b = NewRequestId(t + std::chrono::milliseconds(1));
    EXPECT_TRUE(sdk::IsUuid(a)) << a;
    EXPECT_EQ(a.substr(0, 13), "01a1ee56-fabb");  // 1795000040123 ms = 0x01a1ee56fabb
    EXPECT_EQ(a[14], '7');
    EXPECT_NE(std::string("89ab").find(a[19]), std::string::npos) << a;
    EXPECT_LT(a, b);
    std::set<std::string> distinct;
    for (int i = 0; i < 1000; ++i) {
        distinct.insert(NewRequestId(t));
    }
    EXPECT_EQ(distinct.size(), 1000u);
}

}  // namespace
}  // namespace lastro::request
