#include <lastro/sdk/serving/json_text.hpp>

#include <boost/json/serialize.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace lastro::sdk {
namespace {

// Whether any of eight bytes is a control character (under 0x20), a quote or a backslash: the
// bytes a JSON string escapes. Each test is the classic "has a byte less than n" bit trick
// (exact as a yes or no; bytes of 0x80 and above, UTF-8's, never match).
constexpr std::uint64_t kEveryByte = 0x0101010101010101ULL;
constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;
constexpr bool HasByteBelow(std::uint64_t word, unsigned char n) {
    return ((word - kEveryByte * n) & ~word & kHighBits) != 0;
}
constexpr bool NeedsEscape(std::uint64_t word) {
    return HasByteBelow(word, 0x20) || HasByteBelow(word ^ (kEveryByte * '"'), 1) ||
           HasByteBelow(word ^ (kEveryByte * '\\'), 1);
}

// A JSON string literal of UTF-8 text, escaped as Boost.JSON's serializer escapes it (the
// two-character escapes, other control characters as \u00XX, everything else as is), written
// in place: serializing each key and string separately allocated a string per member. Text is
// tested eight bytes at a time: most of an answer is strings with nothing to escape, and the
// byte-by-byte loop was a fifth of the CPU of a 100-item /v1/fundos page.
void WriteString(std::string_view text, std::string& out) {
    static const char* kHex = "0123456789abcdef";
    out += '"';
    const char* data = text.data();
    const std::size_t size = text.size();
    std::size_t plain = 0;  // start of the run not yet copied
    std::size_t i = 0;
    while (i < size) {
        if (std::uint64_t word; i + sizeof word <= size) {
            std::memcpy(&word, data + i, sizeof word);
            if (!NeedsEscape(word)) {
                i += sizeof word;
                continue;
            }
        }
        const auto c = static_cast<unsigned char>(data[i]);
        if (c >= 0x20 && c != '"' && c != '\\') {
            ++i;
            continue;
        }
        out.append(data + plain, i - plain);
        plain = ++i;
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\b':
                out += "\\b";
                break;
            case '\f':
                out += "\\f";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                out += "\\u00";
                out += kHex[c >> 4];
                out += kHex[c & 0x0F];
        }
    }
    out.append(data + plain, size - plain);
    out += '"';
}

void Write(const boost::json::value& value, std::string& out) {
    switch (value.kind()) {
        case boost::json::kind::null:
            out += "null";
            break;
        case boost::json::kind::bool_:
            out += value.get_bool() ? "true" : "false";
            break;
        case boost::json::kind::int64:
            out += std::to_string(value.get_int64());
            break;
        case boost::json::kind::uint64:
            out += std::to_string(value.get_uint64());
            break;
        case boost::json::kind::double_: {
            const double d = value.get_double();
            if (!std::isfinite(d)) {
                out += "null";  // JSON has no NaN or infinity
                break;
            }
            // Shortest round-trip digits, in plain notation within the magnitudes money and
            // fractions take (a million reads 1000000, not 1e+06); beyond them, the shortest form.
            const double magnitude = std::fabs(d);
            const bool plain = magnitude == 0.0 || (magnitude >= 1e-6 && magnitude < 1e15);
            char buffer[64];
            auto [end, ec] = plain
                                 ? std::to_chars(buffer, buffer + sizeof buffer, d, std::chars_format::fixed)
                                 : std::to_chars(buffer, buffer + sizeof buffer, d);
            out.append(buffer, end);
            break;
        }
        case boost::json::kind::string:
            WriteString(value.get_string(), out);
            break;
        case boost::json::kind::array: {
            out += '[';
            bool first = true;
            for (const auto& item : value.get_array()) {
                if (!first)
                    out += ',';
                first = false;
                Write(item, out);
            }
            out += ']';
            break;
        }
        case boost::json::kind::object: {
            out += '{';
            bool first = true;
            for (const auto& [key, item] : value.get_object()) {
                if (!first)
                    out += ',';
                first = false;
                WriteString(key, out);
                out += ':';
                Write(item, out);
            }
            out += '}';
            break;
        }
    }
}

}  // namespace

std::string WriteJson(const boost::json::value& value) {
    std::string out;
    out.reserve(4096);
    Write(value, out);
    return out;
}

}  // namespace lastro::sdk
