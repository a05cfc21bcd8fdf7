// Whether answers taken from memory at a generation (the newest release id seen) are still of
// the newest release: one read of the newest id serves every call waiting when it begins, on a
// thread and connection of its own, so a billed call answered from memory reads no release
// itself and waits for no read on its request thread. A read begins after every call it answers
// arrived, so an answer it confirms was current after its call arrived. Owned by the answering
// part (answering.hpp); the ledger writer knows nothing of it.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace lastro::answering {

class GenerationCheck {
public:
    struct Outcome {
        bool current = false;              // the generation is still the newest
        std::optional<std::string> error;  // the newest could not be read: nothing is current
    };
    // Reads the newest release id now; throws when it cannot.
    using Read = std::function<std::int64_t()>;

    explicit GenerationCheck(Read read);
    ~GenerationCheck();
    GenerationCheck(const GenerationCheck&) = delete;
    GenerationCheck& operator=(const GenerationCheck&) = delete;

    // Runs `then` once, on the check's thread, with whether `generation` is the newest by a read
    // that began after this call (on the caller's thread, as not current, once stopped). It must
    // not throw; it may take long (an answer made anew) and holds the next read meanwhile.
    void Check(std::int64_t generation, std::function<void(Outcome)> then);
    // Answers what waits, then ends the thread. Call it from the thread that owns the owner (the
    // callbacks may hold its last references).
    void Stop();

private:
    struct Waiting {
        std::int64_t generation = 0;
        std::function<void(Outcome)> then;
    };
    void Run();

    Read read_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Waiting> waiting_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace lastro::answering
