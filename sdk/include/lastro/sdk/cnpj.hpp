// CNPJ: the 14-digit Brazilian company (and fund) registry number. Stored and returned as
// 14 digits; accepted with or without punctuation.
#pragma once

#include <boost/config.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace lastro::sdk {

enum class CnpjError { kNone, kBadCharacters, kWrongLength, kBadCheckDigits };

struct BOOST_SYMBOL_VISIBLE CnpjParse {
    std::optional<std::string> digits;  // 14 digits when valid
    CnpjError error = CnpjError::kNone;
};

// Accepts "12345678000195" or "12.345.678/0001-95" (the separators . / - and spaces only),
// checks the length and both check digits. 00000000000000, CVM's "no CNPJ" placeholder, is
// kBadCheckDigits.
BOOST_SYMBOL_VISIBLE CnpjParse ParseCnpj(std::string_view text);

// The two check digits for the first 12 digits (used by the sample generator); throws
// std::invalid_argument unless given exactly 12 digits.
BOOST_SYMBOL_VISIBLE std::string CnpjWithCheckDigits(std::string_view twelve_digits);

// "12.345.678/0001-95" from 14 digits; any other text is returned unchanged.
BOOST_SYMBOL_VISIBLE std::string FormatCnpj(std::string_view digits);

}  // namespace lastro::sdk
