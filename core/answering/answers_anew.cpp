#include "core/answering/answers_anew.hpp"

#include <utility>

namespace lastro::answering {

AnswersAnew::AnswersAnew() : thread_([this] { Run(); }) {}

AnswersAnew::~AnswersAnew() {
    Stop();
}

void AnswersAnew::Post(std::function<void()> job) {
    {
        std::lock_guard lock(mutex_);
        if (!stopping_) {
            queue_.push_back(std::move(job));
            wake_.notify_one();
            return;
        }
    }
    job();
}

void AnswersAnew::Stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) {
        thread_.join();
    }
}

void AnswersAnew::Run() {
    for (;;) {
        std::function<void()> job;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (queue_.empty()) {
                return;  // stopping, and everything posted before has run
            }
            job = std::move(queue_.front());
            queue_.pop_front();
        }
        job();
    }
}

}  // namespace lastro::answering
