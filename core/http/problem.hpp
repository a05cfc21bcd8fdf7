// problem+json responses (contract sections 2.3 and 7). Titles are fixed per status.
#pragma once

#include <optional>
#include <string>

namespace lastro::http {

// The contract's fixed title for `status` (and ours for statuses it does not list).
const char* ProblemTitle(int status);

// The problem+json body: type {base_url}/problems/http-<status>, title, status, detail,
// instance (the request path), request_id and parameter (null when no single parameter).
std::string ProblemBody(const std::string& base_url, int status, const std::string& detail,
                        const std::string& instance, const std::string& request_id,
                        const std::optional<std::string>& parameter);

}  // namespace lastro::http
