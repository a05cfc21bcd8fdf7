// An answer as it goes on a connection: its head (status line and headers) and its body, its own
// or one shared by every answer that serves it. Owns nothing of the connection it goes on.
#pragma once

#include "core/transport/http_messages.hpp"

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace lastro::transport {

// Billed answers are built on the ledger writer's thread, whose time bounds the throughput of
// billed calls (docs/performance.md): nothing is copied into it that sendmsg can take from where
// it lies.
struct WireAnswer {
    std::string head;
    std::string body;
    std::string_view shared_body;
    std::shared_ptr<const void> shared_owner;
    std::function<void()> undelivered;  // the answer did not reach the kernel whole
    std::size_t sent = 0;               // bytes of it the kernel has taken

    std::size_t Size() const { return head.size() + body.size() + shared_body.size(); }
};

// `out` on the wire of a request that came as HTTP/1.0 (`http10`) or 1.1. An answer to HEAD has
// no body, and no Content-Length, which would announce the body a GET has not asked for.
WireAnswer ToWire(bool http10, bool keep_alive, bool head, OutgoingResponse&& out);

}  // namespace lastro::transport
