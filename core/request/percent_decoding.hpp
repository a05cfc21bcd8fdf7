// Percent-decoding of a request's path and query parameters (RFC 3986 2.1), in a file of its
// own so that the query-string fuzz target (fuzz/query_string.cpp) runs the code lastrod runs.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace lastro::request {

// The decoded bytes (Boost.URL); nullopt for an invalid escape ("%", "%4", "%zz"). With
// `plus_is_space` (query names and values) '+' means a space. The result may hold any byte,
// NUL and invalid UTF-8 included: checking it is the caller's.
std::optional<std::string> PercentDecode(std::string_view raw, bool plus_is_space);

}  // namespace lastro::request
