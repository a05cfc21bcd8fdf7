#include <lastro/sdk/serving/json_text.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
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

// Text appended to a std::string kept sized ahead of what is written (`used` bytes of it are
// the text): a writer asks Room(n), writes up to n bytes there and Advance()s to its end. An
// answer is thousands of small pieces; std::string's own appends each checked, and grew or
// called out, per piece.
struct Sink {
    std::string& text;
    std::size_t& used;

    char* Room(std::size_t n) {
        if (text.size() - used < n) {
            text.resize(std::max(text.size() * 2, used + n + 256));
        }
        return text.data() + used;
    }
    void Advance(const char* end) { used = static_cast<std::size_t>(end - text.data()); }
    void Put(std::string_view piece) {
        std::memcpy(Room(piece.size()), piece.data(), piece.size());
        used += piece.size();
    }
    void Put(char c) {
        *Room(1) = c;
        ++used;
    }
};

// Room a string literal of `size` bytes may take: every byte escaped as \u00XX, the quotes.
constexpr std::size_t StringRoom(std::size_t size) {
    return size * 6 + 2;
}

// A JSON string literal of UTF-8 text, escaped as Boost.JSON's serializer escapes it (the
// two-character escapes, other control characters as \u00XX, everything else as is), written
// at `at`, which has StringRoom(text.size()) bytes; returns the end. Text is tested and copied
// eight bytes at a time: most of an answer is strings with nothing to escape, and the
// byte-by-byte loop was a fifth of the CPU of a 100-item /v1/fundos page.
char* WriteString(std::string_view text, char* at) {
    static const char* kHex = "0123456789abcdef";
    *at++ = '"';
    const char* data = text.data();
    const std::size_t size = text.size();
    std::size_t i = 0;
    for (; i + sizeof(std::uint64_t) <= size; i += sizeof(std::uint64_t)) {
        std::uint64_t word;
        std::memcpy(&word, data + i, sizeof word);
        if (NeedsEscape(word)) {
            break;
        }
        std::memcpy(at, &word, sizeof word);
        at += sizeof word;
    }
    for (; i < size; ++i) {
        const auto c = static_cast<unsigned char>(data[i]);
        if (c >= 0x20 && c != '"' && c != '\\') {
            *at++ = static_cast<char>(c);
            continue;
        }
        *at++ = '\\';
        switch (c) {
            case '"':
                *at++ = '"';
                break;
            case '\\':
                *at++ = '\\';
                break;
            case '\b':
                *at++ = 'b';
                break;
            case '\f':
                *at++ = 'f';
                break;
            case '\n':
                *at++ = 'n';
                break;
            case '\r':
                *at++ = 'r';
                break;
            case '\t':
                *at++ = 't';
                break;
            default:
                std::memcpy(at, "u00", 3);
                at += 3;
                *at++ = kHex[c >> 4];
                *at++ = kHex[c & 0x0F];
        }
    }
    *at++ = '"';
    return at;
}

// Most figures an answer carries are short decimals: money in cents, counts, published quota
// values and percentages of a few places. Such a figure is d == m / 10^k for an integer m of at
// most 15 digits, and then that decimal is the shortest text that reads back as d: two different
// decimals of 15 significant digits or fewer never read as the same double (DBL_DIG), and the
// shortest form has no more digits than this one. So it is what std::to_chars writes, found
// without to_chars's search for the shortest digits (about 600 instructions a number, a tenth of
// a 120-month /cotas answer). Writes it and returns true, or writes nothing and returns false
// when d is not such a decimal (a computed ratio), for to_chars to write. `magnitude` is |d|, in
// [1e-6, 1e15).
char* WriteShortDecimal(double d, double magnitude, char* at) {
    static constexpr double kPowersOfTen[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                              1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                              1e16, 1e17, 1e18, 1e19, 1e20, 1e21};  // all exact
    constexpr int kDigits = 15;
    // The most places that keep magnitude x 10^places under 10^15: 15 less the digits before
    // the point, or 15 and the zeros after it (1e-6 <= magnitude: 21 at most).
    int places = kDigits;
    if (magnitude >= 1.0) {
        int digits = 1;
        while (digits < kDigits && magnitude >= kPowersOfTen[digits]) {
            ++digits;
        }
        places = kDigits - digits;
    } else {
        while (places < 21 && magnitude * kPowersOfTen[places + 1] < kPowersOfTen[kDigits]) {
            ++places;
        }
    }
    const double whole = std::nearbyint(magnitude * kPowersOfTen[places]);
    // Division of two exact numbers is correctly rounded, as reading the decimal text is.
    if (whole >= kPowersOfTen[kDigits] || whole / kPowersOfTen[places] != magnitude) {
        return nullptr;
    }
    auto m = static_cast<std::uint64_t>(whole);
    // The shortest: no trailing zeros after the point (money has seven or so at 15 digits).
    for (const auto& [power, zeros] :
         {std::pair<std::uint64_t, int>{100000000, 8}, {10000, 4}, {100, 2}, {10, 1}}) {
        if (places >= zeros && m % power == 0) {
            m /= power;
            places -= zeros;
        }
    }
    char digits[24];
    const char* end = std::to_chars(digits, digits + sizeof digits, m).ptr;
    const auto count = static_cast<std::size_t>(end - digits);
    const auto fraction = static_cast<std::size_t>(places);
    if (d < 0) {
        *at++ = '-';
    }
    if (count > fraction) {  // 1234.5
        std::memcpy(at, digits, count - fraction);
        at += count - fraction;
    } else {  // 0.0012
        *at++ = '0';
    }
    if (fraction > 0) {
        *at++ = '.';
        if (fraction > count) {
            std::memset(at, '0', fraction - count);
            at += fraction - count;
        }
        const std::size_t shown = std::min(fraction, count);
        std::memcpy(at, end - shown, shown);
        at += shown;
    }
    return at;
}

// Room a number takes: 15 digits, a point, 21 places and a sign in plain notation, fewer in the
// shortest form.
constexpr std::size_t kNumberRoom = 64;

// A number at `at`, which has kNumberRoom bytes; returns the end.
char* WriteDouble(double d, char* at) {
    if (!std::isfinite(d)) {
        std::memcpy(at, "null", 4);  // JSON has no NaN or infinity
        return at + 4;
    }
    // Shortest round-trip digits, in plain notation within the magnitudes money and fractions
    // take (a million reads 1000000, not 1e+06); beyond them, the shortest form.
    const double magnitude = std::fabs(d);
    const bool plain = magnitude == 0.0 || (magnitude >= 1e-6 && magnitude < 1e15);
    if (plain && magnitude != 0.0) {
        if (char* end = WriteShortDecimal(d, magnitude, at)) {
            return end;
        }
    }
    return plain ? std::to_chars(at, at + kNumberRoom, d, std::chars_format::fixed).ptr
                 : std::to_chars(at, at + kNumberRoom, d).ptr;
}

void PutString(std::string_view text, Sink& sink) {
    sink.Advance(WriteString(text, sink.Room(StringRoom(text.size()))));
}

void PutDouble(double d, Sink& sink) {
    sink.Advance(WriteDouble(d, sink.Room(kNumberRoom)));
}

template <typename Integer>
void PutInteger(Integer number, Sink& sink) {
    constexpr std::size_t kIntegerRoom = 24;
    char* at = sink.Room(kIntegerRoom);
    sink.Advance(std::to_chars(at, at + kIntegerRoom, number).ptr);
}

void Write(const boost::json::value& value, Sink& sink) {
    switch (value.kind()) {
        case boost::json::kind::null:
            sink.Put("null");
            break;
        case boost::json::kind::bool_:
            sink.Put(value.get_bool() ? "true" : "false");
            break;
        case boost::json::kind::int64:
            PutInteger(value.get_int64(), sink);
            break;
        case boost::json::kind::uint64:
            PutInteger(value.get_uint64(), sink);
            break;
        case boost::json::kind::double_:
            PutDouble(value.get_double(), sink);
            break;
        case boost::json::kind::string:
            PutString(value.get_string(), sink);
            break;
        case boost::json::kind::array: {
            sink.Put('[');
            bool first = true;
            for (const auto& item : value.get_array()) {
                if (!first) {
                    sink.Put(',');
                }
                first = false;
                Write(item, sink);
            }
            sink.Put(']');
            break;
        }
        case boost::json::kind::object: {
            sink.Put('{');
            bool first = true;
            for (const auto& [key, item] : value.get_object()) {
                if (!first) {
                    sink.Put(',');
                }
                first = false;
                PutString(key, sink);
                sink.Put(':');
                Write(item, sink);
            }
            sink.Put('}');
            break;
        }
    }
}

}  // namespace

std::string WriteJson(const boost::json::value& value) {
    std::string out;
    std::size_t used = 0;
    Sink sink{out, used};
    Write(value, sink);
    out.resize(used);
    return out;
}

void JsonText::BeforeValue() {
    if (comma_) {
        Sink{out_, used_}.Put(',');
    }
    comma_ = true;
}

JsonText& JsonText::BeginObject() {
    BeforeValue();
    Sink{out_, used_}.Put('{');
    comma_ = false;
    return *this;
}

JsonText& JsonText::EndObject() {
    Sink{out_, used_}.Put('}');
    comma_ = true;
    return *this;
}

JsonText& JsonText::BeginArray() {
    BeforeValue();
    Sink{out_, used_}.Put('[');
    comma_ = false;
    return *this;
}

JsonText& JsonText::EndArray() {
    Sink{out_, used_}.Put(']');
    comma_ = true;
    return *this;
}

JsonText& JsonText::Key(std::string_view key) {
    // The comma, the key and the colon at once: keys are most of the pieces of a row.
    Sink sink{out_, used_};
    char* at = sink.Room(StringRoom(key.size()) + 2);
    if (comma_) {
        *at++ = ',';
    }
    at = WriteString(key, at);
    *at++ = ':';
    sink.Advance(at);
    comma_ = false;  // the member's value follows without one
    return *this;
}

JsonText& JsonText::Null() {
    BeforeValue();
    Sink{out_, used_}.Put("null");
    return *this;
}

JsonText& JsonText::Value(std::string_view text) {
    BeforeValue();
    Sink sink{out_, used_};
    PutString(text, sink);
    return *this;
}

JsonText& JsonText::Raw(std::string_view json) {
    BeforeValue();
    Sink{out_, used_}.Put(json);
    return *this;
}

JsonText& JsonText::Value(bool flag) {
    BeforeValue();
    Sink{out_, used_}.Put(flag ? "true" : "false");
    return *this;
}

JsonText& JsonText::Value(std::int64_t number) {
    BeforeValue();
    Sink sink{out_, used_};
    PutInteger(number, sink);
    return *this;
}

JsonText& JsonText::Value(double number) {
    BeforeValue();
    Sink sink{out_, used_};
    PutDouble(number, sink);
    return *this;
}

std::string JsonText::Take() {
    out_.resize(used_);
    used_ = 0;
    comma_ = false;
    return std::exchange(out_, {});
}

}  // namespace lastro::sdk
