// What a client's request headers ask of an answer's representation (RFC 9110, 12 and 13):
// the content coding from Accept-Encoding, whether Accept prefers CSV to JSON, and whether
// If-None-Match names an entity tag. Pure functions over header text the transport bounded
// (server.max_request_bytes); linear in it, and they never throw (fuzz/negotiation.cpp).
#pragma once

#include <optional>
#include <string_view>

namespace lastro::answering {

enum class Coding { kIdentity, kGzip };

// gzip when the client accepts it (by name, x-gzip, or *) with a weight above 0 and not below
// an identity it names; identity otherwise, also when it refuses identity and names nothing
// we offer (RFC 9110, 12.5.3 lets the server answer without coding then). No header: identity.
Coding ChooseCoding(std::optional<std::string_view> accept_encoding);

// Whether Accept weighs text/csv above application/json, each weighed by its most specific
// range (type/subtype, then type/*, then */*). A tie, or no header, is JSON.
bool PrefersCsv(std::optional<std::string_view> accept);

// Whether If-None-Match is "*" or names `etag` (a quoted strong tag, "..."), compared weakly
// (RFC 9110, 13.1.2: W/ ignored). A list that stops making sense matches nothing after that point.
bool NoneMatchNames(std::string_view if_none_match, std::string_view etag);

}  // namespace lastro::answering
