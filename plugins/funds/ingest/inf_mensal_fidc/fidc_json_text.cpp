#include "ingest/inf_mensal_fidc/fidc_json_text.hpp"

#include <boost/json/value.hpp>

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <utility>

namespace lastro::funds {

namespace {

bool NeedsEscape(unsigned char c) {
    return c < 0x20 || c == '"' || c == '\\';
}

bool IsPlain(std::string_view text) {
    return std::none_of(text.begin(), text.end(),
                        [](char c) { return NeedsEscape(static_cast<unsigned char>(c)); });
}

// Appends the pieces with one resize: most of a document is keys and values copied whole.
void AppendPieces(std::string& out, std::initializer_list<std::string_view> pieces) {
    const std::size_t start = out.size();
    std::size_t added = 0;
    for (std::string_view piece : pieces) {
        added += piece.size();
    }
    out.resize(start + added);
    char* at = out.data() + start;
    for (std::string_view piece : pieces) {
        std::memcpy(at, piece.data(), piece.size());
        at += piece.size();
    }
}

// The short escapes Boost.JSON uses; every other control character becomes \u00XX.
char ShortEscape(unsigned char c) {
    switch (c) {
        case '"':
            return '"';
        case '\\':
            return '\\';
        case '\b':
            return 'b';
        case '\t':
            return 't';
        case '\n':
            return 'n';
        case '\f':
            return 'f';
        case '\r':
            return 'r';
        default:
            return 0;
    }
}

void AppendEscaped(std::string& out, std::string_view text) {
    static constexpr char kHex[] = "0123456789abcdef";
    out.push_back('"');
    std::size_t run = 0;  // start of the characters not yet appended
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (!NeedsEscape(c)) {
            continue;
        }
        out.append(text.data() + run, i - run);
        run = i + 1;
        if (const char short_escape = ShortEscape(c)) {
            out.push_back('\\');
            out.push_back(short_escape);
        } else {
            out.append("\\u00");
            out.push_back(kHex[c >> 4]);
            out.push_back(kHex[c & 15]);
        }
    }
    out.append(text.data() + run, text.size() - run);
    out.push_back('"');
}

}  // namespace

void AppendJsonString(std::string& out, std::string_view text) {
    if (IsPlain(text)) {
        AppendPieces(out, {"\"", text, "\""});
    } else {
        AppendEscaped(out, text);
    }
}

void JsonTextWriter::BeforeValue() {
    if (needs_comma_) {
        out_.push_back(',');
    }
    needs_comma_ = true;
}

void JsonTextWriter::Open(char bracket) {
    BeforeValue();
    out_.push_back(bracket);
    needs_comma_ = false;
}

void JsonTextWriter::Close(char bracket) {
    out_.push_back(bracket);
    needs_comma_ = true;
}

void JsonTextWriter::Key(std::string_view key) {
    if (needs_comma_) {
        out_.push_back(',');
    }
    AppendJsonString(out_, key);
    out_.push_back(':');
    needs_comma_ = false;
}

void JsonTextWriter::StringMember(std::string_view escaped_key_and_colon, std::string_view text) {
    const std::string_view comma = needs_comma_ ? "," : "";
    if (IsPlain(text)) {
        AppendPieces(out_, {comma, escaped_key_and_colon, "\"", text, "\""});
    } else {
        AppendPieces(out_, {comma, escaped_key_and_colon});
        AppendEscaped(out_, text);
    }
    needs_comma_ = true;
}

void JsonTextWriter::String(std::string_view text) {
    BeforeValue();
    AppendJsonString(out_, text);
}

void JsonTextWriter::Number(double value) {
    BeforeValue();
    const boost::json::value number(value);
    numbers_.reset(&number);
    char buffer[64];
    while (!numbers_.done()) {
        const auto text = numbers_.read(buffer, sizeof buffer);
        out_.append(text.data(), text.size());
    }
}

void JsonTextWriter::Null() {
    BeforeValue();
    out_.append("null");
}

std::string JsonTextWriter::Take() {
    needs_comma_ = false;
    return std::exchange(out_, std::string());
}

}  // namespace lastro::funds
