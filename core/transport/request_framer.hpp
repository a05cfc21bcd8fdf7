// The requests of one connection, framed out of the bytes as they arrive (ReadRequestHead):
// what one connection's unread input may cost is bounded here, in bytes and in CPU. Input is
// kept only up to the request being read (server.max_request_bytes, plus what one read brought
// after it); a head is scanned once however it is split; a body is waited for without parsing
// its head again. After a request that ends the connection (a problem, `Connection: close`,
// HTTP/1.0) or Stop(), input is discarded. Not thread-safe: its connection's loop thread alone uses it.
#pragma once

#include "core/transport/wire_request.hpp"

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace lastro::transport {

class RequestFramer {
public:
    explicit RequestFramer(std::size_t max_request_bytes) : max_request_bytes_(max_request_bytes) {}

    // Adds bytes read off the connection; discarded once the framer has stopped.
    void Append(std::string_view bytes);
    // The next complete request, in order; nullopt until more bytes arrive. A request after
    // which nothing more is read (its `problem` set, or `keep_alive` false) stops the framer.
    std::optional<WireRequest> Next();
    // Nothing more is framed: what is buffered and what arrives later is dropped.
    void Stop();

    bool Stopped() const { return stopped_; }
    // Part of a request is buffered: its head or, with AwaitingBody(), its body is incomplete.
    bool Partial() const { return !stopped_ && !in_.empty(); }
    bool AwaitingBody() const { return head_.has_value(); }
    std::size_t Buffered() const { return in_.size(); }
    // A request the connection gave up waiting for (server.header_timeout_ms or body_timeout_ms):
    // what can be read of its request line, with a 408 problem; the framer stops.
    WireRequest TimedOut();

private:
    std::size_t max_request_bytes_;
    std::string in_;                   // from the start of the request being read
    std::size_t scanned_ = 0;          // ReadRequestHead's resume point in in_
    std::optional<WireRequest> head_;  // a complete head whose body is still arriving
    std::size_t head_bytes_ = 0;
    bool stopped_ = false;
};

}  // namespace lastro::transport
