// problem+json responses (contract sections 2.3 and 7), in one place: the status of each SDK
// problem code, the fixed title of each status, and the body. When adding an
// sdk::ProblemCode, update StatusOf here and the table in docs/api.md ("Errors"); whether a
// status is charged or refunded is billing's (core/billing/settlement.cpp).
#pragma once

#include <lastro/sdk/problem.hpp>

#include <optional>
#include <string>

namespace lastro::request {

// The HTTP status a handler's sdk::Problem is answered with.
int StatusOf(sdk::ProblemCode code);

struct ProblemStatus {
    int status;
    const char* title;
};
// Every status this server answers with a problem, with the contract's fixed title (and ours
// for statuses it does not list); /openapi.json describes the problem responses from it.
inline constexpr ProblemStatus kProblemStatuses[] = {
    {400, "Invalid parameter or filter combination"},
    {401, "Missing or invalid API key"},
    {403, "Insufficient scope for the resource"},
    {404, "Entity, month or resource not found"},
    {405, "Method not allowed"},
    {408, "Request timeout"},
    {413, "Request too large"},
    {415, "Unsupported media type"},
    {422, "Invalid parameter"},
    {429, "Insufficient monthly credits"},
    {500, "Internal API error"},
    {503, "Data source temporarily unavailable"},
};

// The title of `status` in kProblemStatuses ("Error" for a status it does not list).
const char* ProblemTitle(int status);

// A body with only title, status and detail, for the transport's own last-resort answers
// (a request that timed out before it reached the pipeline, an exception the pipeline let out).
std::string MinimalProblemBody(int status, const std::string& detail);

// The problem+json body: type {base_url}/problems/http-<status>, title, status, detail,
// instance (the request path), request_id and parameter (null when no single parameter).
std::string ProblemBody(const std::string& base_url, int status, const std::string& detail,
                        const std::string& instance, const std::string& request_id,
                        const std::optional<std::string>& parameter);

}  // namespace lastro::request
