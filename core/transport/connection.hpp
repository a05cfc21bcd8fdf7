// One client connection, owned by the one loop thread that reads, writes and times it
// (connection_loop.hpp): its socket, the requests framed out of its bytes, the answers waiting
// for the client to read them, and its timeouts. Nothing here is locked: every member is touched
// by that thread, except while the loop has opened its hand (Hand, below) to the thread that
// answers the request in flight.
#pragma once

#include "core/config/config.hpp"
#include "core/transport/request_framer.hpp"
#include "core/transport/wire_answer.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace lastro::transport {

class Connection;
class ConnectionLoop;

// What a connection hands its requests to, one at a time: the next is handed over only once the
// answer to the one before has reached the connection (ConnectionLoop::Deliver).
class RequestDispatcher {
public:
    virtual ~RequestDispatcher() = default;
    // On the connection's loop thread. Must not throw.
    virtual void Dispatch(const std::shared_ptr<Connection>& connection, WireRequest& request) = 0;
};

// What one connection may hold (docs/operations.md, "Connections"). Requests are taken off a
// connection and answered one after another: the next one starts only once the answer before it
// is on the connection and less than kMaxUnsentBytes of answers wait for the client to read them.
// So what a connection holds is bounded in bytes: that much, plus one answer. Requests that wait
// their turn are bounded in count: beyond kMaxOwedAnswers taken and not yet sent, lastrod stops
// taking requests off the connection, answers what it took and ends it.
inline constexpr std::size_t kMaxOwedAnswers = 32;
inline constexpr std::size_t kMaxUnsentBytes = std::size_t{1} << 20;
// What a client may still send once lastrod stopped taking its requests: read and dropped
// (closing on unread input would reset the answers in flight), up to this much; past it the
// connection is cut, whatever it still owes (a flood is not a client waiting for its answers).
inline constexpr std::size_t kMaxDroppedBytes = std::size_t{256} << 10;

// The server's limits a connection applies (server.* in the configuration, docs/operations.md).
struct ConnectionLimits {
    std::size_t max_request_bytes = 16384;
    std::chrono::milliseconds header_timeout{10000};
    std::chrono::milliseconds body_timeout{30000};
    std::chrono::milliseconds keepalive_timeout{15000};

    static ConnectionLimits Of(const config::ServerConfig& config) {
        return {config.max_request_bytes, std::chrono::milliseconds(config.header_timeout_ms),
                std::chrono::milliseconds(config.body_timeout_ms),
                std::chrono::milliseconds(config.keepalive_timeout_ms)};
    }
};

class Connection : public std::enable_shared_from_this<Connection> {
public:
    using Clock = std::chrono::steady_clock;

    // Takes `fd` (a connected, non-blocking socket); Watch() registers it with `epoll_fd`.
    Connection(int fd, std::string client_address, const ConnectionLimits& limits, int epoll_fd,
               std::weak_ptr<ConnectionLoop> loop, RequestDispatcher& dispatcher,
               std::shared_ptr<std::atomic<std::size_t>> loop_unsent);
    ~Connection();
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    // From the thread that answers the request in flight (ConnectionLoop::Deliver): writes
    // `answer` to the socket now if the loop has opened its hand, sparing the loop a wake-up.
    // False: the loop takes the answer, with what was written of it counted in `answer.sent`.
    bool WriteThrough(WireAnswer& answer);
    // Whether the loop holds nothing of the connection but a request in flight (for tests).
    bool HandOpen() const { return hand_.load(std::memory_order_acquire) == Hand::kOpen; }

    // The rest is called on the loop's thread only (or, once the loop has stopped, on the one
    // that stopped it).
    bool Watch();
    void OnEvents(std::uint32_t events);
    // The answer to the request dispatched last.
    void Answer(WireAnswer answer);
    // The timeouts, checked every loop tick.
    void Tick(Clock::time_point now);
    // Ends the connection now: answers not handed whole to the kernel are reported undelivered
    // (their `undelivered` is called, on this thread).
    void Close();

    bool Closed() const { return fd_ < 0; }
    const std::string& ClientAddress() const { return client_address_; }
    const std::weak_ptr<ConnectionLoop>& Loop() const { return loop_; }

private:
    // Who may write the socket. The loop opens its hand when it holds nothing of the connection
    // but the request in flight: no answer left to write, no request waiting its turn, no end to
    // send. The thread that answers may then write the answer itself (WriteThrough), sparing the
    // loop a wake-up; billed answers come from the ledger writer's thread. Every loop entry takes
    // the hand back first (TakeHand), waiting out a write under way and learning of one done.
    enum class Hand : std::uint8_t { kLoop, kOpen, kWriting, kWritten };

    std::size_t Owed() const { return pending_.size() + (in_flight_ ? 1 : 0) + out_.size(); }
    bool CanDispatch() const {
        return fd_ >= 0 && !in_flight_ && !pending_.empty() && unsent_ < kMaxUnsentBytes;
    }
    void Read();
    void Take(const char* bytes, std::size_t size);
    void StopTaking();
    void Pump();
    void Flush();
    void Sent(std::size_t bytes);
    void FinishIfDone();
    void UpdateInterest();
    void ReportLost();
    void Settle();
    void TakeHand();
    void OpenHand();

    int fd_;  // -1 once closed
    std::string client_address_;
    ConnectionLimits limits_;
    int epoll_fd_;
    std::weak_ptr<ConnectionLoop> loop_;
    RequestDispatcher& dispatcher_;
    std::shared_ptr<std::atomic<std::size_t>> loop_unsent_;  // the loop's answer bytes unsent
    std::uint32_t interest_ = 0;                             // what epoll watches the socket for

    RequestFramer framer_;
    std::deque<WireRequest> pending_;  // taken, waiting for their turn
    bool in_flight_ = false;           // a request is dispatched and not answered yet
    bool pumping_ = false;             // Pump is on the stack (an answer may come inline)
    bool taking_ = true;               // false: no further request is taken off the socket
    bool finish_ = false;              // end the connection once everything taken is sent
    bool client_done_ = false;         // the client ended its side (it still reads answers)
    bool fin_sent_ = false;            // our side is ended: what the client sends is dropped
    std::deque<WireAnswer> out_;       // answers not yet handed whole to the kernel
    std::size_t unsent_ = 0;           // their bytes not yet sent
    std::size_t dropped_ = 0;          // input dropped since requests stopped being taken
    Clock::time_point partial_since_;  // when the request being read began to arrive
    Clock::time_point last_progress_;  // the client's reading is timed from here
    Clock::time_point last_activity_;  // the last bytes read or the last answer sent whole
    Clock::time_point fin_at_;
    std::vector<std::function<void()>> lost_;  // undelivered answers, reported by ReportLost

    std::atomic<Hand> hand_ = Hand::kLoop;
    Clock::time_point written_at_;  // set by WriteThrough before it gives the hand back
};

}  // namespace lastro::transport
