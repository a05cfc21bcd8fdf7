// One event loop: a thread that owns the connections handed to it, from their first byte to
// their close. It reads their sockets, writes their answers and times them (epoll, an eventfd to
// be woken, a tick for the timeouts). Other threads only hand it sockets (Adopt) and answers
// (Deliver); an answer to a connection that waits for nothing else is written by the thread
// that made it (Connection::WriteThrough), which spares the loop a wake-up.
#pragma once

#include "core/transport/connection.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace lastro::transport {

class ConnectionLoop : public std::enable_shared_from_this<ConnectionLoop> {
public:
    ConnectionLoop(const ConnectionLimits& limits, int socket_send_buffer_bytes,
                   RequestDispatcher& dispatcher);
    ~ConnectionLoop();
    ConnectionLoop(const ConnectionLoop&) = delete;
    ConnectionLoop& operator=(const ConnectionLoop&) = delete;

    // Starts the thread, named `name` (for `top -H`, perf and the load benchmark).
    void Start(const std::string& name);
    // Joins the thread, then closes every connection: what they still owe is reported
    // undelivered, and so is every answer delivered from then on.
    void Stop();

    // From any thread: a connected socket this loop now owns (closed when the loop has stopped).
    void Adopt(int fd, std::string client_address);
    // From any thread: the answer to `connection`'s request in flight; then `then` runs, on
    // the loop's thread, or on this one when this one wrote the answer whole or the loop has
    // stopped (the answer is then reported undelivered).
    void Deliver(std::shared_ptr<Connection> connection, WireAnswer answer, std::function<void()> then);

    // Answer bytes this loop's clients have not read yet (a graceful stop waits for them).
    std::size_t Unsent() const { return *unsent_; }
    // Answers written whole by the thread that made them, without waking the loop.
    std::size_t WrittenThrough() const { return written_through_.load(std::memory_order_relaxed); }

private:
    struct Delivery {
        std::shared_ptr<Connection> connection;
        WireAnswer answer;
        std::function<void()> then;
    };
    struct Adoption {
        int fd;
        std::string client_address;
    };

    void Run();
    void Wake();
    void TakeQueued();
    void TickAll();

    ConnectionLimits limits_;
    int send_buffer_bytes_;  // server.socket_send_buffer_bytes; 0: the kernel's autotuning
    RequestDispatcher& dispatcher_;
    int epoll_fd_ = -1;
    int wake_fd_ = -1;
    std::thread thread_;
    std::atomic<std::thread::id> thread_id_;  // set by the thread itself
    std::shared_ptr<std::atomic<std::size_t>> unsent_ = std::make_shared<std::atomic<std::size_t>>(0);
    std::vector<std::shared_ptr<Connection>> connections_;  // the loop thread's alone
    std::chrono::steady_clock::time_point next_tick_;
    std::atomic<std::size_t> written_through_ = 0;

    std::mutex mutex_;  // guards what other threads hand over
    bool stopping_ = false;
    bool stopped_ = false;
    bool woken_ = false;  // a wake is pending: further hand-overs need not write the eventfd
    std::vector<Adoption> adoptions_;
    std::vector<Delivery> deliveries_;
};

}  // namespace lastro::transport
