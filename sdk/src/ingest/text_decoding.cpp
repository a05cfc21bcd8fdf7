#include "text_decoding.hpp"

#include <lastro/sdk/text.hpp>

#include "../windows_1252.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace lastro::sdk::detail {

namespace {

constexpr std::uint64_t kBytesOf01 = 0x0101010101010101ULL;
constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;

// True when all eight bytes of `word` are printable ASCII (0x20..0x7F), the common case.
bool AllPrintableAscii(std::uint64_t word) {
    const std::uint64_t has_below_space = (word - kBytesOf01 * 0x20) & ~word & kHighBits;
    return ((word & kHighBits) | has_below_space) == 0;
}

bool IsForbiddenControl(unsigned char byte) {
    return byte < 0x20 && byte != '\t' && byte != '\n' && byte != '\r';
}

std::string ByteMessage(const char* format, unsigned char byte) {
    char message[64];
    std::snprintf(message, sizeof message, format, byte);
    return message;
}

}  // namespace

std::optional<std::size_t> DecodeLatin1(std::string_view raw, std::string& buffer, std::string& problem) {
    // Each byte becomes at most three UTF-8 bytes (the windows-1252 characters above U+07FF).
    if (buffer.size() < raw.size() * 3) {
        buffer.resize(raw.size() * 3);
    }
    char* out = buffer.data();
    const auto* in = reinterpret_cast<const unsigned char*>(raw.data());
    const auto* end = in + raw.size();
    while (in < end) {
        if (end - in >= 8) {
            std::uint64_t word;
            std::memcpy(&word, in, sizeof word);
            if (AllPrintableAscii(word)) {
                std::memcpy(out, in, sizeof word);
                in += sizeof word;
                out += sizeof word;
                continue;
            }
        }
        const unsigned char byte = *in++;
        char32_t code_point = byte;
        if (byte < 0x80) {
            if (IsForbiddenControl(byte)) {
                problem = ByteMessage("byte 0x%02X is not ISO-8859-1 text", byte);
                return std::nullopt;
            }
            *out++ = static_cast<char>(byte);
            continue;
        }
        if (byte < 0xA0) {
            code_point = kWindows1252High[byte - 0x80];
            if (code_point == 0) {
                problem = ByteMessage("byte 0x%02X is not ISO-8859-1 text", byte);
                return std::nullopt;
            }
        } else if (byte == 0xC3 && in < end && (*in & 0xC0) == 0x80) {
            // "Ã" then a byte of 0x80..0xBF is how UTF-8 writes à..ÿ: Portuguese text in UTF-8.
            problem = kLooksUtf8;
            return std::nullopt;
        }
        if (code_point < 0x800) {
            *out++ = static_cast<char>(0xC0 | (code_point >> 6));
            *out++ = static_cast<char>(0x80 | (code_point & 0x3F));
        } else {
            *out++ = static_cast<char>(0xE0 | (code_point >> 12));
            *out++ = static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
            *out++ = static_cast<char>(0x80 | (code_point & 0x3F));
        }
    }
    return static_cast<std::size_t>(out - buffer.data());
}

std::optional<std::string> Utf8Problem(std::string_view text) {
    if (!IsValidUtf8(text)) {
        return "not UTF-8 text (this layout is UTF-8, not ISO-8859-1)";
    }
    for (unsigned char c : text) {
        if (c < 0x20 && c != '\t') {
            return ByteMessage("control byte 0x%02X", c);
        }
    }
    return std::nullopt;
}

}  // namespace lastro::sdk::detail
