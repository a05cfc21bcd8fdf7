// Small text helpers every ingester of this plugin needs for file names and CSV fields.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace lastro::funds {

// True for one or more ASCII digits and nothing else.
bool AllDigits(std::string_view text);
// ASCII letters lowered (file names are matched case-insensitively).
std::string LowerAscii(std::string_view text);
// Without the spaces and tabs at both ends (CVM pads some fields).
std::string_view TrimBlanks(std::string_view text);
// A bad value echoed in a message, quoted and cut at `max` characters so that one field cannot
// flood the message.
std::string Quoted(std::string_view value, std::size_t max = 60);

}  // namespace lastro::funds
