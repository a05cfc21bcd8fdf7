// The generation check alone (generation_check.hpp), which moved here from the ledger writer: an
// answer from memory at a generation is current only while that generation is the newest, by a
// read that began after its call; when the newest cannot be read, nothing is current.
#include "core/answering/generation_check.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <mutex>
#include <stdexcept>

namespace lastro::answering {
namespace {

using Outcome = GenerationCheck::Outcome;

Outcome Wait(GenerationCheck& check, std::int64_t generation) {
    std::promise<Outcome> done;
    check.Check(generation, [&](Outcome outcome) { done.set_value(outcome); });
    return done.get_future().get();
}

TEST(GenerationCheck, AGenerationIsCurrentOnlyWhileItIsTheNewest) {
    std::atomic<std::int64_t> newest{5};
    std::atomic<bool> unreadable{false};
    std::atomic<int> reads{0};
    GenerationCheck check([&]() -> std::int64_t {
        ++reads;
        if (unreadable) {
            throw std::runtime_error("the database is away");
        }
        return newest.load();
    });
    EXPECT_TRUE(Wait(check, 5).current);
    newest = 6;  // an ingest commits while a call answered from generation 5 is in flight
    Outcome replaced = Wait(check, 5);
    EXPECT_FALSE(replaced.current);
    EXPECT_FALSE(replaced.error);
    EXPECT_TRUE(Wait(check, 6).current);
    unreadable = true;
    Outcome unknown = Wait(check, 6);
    EXPECT_FALSE(unknown.current);
    ASSERT_TRUE(unknown.error);
    EXPECT_EQ(*unknown.error, "the database is away");
    EXPECT_EQ(reads.load(), 4);
}

TEST(GenerationCheck, OneReadAnswersEveryCallWaitingAndBeginsAfterThemAll) {
    // The first read is held until three more calls wait: they are answered by the next read,
    // one for the three, which sees the newer generation.
    std::mutex mutex;
    std::condition_variable cv;
    bool release = false;
    std::atomic<int> reads{0};
    std::atomic<std::int64_t> newest{5};
    GenerationCheck check([&]() -> std::int64_t {
        const std::int64_t seen = newest.load();  // what the database answers when the read begins
        if (++reads == 1) {
            std::unique_lock lock(mutex);
            cv.wait(lock, [&] { return release; });
        }
        return seen;
    });
    std::promise<Outcome> first;
    check.Check(5, [&](Outcome o) { first.set_value(o); });
    while (reads.load() == 0) {
        std::this_thread::yield();
    }
    std::promise<Outcome> a, b, c;
    check.Check(5, [&](Outcome o) { a.set_value(o); });
    check.Check(5, [&](Outcome o) { b.set_value(o); });
    check.Check(6, [&](Outcome o) { c.set_value(o); });
    newest = 6;  // committed after the first read began, before the next
    {
        std::lock_guard lock(mutex);
        release = true;
    }
    cv.notify_all();
    EXPECT_TRUE(first.get_future().get().current);  // its read began before the commit
    EXPECT_FALSE(a.get_future().get().current);
    EXPECT_FALSE(b.get_future().get().current);
    EXPECT_TRUE(c.get_future().get().current);
    EXPECT_EQ(reads.load(), 2);
}

TEST(GenerationCheck, StoppedItAnswersWhatWaitsAndThenNothingIsCurrent) {
    GenerationCheck check([] { return std::int64_t{3}; });
    std::promise<Outcome> waited;
    check.Check(3, [&](Outcome o) { waited.set_value(o); });
    check.Stop();
    EXPECT_TRUE(waited.get_future().get().current);
    const Outcome after = Wait(check, 3);
    EXPECT_FALSE(after.current);
    EXPECT_TRUE(after.error);
}

}  // namespace
}  // namespace lastro::answering
