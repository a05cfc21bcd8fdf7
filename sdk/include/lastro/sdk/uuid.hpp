// UUIDs: v5 (name-based, SHA-1) for persistent ids that never change across re-ingests and
// databases, v4 (random), v7 (time-ordered, for request ids).
#pragma once

#include <boost/config.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace lastro::sdk {

// RFC 9562 version 5 UUID of `name` in `namespace_uuid` (canonical lower-case text). Throws
// std::invalid_argument when `namespace_uuid` is not a UUID.
BOOST_SYMBOL_VISIBLE std::string UuidV5(std::string_view namespace_uuid, std::string_view name);

// RFC 9562 version 4 UUID from the operating system's CSPRNG.
BOOST_SYMBOL_VISIBLE std::string UuidV4();

// RFC 9562 version 7 UUID: `unix_ms` in the first 48 bits, then CSPRNG bits. Ids made later
// sort later (to the millisecond).
BOOST_SYMBOL_VISIBLE std::string UuidV7(std::uint64_t unix_ms);

// True for the canonical 8-4-4-4-12 hexadecimal form (either case).
BOOST_SYMBOL_VISIBLE bool IsUuid(std::string_view text);

}  // namespace lastro::sdk
