// Predicates and assertions over API answers, written from the contract
// (shared/contract/api-v1.md) and independent of the host's code: the envelope, problem
// records, the billing headers. Whatever a plugin's data means is its own tests' business.
#pragma once

#include <lastro/sdk/testing/http_client.hpp>

#include <gtest/gtest.h>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace lastro::sdk::testing {

// The eight headers every /v1 answer carries (contract 3, 7, 8).
inline constexpr std::array<std::string_view, 8> kBillingHeaders = {
    "X-Credits-Cost",  "X-Credits-Charged", "X-Credits-Remaining",   "X-Credits-Limit",
    "X-Credits-Reset", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"};

bool IsUuid(std::string_view text);       // 8-4-4-4-12 hexadecimal digits
bool IsRequestId(std::string_view text);  // and version 7 (time-ordered), RFC 9562 variant
bool IsIsoDate(std::string_view text);    // YYYY-MM-DD, a real calendar day

// A UUID v4 no entity has (ids a plugin derives are v5).
std::string RandomUuid();

// The fixed title of each status (contract 7; 405 is ours).
std::string TitleFor(int status);

// The answer is a problem record (contract 2.3) with this status, the contract's title,
// type {base_url}/problems/http-<status>, instance == `instance`, a UUID request_id equal to
// X-Request-Id, a string detail and parameter == `parameter` (nullopt: null).
::testing::AssertionResult IsProblem(const HttpResponse& response, int status, const std::string& base_url,
                                     const std::string& instance,
                                     const std::optional<std::string>& parameter);

// All eight billing headers are present with integer values.
::testing::AssertionResult HasBillingHeaders(const HttpResponse& response);

// Cost, charged and remaining credits as the headers report them.
::testing::AssertionResult CreditsAre(const HttpResponse& response, std::int64_t cost, std::int64_t charged,
                                      std::int64_t remaining);

// The answer is 200 application/json with the envelope of contract 2.2 (data, meta with a
// UUID request_id equal to X-Request-Id, row_count, sources, data_release, as_of).
::testing::AssertionResult IsEnvelope(const HttpResponse& response);

// Object member access that fails with a readable message instead of an exception.
const boost::json::object& AsObject(const boost::json::value& v);
const boost::json::value& At(const boost::json::object& o, std::string_view key);
std::string Str(const boost::json::object& o, std::string_view key);

}  // namespace lastro::sdk::testing
