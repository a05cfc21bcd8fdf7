#include "core/answering/response_cache.hpp"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace lastro::answering {
namespace {

std::shared_ptr<const FrozenAnswer> Answer(const std::string& data) {
    auto answer = std::make_shared<FrozenAnswer>();
    answer->data = data;
    answer->meta = ",\"as_of\":null";
    return answer;
}

TEST(ResponseCacheTest, KeepsAnAnswerForItsGeneration) {
    ResponseCache cache(1 << 20);
    EXPECT_EQ(cache.Find("funds.resolve\ncnpj=1", 7), nullptr);
    cache.Store("funds.resolve\ncnpj=1", 7, Answer("[1]"));
    auto found = cache.Find("funds.resolve\ncnpj=1", 7);
    ASSERT_NE(found, nullptr);
    EXPECT_EQ(found->data, "[1]");
    EXPECT_EQ(cache.Find("funds.resolve\ncnpj=2", 7), nullptr);
}

TEST(ResponseCacheTest, ANewerReleaseEmptiesTheCache) {
    ResponseCache cache(1 << 20);
    cache.Store("a", 7, Answer("[1]"));
    cache.Store("b", 7, Answer("[2]"));
    EXPECT_EQ(cache.Find("a", 8), nullptr);
    EXPECT_EQ(cache.Entries(), 0u);
    EXPECT_EQ(cache.Bytes(), 0u);
    // A reader whose transaction began before release 8 neither finds nor stores anything.
    cache.Store("b", 7, Answer("[2]"));
    EXPECT_EQ(cache.Find("b", 7), nullptr);
    EXPECT_EQ(cache.Entries(), 0u);
    cache.Store("b", 8, Answer("[3]"));
    ASSERT_NE(cache.Find("b", 8), nullptr);
    EXPECT_EQ(cache.Find("b", 8)->data, "[3]");
}

TEST(ResponseCacheTest, StaysWithinItsBytesDroppingTheLeastRecentlyUsed) {
    const std::string body(1000, 'x');
    ResponseCache cache(10'000);
    for (int i = 0; i < 8; ++i) {
        cache.Store("k" + std::to_string(i), 1, Answer(body));
    }
    ASSERT_NE(cache.Find("k0", 1), nullptr);  // k0 is now the most recently used
    for (int i = 8; i < 20; ++i) {
        cache.Store("k" + std::to_string(i), 1, Answer(body));
        EXPECT_LE(cache.Bytes(), 10'000u);
    }
    EXPECT_GE(cache.Entries(), 5u);
    EXPECT_EQ(cache.Find("k1", 1), nullptr);
    EXPECT_NE(cache.Find("k19", 1), nullptr);
    // An answer larger than the whole cache is not kept, and evicts nothing.
    const std::size_t before = cache.Entries();
    cache.Store("huge", 1, Answer(std::string(20'000, 'y')));
    EXPECT_EQ(cache.Find("huge", 1), nullptr);
    EXPECT_EQ(cache.Entries(), before);
}

TEST(ResponseCacheTest, StoringAKeyAgainReplacesIt) {
    ResponseCache cache(1 << 20);
    cache.Store("a", 1, Answer("[1]"));
    const std::size_t bytes = cache.Bytes();
    cache.Store("a", 1, Answer("[2]"));
    EXPECT_EQ(cache.Entries(), 1u);
    EXPECT_EQ(cache.Bytes(), bytes);
    EXPECT_EQ(cache.Find("a", 1)->data, "[2]");
}

TEST(ResponseCacheTest, ZeroBytesKeepsNothing) {
    ResponseCache cache(0);
    EXPECT_FALSE(cache.Enabled());
    cache.Store("a", 1, Answer("[1]"));
    EXPECT_EQ(cache.Find("a", 1), nullptr);
}

TEST(ResponseCacheTest, ThreadsShareItSafely) {
    ResponseCache cache(50'000);
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&cache, t] {
            for (int i = 0; i < 2000; ++i) {
                const std::string key = "k" + std::to_string((i * 7 + t) % 97);
                const std::int64_t generation = 1 + i / 500;
                if (auto found = cache.Find(key, generation)) {
                    EXPECT_EQ(found->data, key);
                } else {
                    cache.Store(key, generation, Answer(key));
                }
            }
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    EXPECT_LE(cache.Bytes(), 50'000u);
}

}  // namespace
}  // namespace lastro::answering
