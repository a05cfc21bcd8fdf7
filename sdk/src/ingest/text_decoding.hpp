// Internal: the text checks and decoding the CSV and fixed-width readers share.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace lastro::sdk::detail {

inline constexpr char kLooksUtf8[] = "the file looks UTF-8 encoded; CVM files are ISO-8859-1";

// Decodes ISO-8859-1 bytes (as windows-1252) into UTF-8 at the start of `buffer`, which only
// grows (no allocation per line), and returns the UTF-8 length. On bytes that are not text
// (control bytes other than tab, CR, LF; the five bytes windows-1252 leaves undefined; UTF-8
// input) returns nullopt with the reason in `problem`.
std::optional<std::size_t> DecodeLatin1(std::string_view raw, std::string& buffer, std::string& problem);

// Why `text` is not UTF-8 text (invalid UTF-8, a control byte other than tab); nullopt when it is.
std::optional<std::string> Utf8Problem(std::string_view text);

}  // namespace lastro::sdk::detail
