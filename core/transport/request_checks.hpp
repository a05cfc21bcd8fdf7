// The transport's checks on a framed request, before any part of the pipeline reads it: a
// framing problem, a server that is draining, the size limit (server.max_request_bytes), the
// path (percent-encoded UTF-8, no encoded '/') and a body's media type. Owns the draining flag.
// Its refusals are answered by the pipeline like any part's, with a request id and a log line.
#pragma once

#include "core/request/refusal.hpp"
#include "core/transport/http_messages.hpp"

#include <atomic>
#include <cstddef>
#include <optional>
#include <string>
#include <variant>

namespace lastro::transport {

// What the checks read of a request's path: the decoded path, and whether it is under /v1 (set
// also on a refusal, when the path could be decoded: /v1 answers carry the billing headers).
struct CheckedRequest {
    std::optional<std::string> path;
    bool is_v1 = false;
    std::optional<request::Refusal> refusal;
};

class RequestChecks {
public:
    explicit RequestChecks(std::size_t max_request_bytes) : max_request_bytes_(max_request_bytes) {}

    CheckedRequest Check(const IncomingRequest& request) const;

    // From now on every request is refused 503 (Retry-After: 1) while those in flight finish.
    void BeginDraining() { draining_ = true; }

private:
    std::size_t max_request_bytes_;
    std::atomic<bool> draining_{false};
};

}  // namespace lastro::transport
