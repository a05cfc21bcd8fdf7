#include "core/transport/request_checks.hpp"

#include "core/request/percent_decoding.hpp"

#include <lastro/sdk/text.hpp>

#include <string_view>

namespace lastro::transport {
namespace {

bool HasEncodedSlash(std::string_view raw) {
    for (std::size_t at = raw.find('%'); at != std::string_view::npos; at = raw.find('%', at + 1)) {
        if (at + 2 < raw.size() && raw[at + 1] == '2' && (raw[at + 2] == 'F' || raw[at + 2] == 'f')) {
            return true;
        }
    }
    return false;
}

}  // namespace

CheckedRequest RequestChecks::Check(const IncomingRequest& request) const {
    CheckedRequest checked;
    // One canonical path, the decoded one, before anything looks at it: "/%761/fundos" is
    // "/v1/fundos" for the /v1 rules as for routing.
    checked.path = request::PercentDecode(request.resource, false);
    const std::optional<std::string>& path = checked.path;
    checked.is_v1 = path && (*path == "/v1" || path->rfind("/v1/", 0) == 0);
    if (request.wire_problem) {
        checked.refusal.emplace(request.wire_problem->first, request.wire_problem->second);
    } else if (draining_) {
        checked.refusal.emplace(503, "the server is shutting down; retry on another instance");
        checked.refusal->With("Retry-After", "1");
    } else if (request.size_bytes > max_request_bytes_) {
        checked.refusal.emplace(413, "the request is about " + std::to_string(request.size_bytes) +
                                         " bytes; the limit is " + std::to_string(max_request_bytes_));
    } else if (!path || !sdk::IsValidUtf8(*path)) {
        checked.refusal.emplace(400, "the request path is not validly percent-encoded UTF-8");
    } else if (HasEncodedSlash(request.resource)) {
        // A segment never holds a '/': decoding one would let "/v1%2Ffundos" reach a route that
        // a rule on the raw path (a proxy's) did not see.
        checked.refusal.emplace(400, "the request path holds an encoded '/' (%2F); no resource has one");
    } else if (request.has_body &&
               (!request.content_type || request.content_type->rfind("application/json", 0) != 0)) {
        checked.refusal.emplace(415, "requests carry no body; a body must be application/json");
        checked.refusal->media_type = "application/json";
    }
    return checked;
}

}  // namespace lastro::transport
