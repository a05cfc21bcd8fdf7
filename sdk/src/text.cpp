#include <lastro/sdk/text.hpp>

#include "windows_1252.hpp"

#include <utf8proc.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>

namespace lastro::sdk {

namespace {

// Decodes one well-formed UTF-8 sequence at text[pos]; returns its length, or 0 when the bytes
// there are not well-formed (overlong, surrogate, above U+10FFFF, truncated, stray byte).
std::size_t DecodeUtf8(std::string_view text, std::size_t pos, char32_t& code_point) {
    const auto lead = static_cast<unsigned char>(text[pos]);
    std::size_t length;
    char32_t minimum;
    if (lead < 0x80) {
        code_point = lead;
        return 1;
    } else if ((lead & 0xE0) == 0xC0) {
        length = 2;
        minimum = 0x80;
        code_point = lead & 0x1F;
    } else if ((lead & 0xF0) == 0xE0) {
        length = 3;
        minimum = 0x800;
        code_point = lead & 0x0F;
    } else if ((lead & 0xF8) == 0xF0) {
        length = 4;
        minimum = 0x10000;
        code_point = lead & 0x07;
    } else {
        return 0;
    }
    if (text.size() - pos < length) {
        return 0;
    }
    for (std::size_t i = 1; i < length; ++i) {
        const auto next = static_cast<unsigned char>(text[pos + i]);
        if ((next & 0xC0) != 0x80) {
            return 0;
        }
        code_point = (code_point << 6) | (next & 0x3F);
    }
    if (code_point < minimum || code_point > 0x10FFFF || (code_point >= 0xD800 && code_point <= 0xDFFF)) {
        return 0;
    }
    return length;
}

// What a Latin-1 letter (U+00C0..U+00FF) folds to: its unaccented lower-case ASCII letter, or
// just its lower-case form when it has no accent to strip (æ, ð, ø, þ, ß); × and ÷ stay.
constexpr char32_t kFoldLatin1[64] = {
    'a',    'a', 'a', 'a', 'a', 'a', 0x00E6, 'c',  'e',  'e', 'e', 'e', 'i', 'i', 'i',  'i',   // C0..CF
    0x00F0, 'n', 'o', 'o', 'o', 'o', 'o',    0xD7, 0xF8, 'u', 'u', 'u', 'u', 'y', 0xFE, 0xDF,  // D0..DF
    'a',    'a', 'a', 'a', 'a', 'a', 0x00E6, 'c',  'e',  'e', 'e', 'e', 'i', 'i', 'i',  'i',   // E0..EF
    0x00F0, 'n', 'o', 'o', 'o', 'o', 'o',    0xF7, 0xF8, 'u', 'u', 'u', 'u', 'y', 0xFE, 'y',   // F0..FF
};

void AppendCodePoint(char32_t code_point, std::string& out) {
    if (code_point < 0x80) {
        out.push_back(static_cast<char>(code_point));
    } else if (code_point < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (code_point >> 6)));
        out.push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xE0 | (code_point >> 12)));
        out.push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
    }
}

// A windows-1252 character (“, €, …) goes back to its 0x80..0x9F byte, which is how CVM's files
// carry it and how CvmCsvReader reads it. C1 controls (U+0080..U+009F) are not in the table:
// their bytes would read back as other characters.
char Windows1252Byte(char32_t code_point) {
    for (int i = 0; i < 32; ++i) {
        if (detail::kWindows1252High[i] == code_point) {
            return static_cast<char>(0x80 + i);
        }
    }
    return '?';
}

}  // namespace

bool IsValidUtf8(std::string_view text) {
    char32_t code_point;
    for (std::size_t pos = 0; pos < text.size();) {
        const std::size_t length = DecodeUtf8(text, pos, code_point);
        if (length == 0) {
            return false;
        }
        pos += length;
    }
    return true;
}

void AppendLatin1AsUtf8(std::string_view latin1, std::string& out) {
    out.reserve(out.size() + latin1.size() * 2);
    for (char c : latin1) {
        AppendCodePoint(static_cast<unsigned char>(c), out);
    }
}

std::string Latin1ToUtf8(std::string_view latin1) {
    std::string out;
    AppendLatin1AsUtf8(latin1, out);
    return out;
}

std::string Utf8ToLatin1(std::string_view utf8) {
    std::string out;
    out.reserve(utf8.size());
    char32_t code_point;
    for (std::size_t pos = 0; pos < utf8.size();) {
        const std::size_t length = DecodeUtf8(utf8, pos, code_point);
        if (length == 0) {
            out.push_back('?');
            ++pos;
            continue;
        }
        pos += length;
        if (code_point < 0x80 || (code_point >= 0xA0 && code_point <= 0xFF)) {
            out.push_back(static_cast<char>(code_point));
        } else {
            out.push_back(Windows1252Byte(code_point));
        }
    }
    return out;
}

std::string FoldForSearch(std::string_view utf8) {
    std::string out;
    out.reserve(utf8.size());
    for (std::size_t pos = 0; pos < utf8.size(); ++pos) {
        const auto byte = static_cast<unsigned char>(utf8[pos]);
        if (byte >= 'A' && byte <= 'Z') {
            out.push_back(static_cast<char>(byte + ('a' - 'A')));
        } else if (byte == 0xC3 && pos + 1 < utf8.size() && (utf8[pos + 1] & 0xC0) == 0x80) {
            // U+00C0..U+00FF: every Latin-1 letter is 0xC3 followed by one continuation byte.
            const auto folded = kFoldLatin1[static_cast<unsigned char>(utf8[++pos]) & 0x3F];
            AppendCodePoint(folded, out);
        } else if (byte == 0xC5 && pos + 1 < utf8.size() &&
                   static_cast<unsigned char>(utf8[pos + 1]) == 0xB8) {
            out.push_back('y');  // Ÿ, the upper-case form of ÿ, lives outside Latin-1
            ++pos;
        } else {
            // Other characters are copied byte by byte, which keeps their sequences intact.
            out.push_back(static_cast<char>(byte));
        }
    }
    return out;
}

std::string NormalizeNfc(std::string_view utf8) {
    if (std::all_of(utf8.begin(), utf8.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; })) {
        return std::string(utf8);  // ASCII is its own normal form
    }
    utf8proc_uint8_t* composed = nullptr;
    const utf8proc_ssize_t length = utf8proc_map(
        reinterpret_cast<const utf8proc_uint8_t*>(utf8.data()), static_cast<utf8proc_ssize_t>(utf8.size()),
        &composed, static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_COMPOSE));
    if (length < 0) {
        return std::string(utf8);  // malformed: the caller's own checks refuse it
    }
    std::unique_ptr<utf8proc_uint8_t, decltype(&std::free)> owned(composed, &std::free);
    return std::string(reinterpret_cast<const char*>(composed), static_cast<std::size_t>(length));
}

bool IsBlank(std::string_view utf8) {
    auto at = reinterpret_cast<const utf8proc_uint8_t*>(utf8.data());
    utf8proc_ssize_t left = static_cast<utf8proc_ssize_t>(utf8.size());
    while (left > 0) {
        utf8proc_int32_t code_point = 0;
        const utf8proc_ssize_t length = utf8proc_iterate(at, left, &code_point);
        if (length <= 0) {
            return false;
        }
        switch (utf8proc_category(code_point)) {
            case UTF8PROC_CATEGORY_ZS:
            case UTF8PROC_CATEGORY_ZL:
            case UTF8PROC_CATEGORY_ZP:
            case UTF8PROC_CATEGORY_CC:
            case UTF8PROC_CATEGORY_CF:
                break;
            default:
                return false;
        }
        at += length;
        left -= length;
    }
    return true;
}

std::string DigitsOnly(std::string_view text) {
    std::string out;
    for (char c : text) {
        if (c >= '0' && c <= '9') {
            out.push_back(c);
        }
    }
    return out;
}

}  // namespace lastro::sdk
