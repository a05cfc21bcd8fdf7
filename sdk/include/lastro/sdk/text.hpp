// Text helpers shared by the host and the plugins: encodings and search folding.
#pragma once

#include <boost/config.hpp>

#include <string>
#include <string_view>

namespace lastro::sdk {

// True when `text` is well-formed UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF).
BOOST_SYMBOL_VISIBLE bool IsValidUtf8(std::string_view text);

// ISO-8859-1 bytes to UTF-8. Every byte maps to the code point of the same value.
BOOST_SYMBOL_VISIBLE std::string Latin1ToUtf8(std::string_view latin1);
BOOST_SYMBOL_VISIBLE void AppendLatin1AsUtf8(std::string_view latin1, std::string& out);

// UTF-8 to ISO-8859-1; characters outside Latin-1 become '?'. Used to write sample files.
// The windows-1252 characters (“ ” € – …) become their 0x80..0x9F bytes, as in CVM's files
// and as CvmCsvReader reads them; C1 controls and malformed input become '?'.
BOOST_SYMBOL_VISIBLE std::string Utf8ToLatin1(std::string_view utf8);

// Folds UTF-8 text for accent- and case-insensitive matching: Latin letters lose their
// accents (é -> e, Ç -> c), everything is lower-cased, other characters are kept.
// "Crédito Imobiliário" -> "credito imobiliario".
BOOST_SYMBOL_VISIBLE std::string FoldForSearch(std::string_view utf8);

// `utf8` in Unicode Normalization Form C (canonical composition, by utf8proc): "E" followed by
// U+0301 COMBINING ACUTE ACCENT becomes "É", so that text typed either way compares, folds and
// searches alike. ASCII and malformed input come back unchanged.
BOOST_SYMBOL_VISIBLE std::string NormalizeNfc(std::string_view utf8);

// True when `utf8` is empty or holds only characters that show nothing: white space of any
// kind (Unicode Zs, Zl, Zp), controls (Cc, tabs and line ends among them) and format
// characters (Cf: zero-width spaces, the byte order mark). Malformed input is not blank.
BOOST_SYMBOL_VISIBLE bool IsBlank(std::string_view utf8);

// Keeps only the ASCII digits of `text` ("12.345.678/0001-95" -> "12345678000195").
BOOST_SYMBOL_VISIBLE std::string DigitsOnly(std::string_view text);

}  // namespace lastro::sdk
