#include "core/storage/reply_deadline.hpp"

#include <sys/socket.h>

#include <odb/database.hxx>
#include <odb/pgsql/connection.hxx>

#include <libpq-fe.h>

#include <condition_variable>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace lastro::storage {
namespace {

using Clock = std::chrono::steady_clock;

// One thread for the process, asleep until the earliest armed deadline. Arming and disarming
// take one mutex: a call arms once, and deadlines arrive in increasing order (now plus a fixed
// timeout), so the thread is woken only when a deadline is due, not per call.
class Watchdog {
public:
    static Watchdog& Get() {
        static Watchdog watchdog;
        return watchdog;
    }

    std::uint64_t Arm(int fd, Clock::time_point deadline) {
        std::lock_guard lock(mutex_);
        if (!thread_.joinable()) {
            thread_ = std::thread([this] { Run(); });
        }
        const std::uint64_t ticket = ++last_ticket_;
        armed_.emplace(ticket, Armed{fd, deadline, false});
        if (deadline < next_wake_) {
            next_wake_ = deadline;
            wake_.notify_one();
        }
        return ticket;
    }

    // Returns whether the deadline had fired; the socket is never touched after this returns.
    bool Disarm(std::uint64_t ticket) {
        std::lock_guard lock(mutex_);
        const auto it = armed_.find(ticket);
        const bool fired = it != armed_.end() && it->second.fired;
        if (it != armed_.end()) {
            armed_.erase(it);
        }
        return fired;
    }

    bool Fired(std::uint64_t ticket) {
        std::lock_guard lock(mutex_);
        const auto it = armed_.find(ticket);
        return it != armed_.end() && it->second.fired;
    }

    ~Watchdog() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_one();
        if (thread_.joinable()) {
            thread_.join();
        }
    }

private:
    struct Armed {
        int fd;
        Clock::time_point deadline;
        bool fired;
    };

    void Run() {
        std::unique_lock lock(mutex_);
        while (!stopping_) {
            const Clock::time_point now = Clock::now();
            next_wake_ = Clock::time_point::max();
            for (auto& [ticket, armed] : armed_) {
                if (armed.fired) {
                    continue;
                }
                if (armed.deadline <= now) {
                    // Both directions: libpq's poll() wakes with the connection closed.
                    ::shutdown(armed.fd, SHUT_RDWR);
                    armed.fired = true;
                } else if (armed.deadline < next_wake_) {
                    next_wake_ = armed.deadline;
                }
            }
            if (next_wake_ == Clock::time_point::max()) {
                wake_.wait(lock);
            } else {
                wake_.wait_until(lock, next_wake_);
            }
        }
    }

    std::mutex mutex_;
    std::condition_variable wake_;
    std::unordered_map<std::uint64_t, Armed> armed_;
    std::uint64_t last_ticket_ = 0;
    Clock::time_point next_wake_ = Clock::time_point::max();
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace

ReplyDeadline::ReplyDeadline(odb::connection& connection, std::chrono::steady_clock::time_point deadline) {
    if (connection.database().id() != odb::id_pgsql) {
        return;
    }
    const int fd = PQsocket(static_cast<odb::pgsql::connection&>(connection).handle());
    if (fd < 0) {
        return;  // not connected: the next statement fails by itself
    }
    connection_ = &connection;
    ticket_ = Watchdog::Get().Arm(fd, deadline);
}

ReplyDeadline::~ReplyDeadline() {
    if (connection_ && Watchdog::Get().Disarm(ticket_)) {
        // Cut after its last statement perhaps: the pool must not hand it out again.
        static_cast<odb::pgsql::connection&>(*connection_).mark_failed();
    }
}

bool ReplyDeadline::Expired() const {
    return connection_ && Watchdog::Get().Fired(ticket_);
}

}  // namespace lastro::storage
