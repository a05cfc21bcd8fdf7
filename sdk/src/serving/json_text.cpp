#include <lastro/sdk/serving/json_text.hpp>

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>

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
        // Eight bytes, or the last few with bytes that need no escape after them.
        std::uint64_t word = kEveryByte * 'a';
        const std::size_t n = std::min(size - i, sizeof word);
        if (n == sizeof word) {
            std::memcpy(&word, data + i, sizeof word);
        } else {
            std::memcpy(&word, data + i, n);
        }
        if (!NeedsEscape(word)) {
            i += n;
            continue;
        }
        for (const std::size_t end = i + n; i < end; ++i) {
            const auto c = static_cast<unsigned char>(data[i]);
            if (c >= 0x20 && c != '"' && c != '\\') {
                continue;
            }
            out.append(data + plain, i - plain);
            plain = i + 1;
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
    }
    out.append(data + plain, size - plain);
    out += '"';
}

void WriteDouble(double d, std::string& out) {
    if (!std::isfinite(d)) {
        out += "null";  // JSON has no NaN or infinity
        return;
    }
    // Shortest round-trip digits, in plain notation within the magnitudes money and fractions
    // take (a million reads 1000000, not 1e+06); beyond them, the shortest form.
    const double magnitude = std::fabs(d);
    const bool plain = magnitude == 0.0 || (magnitude >= 1e-6 && magnitude < 1e15);
    char buffer[64];
    auto [end, ec] = plain ? std::to_chars(buffer, buffer + sizeof buffer, d, std::chars_format::fixed)
                           : std::to_chars(buffer, buffer + sizeof buffer, d);
    out.append(buffer, end);
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
        case boost::json::kind::double_:
            WriteDouble(value.get_double(), out);
            break;
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

void JsonText::BeforeValue() {
    if (comma_) {
        out_ += ',';
    }
    comma_ = true;
}

JsonText& JsonText::BeginObject() {
    BeforeValue();
    out_ += '{';
    comma_ = false;
    return *this;
}

JsonText& JsonText::EndObject() {
    out_ += '}';
    comma_ = true;
    return *this;
}

JsonText& JsonText::BeginArray() {
    BeforeValue();
    out_ += '[';
    comma_ = false;
    return *this;
}

JsonText& JsonText::EndArray() {
    out_ += ']';
    comma_ = true;
    return *this;
}

JsonText& JsonText::Key(std::string_view key) {
    BeforeValue();
    WriteString(key, out_);
    out_ += ':';
    comma_ = false;  // the member's value follows without one
    return *this;
}

JsonText& JsonText::Null() {
    BeforeValue();
    out_ += "null";
    return *this;
}

JsonText& JsonText::Value(std::string_view text) {
    BeforeValue();
    WriteString(text, out_);
    return *this;
}

JsonText& JsonText::Value(bool flag) {
    BeforeValue();
    out_ += flag ? "true" : "false";
    return *this;
}

JsonText& JsonText::Value(std::int64_t number) {
    BeforeValue();
    char buffer[24];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, number);
    out_.append(buffer, end);
    return *this;
}

JsonText& JsonText::Value(double number) {
    BeforeValue();
    WriteDouble(number, out_);
    return *this;
}

std::string JsonText::Take() {
    comma_ = false;
    return std::exchange(out_, {});
}

}  // namespace lastro::sdk
