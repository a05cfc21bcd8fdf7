// What the transport hands the request pipeline and what the pipeline hands back: plain values,
// with no Pistache, socket or billing type, so that the framing (wire_request.hpp), the
// pipeline (api_service.hpp) and the transport (http_server.cpp, connection.cpp) each include only this.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lastro::transport {

struct IncomingRequest {
    std::string method;                                      // "GET"
    std::string resource;                                    // the raw path, still percent-encoded
    std::vector<std::pair<std::string, std::string>> query;  // raw name/value pairs
    std::optional<std::string> authorization;
    std::string client_address;  // the peer's IP address: failed authentications are counted by it
    std::optional<std::string> content_type;
    // What the client asks of the answer's representation (core/answering/negotiation.hpp).
    // A field sent more than once is one comma-separated list (RFC 9110, 5.3).
    std::optional<std::string> accept;
    std::optional<std::string> accept_encoding;
    std::optional<std::string> if_none_match;
    bool has_body = false;
    std::size_t size_bytes = 0;  // request line, headers and body
    // Set by the transport when the request's framing is refused (core/transport/wire_request.hpp) or
    // it did not arrive in time: the status and detail to answer with, before anything else.
    std::optional<std::pair<int, std::string>> wire_problem;
};

struct OutgoingResponse {
    int status = 200;
    std::string content_type = "application/json";
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
    // A body kept once for every answer that serves it (the OpenAPI document, the /docs files):
    // sent from where it lies, never copied per answer. `shared_owner` keeps it alive (null
    // for static storage). When set, `body` is empty.
    std::string_view shared_body;
    std::shared_ptr<const void> shared_owner;
    // Set by the pipeline on an answer whose call was charged: the transport calls it when the
    // answer could not be handed whole to the kernel (the connection ended first), so that the
    // charge is taken back (docs/billing.md, "Charged, but the answer lost"). Called at most once.
    std::function<void()> undelivered;

    std::string_view Body() const { return shared_body.data() ? shared_body : std::string_view(body); }
};

}  // namespace lastro::transport
