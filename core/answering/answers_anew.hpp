// Where a billed call is answered anew when its answer from memory turned out to be of a release
// that a newer one replaced before the call settled (its settlement came back `outdated`): on a
// thread of this part's own, one call at a time, so that the ledger writer's thread, which
// reports the outcome, never runs a handler. It happens only to calls in flight while an ingest
// commits.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace lastro::answering {

class AnswersAnew {
public:
    AnswersAnew();
    // Stop(), if it was not called.
    ~AnswersAnew();
    AnswersAnew(const AnswersAnew&) = delete;
    AnswersAnew& operator=(const AnswersAnew&) = delete;

    // Runs `job` on the thread, after those posted before it; on the caller's thread once
    // stopped. `job` must not throw.
    void Post(std::function<void()> job);
    // Runs what is queued, then ends the thread. Call it after the ledger writer stopped, whose
    // last outcomes may post here.
    void Stop();

private:
    void Run();

    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::function<void()>> queue_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace lastro::answering
