#include "core/transport/connection_loop.hpp"

#include <pthread.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace lastro::transport {
namespace {

// How often the timeouts are checked: they are seconds long, and a request's 408 or a silent
// client's end may come this much after its time.
constexpr std::chrono::milliseconds kTickPeriod{100};
constexpr int kMaxEvents = 64;

}  // namespace

ConnectionLoop::ConnectionLoop(const ConnectionLimits& limits, int socket_send_buffer_bytes,
                               RequestDispatcher& dispatcher)
    : limits_(limits), send_buffer_bytes_(socket_send_buffer_bytes), dispatcher_(dispatcher) {
    epoll_fd_ = ::epoll_create1(EPOLL_CLOEXEC);
    wake_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (epoll_fd_ < 0 || wake_fd_ < 0) {
        const std::string why = std::strerror(errno);
        if (epoll_fd_ >= 0) {
            ::close(epoll_fd_);
        }
        if (wake_fd_ >= 0) {
            ::close(wake_fd_);
        }
        throw std::runtime_error("cannot create the connection loop's epoll or eventfd: " + why);
    }
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.ptr = nullptr;  // the wake-up, not a connection
    ::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &event);
}

ConnectionLoop::~ConnectionLoop() {
    Stop();
    ::close(wake_fd_);
    ::close(epoll_fd_);
}

void ConnectionLoop::Start(const std::string& name) {
    thread_ = std::thread([this, name] {
        thread_id_ = std::this_thread::get_id();
        pthread_setname_np(pthread_self(), name.substr(0, 15).c_str());
        Run();
    });
}

void ConnectionLoop::Stop() {
    {
        std::lock_guard lock(mutex_);
        if (stopping_) {
            return;
        }
        stopping_ = true;
    }
    Wake();
    if (thread_.joinable()) {
        thread_.join();
    }
    // The thread is gone: this one owns the connections now. They are closed before answers
    // stop being queued, so that no other thread answers one while it is being closed.
    for (const auto& connection : connections_) {
        connection->Close();
    }
    std::vector<Adoption> adoptions;
    std::vector<Delivery> deliveries;
    {
        std::lock_guard lock(mutex_);
        stopped_ = true;
        adoptions.swap(adoptions_);
        deliveries.swap(deliveries_);
    }
    for (const Adoption& adoption : adoptions) {
        ::close(adoption.fd);
    }
    for (Delivery& delivery : deliveries) {
        delivery.connection->Answer(std::move(delivery.answer));  // closed: reported undelivered
        if (delivery.then) {
            delivery.then();
        }
    }
    connections_.clear();
}

void ConnectionLoop::Adopt(int fd, std::string client_address) {
    {
        std::lock_guard lock(mutex_);
        if (!stopping_) {
            adoptions_.push_back({fd, std::move(client_address)});
            if (woken_) {
                return;
            }
            woken_ = true;
        } else {
            ::close(fd);
            return;
        }
    }
    Wake();
}

void ConnectionLoop::Deliver(std::shared_ptr<Connection> connection, WireAnswer answer,
                             std::function<void()> then) {
    if (std::this_thread::get_id() == thread_id_.load(std::memory_order_relaxed)) {
        // Answered while the loop dispatched it (a cached answer): no hand-over.
        connection->Answer(std::move(answer));
        if (then) {
            then();
        }
        return;
    }
    if (connection->WriteThrough(answer)) {
        // The loop held nothing of the connection: this thread wrote the answer whole.
        written_through_.fetch_add(1, std::memory_order_relaxed);
        if (then) {
            then();
        }
        return;
    }
    bool queued = false;
    bool wake = false;
    {
        std::lock_guard lock(mutex_);
        if (!stopped_) {
            deliveries_.push_back({connection, std::move(answer), std::move(then)});
            queued = true;
            wake = !woken_;
            woken_ = true;
        }
    }
    if (wake) {
        Wake();
    } else if (!queued) {
        // The loop has stopped and closed the connection: the answer is reported undelivered.
        connection->Answer(std::move(answer));
        if (then) {
            then();
        }
    }
}

void ConnectionLoop::Wake() {
    const std::uint64_t one = 1;
    [[maybe_unused]] auto written = ::write(wake_fd_, &one, sizeof one);
}

void ConnectionLoop::Run() {
    next_tick_ = std::chrono::steady_clock::now() + kTickPeriod;
    epoll_event events[kMaxEvents];
    for (;;) {
        // Rounded up: a timeout rounded down to 0 would spin through the last millisecond.
        const auto until_tick =
            std::chrono::ceil<std::chrono::milliseconds>(next_tick_ - std::chrono::steady_clock::now());
        const int ready = ::epoll_wait(epoll_fd_, events, kMaxEvents,
                                       static_cast<int>(std::max<long>(0, until_tick.count())));
        for (int i = 0; i < ready; ++i) {
            if (events[i].data.ptr == nullptr) {
                std::uint64_t wakeups;
                [[maybe_unused]] auto got = ::read(wake_fd_, &wakeups, sizeof wakeups);
                continue;
            }
            static_cast<Connection*>(events[i].data.ptr)->OnEvents(events[i].events);
        }
        {
            std::lock_guard lock(mutex_);
            if (stopping_) {
                return;
            }
        }
        TakeQueued();
        if (std::chrono::steady_clock::now() >= next_tick_) {
            TickAll();
            next_tick_ = std::chrono::steady_clock::now() + kTickPeriod;
        }
    }
}

// What other threads handed over since the last round: new sockets, then answers.
void ConnectionLoop::TakeQueued() {
    std::vector<Adoption> adoptions;
    std::vector<Delivery> deliveries;
    {
        std::lock_guard lock(mutex_);
        adoptions.swap(adoptions_);
        deliveries.swap(deliveries_);
        woken_ = false;
    }
    for (Adoption& adoption : adoptions) {
        if (send_buffer_bytes_ > 0) {
            ::setsockopt(adoption.fd, SOL_SOCKET, SO_SNDBUF, &send_buffer_bytes_, sizeof send_buffer_bytes_);
        }
        try {
            auto connection =
                std::make_shared<Connection>(adoption.fd, std::move(adoption.client_address), limits_,
                                             epoll_fd_, weak_from_this(), dispatcher_, unsent_);
            if (connection->Watch()) {
                connections_.push_back(std::move(connection));
            }  // else: out of kernel memory; the connection's destructor closes the socket
        } catch (...) {
            ::close(adoption.fd);  // out of memory for one more connection: refused
        }
    }
    for (Delivery& delivery : deliveries) {
        delivery.connection->Answer(std::move(delivery.answer));
        if (delivery.then) {
            delivery.then();
        }
    }
}

// The timeouts of every connection, and the closed ones let go (never while their events may
// still be in the round being handled: only here, between rounds).
void ConnectionLoop::TickAll() {
    const auto now = std::chrono::steady_clock::now();
    for (const auto& connection : connections_) {
        connection->Tick(now);
    }
    std::erase_if(connections_, [](const std::shared_ptr<Connection>& c) { return c->Closed(); });
}

}  // namespace lastro::transport
