#include "core/answering/generation_check.hpp"

#include <pthread.h>

#include <exception>
#include <utility>
#include <vector>

namespace lastro::answering {

GenerationCheck::GenerationCheck(Read read) : read_(std::move(read)) {
    thread_ = std::thread([this] {
        pthread_setname_np(pthread_self(), "generation-check");
        Run();
    });
}

GenerationCheck::~GenerationCheck() {
    Stop();
}

void GenerationCheck::Check(std::int64_t generation, std::function<void(Outcome)> then) {
    {
        std::lock_guard lock(mutex_);
        if (!stopping_) {
            waiting_.push_back(Waiting{generation, std::move(then)});
            wake_.notify_one();
            return;
        }
    }
    then(Outcome{false, std::string("the server is stopping")});
}

void GenerationCheck::Stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    if (thread_.joinable()) {
        thread_.join();
    }
}

void GenerationCheck::Run() {
    std::vector<Waiting> batch;
    for (;;) {
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || !waiting_.empty(); });
            if (waiting_.empty()) {
                return;  // stopping, and nothing waits
            }
            batch.assign(std::make_move_iterator(waiting_.begin()), std::make_move_iterator(waiting_.end()));
            waiting_.clear();
        }
        Outcome unread;
        std::optional<std::int64_t> newest;
        try {
            newest = read_();
        } catch (const std::exception& e) {
            unread.error = e.what();
        }
        for (Waiting& w : batch) {
            w.then(newest ? Outcome{*newest == w.generation, std::nullopt} : unread);
        }
        batch.clear();
    }
}

}  // namespace lastro::answering
