// JSON text written straight into a string, byte for byte what boost::json::serialize writes
// for the same document (its escapes, its number form "1.5E3"), so the stored JSON documents of
// a report (FidcReport::segments_json, bands_json, published_json) are the same as when they
// were built as boost::json values first. Building those values cost the ingester more than
// reading the files did.
#pragma once

#include <boost/json/serializer.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace lastro::funds {

// Appends `text` as a JSON string (quotes included), escaped as Boost.JSON escapes it:
// '"', '\\' and the control characters, nothing else (UTF-8 passes through).
void AppendJsonString(std::string& out, std::string_view text);

// Writes one document; the caller opens and closes every object and array it starts. Commas
// come by themselves: a key or value after a value gets one.
class JsonTextWriter {
public:
    void BeginObject() { Open('{'); }
    void EndObject() { Close('}'); }
    void BeginArray() { Open('['); }
    void EndArray() { Close(']'); }

    void Key(std::string_view key);
    void String(std::string_view text);
    // An object's member of text value, its key given as AppendJsonString(key) + ':' (for
    // keys written again and again).
    void StringMember(std::string_view escaped_key_and_colon, std::string_view text);
    void Number(double value);
    void Null();
    void NumberOrNull(const std::optional<double>& value) { value ? Number(*value) : Null(); }

    void Reserve(std::size_t bytes) { out_.reserve(bytes); }
    // The document; the writer is empty afterwards.
    std::string Take();

private:
    void BeforeValue();
    void Open(char bracket);
    void Close(char bracket);

    std::string out_;
    bool needs_comma_ = false;
    boost::json::serializer numbers_;  // Boost.JSON's own number form, reused
};

}  // namespace lastro::funds
