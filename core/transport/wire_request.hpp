// The HTTP/1.x request framing lastrod reads off a connection itself, before anything else
// sees the bytes (issue 20): Pistache 0.0.5's parser answers malformed requests on its own,
// with internal exception text, and trusts lengths it cannot hold. Ours finds a head's end
// within the size limit (resuming, so a head that trickles in is scanned once), then hands the
// whole head once to Boost.Beast's parser (RFC 9112's syntax) with our rules over what it reads
// (docs/dependencies.md, "HTTP request framing"). Strict: what it cannot frame safely is a
// problem, and the connection ends after it.
#pragma once

#include "core/transport/http_messages.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace lastro::transport {

struct WireRequest {
    IncomingRequest request;     // method, resource, query, headers of interest, size
    bool http10 = false;         // answered with an HTTP/1.0 status line
    bool keep_alive = true;      // false: close the connection after the answer
    std::size_t body_bytes = 0;  // Content-Length; the body follows the head
    // Set when the request cannot be served as sent: the status and detail of the problem to
    // answer; the connection is closed after it. `request` then holds what could be read
    // (method and resource when the request line was readable, else empty).
    std::optional<std::pair<int, std::string>> problem;
};

enum class HeadStatus { kIncomplete, kComplete };

// RFC 9112 (2.2) asks a server to ignore at least one empty line before a request line; more
// than this many are refused (400), and they count in server.max_request_bytes like the head.
inline constexpr std::size_t kMaxEmptyLinesBeforeRequest = 4;

// Reads the request head at the start of `buffer` (leading empty lines skipped). kIncomplete:
// more bytes are needed, and none of the bounds is crossed yet. kComplete: `*consumed` is the
// length of the head (through its blank line, leading empty lines included) and `*out` the
// request; when out->problem is set, the bytes after the head must not be read as a request.
// `max_request_bytes` bounds the empty lines, the head and its body (server.max_request_bytes).
// `*scanned`, when given, is how many bytes of `buffer` an earlier call on the same buffer
// already found free of the head's end and of stray line ends; the call resumes there and, on
// kIncomplete, moves it on, so a head that arrives a byte at a time is scanned once.
HeadStatus ReadRequestHead(std::string_view buffer, std::size_t max_request_bytes, WireRequest* out,
                           std::size_t* consumed, std::size_t* scanned = nullptr);

// What can be read of a request line that never arrived whole (it timed out): the method and
// the path as far as it came, when it starts with '/' (the query is not kept). Leading empty
// lines are skipped. Leaves `request` as it is when the line is not that.
void ReadPartialRequestLine(std::string_view buffer, IncomingRequest& request);

}  // namespace lastro::transport
