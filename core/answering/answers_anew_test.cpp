// Where outdated calls are answered anew (answers_anew.hpp): on a thread of its own, in the
// order posted, never on the poster's; what is queued when it stops still runs; after, on the
// caller's thread.
#include "core/answering/answers_anew.hpp"

#include <gtest/gtest.h>

#include <future>
#include <mutex>
#include <thread>
#include <vector>

namespace lastro::answering {
namespace {

TEST(AnswersAnew, RunsJobsInOrderOnItsOwnThread) {
    AnswersAnew anew;
    std::mutex mutex;
    std::vector<int> order;
    std::promise<std::thread::id> ran_on;
    for (int i = 0; i < 5; ++i) {
        anew.Post([&, i] {
            std::lock_guard lock(mutex);
            order.push_back(i);
            if (i == 4) {
                ran_on.set_value(std::this_thread::get_id());
            }
        });
    }
    EXPECT_NE(ran_on.get_future().get(), std::this_thread::get_id());
    std::lock_guard lock(mutex);
    EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4}));
}

TEST(AnswersAnew, StopRunsWhatIsQueuedAndLaterJobsRunOnTheCaller) {
    AnswersAnew anew;
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    int ran = 0;
    anew.Post([released] { released.wait(); });  // holds the thread while more are queued
    anew.Post([&] { ++ran; });
    anew.Post([&] { ++ran; });
    std::thread stopper([&] { anew.Stop(); });
    release.set_value();
    stopper.join();
    EXPECT_EQ(ran, 2) << "a job queued before Stop() was dropped";
    std::thread::id where;
    anew.Post([&] { where = std::this_thread::get_id(); });
    EXPECT_EQ(where, std::this_thread::get_id());
}

}  // namespace
}  // namespace lastro::answering
