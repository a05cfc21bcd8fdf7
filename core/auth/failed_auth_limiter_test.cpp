// Failed authentications per client address: throttled after the limit within one window, until
// the window ends; other addresses unaffected; bounded.
#include "core/auth/failed_auth_limiter.hpp"

#include <gtest/gtest.h>

namespace lastro::auth {
namespace {

TEST(FailedAuthLimiterTest, ThrottlesAnAddressAfterTheLimitUntilItsWindowEnds) {
    FailedAuthLimiter limiter(3, 60);
    for (int i = 0; i < 3; ++i) {
        EXPECT_FALSE(limiter.Throttled("10.0.0.1", 1000 + i));
        limiter.Failed("10.0.0.1", 1000 + i);
    }
    // The window began at the first failure (1000) and ends at 1060.
    EXPECT_EQ(limiter.Throttled("10.0.0.1", 1010), std::optional<std::time_t>(50));
    EXPECT_EQ(limiter.Throttled("10.0.0.1", 1059), std::optional<std::time_t>(1));
    EXPECT_FALSE(limiter.Throttled("10.0.0.2", 1010));
    EXPECT_FALSE(limiter.Throttled("10.0.0.1", 1060));
    limiter.Failed("10.0.0.1", 1060);  // a new window, one failure
    EXPECT_FALSE(limiter.Throttled("10.0.0.1", 1061));
}

TEST(FailedAuthLimiterTest, ZeroLimitNeverThrottles) {
    FailedAuthLimiter limiter(0, 60);
    for (int i = 0; i < 100; ++i) {
        limiter.Failed("10.0.0.1", 1000);
    }
    EXPECT_FALSE(limiter.Throttled("10.0.0.1", 1000));
}

TEST(FailedAuthLimiterTest, StaysWithinItsCapacity) {
    FailedAuthLimiter limiter(1, 60, 4);
    for (int i = 0; i < 20; ++i) {
        limiter.Failed("10.0.1." + std::to_string(i), 1000);
    }
    // The last address is held (the map was cleared before it when full).
    EXPECT_TRUE(limiter.Throttled("10.0.1.19", 1000));
}

}  // namespace
}  // namespace lastro::auth
