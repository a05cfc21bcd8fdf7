// JSON text for responses, the host's and what a plugin stores to answer later (Result::data_json).
// Boost.JSON's serializer writes doubles in exponent form (1.15687912E6); money reads better as 1156879.12,
// so numbers are written with the shortest digits that read back to the same double (std::to_chars's,
// found by hand for decimals of up to 15 digits, most of an answer's), in plain notation for magnitudes
// from 1e-6 to 1e15 (1000000, never 1e+06; docs/api.md "Numbers") and in the shortest form beyond.
// Everything else is written as Boost.JSON would.
#pragma once

#include <boost/config.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lastro::sdk {

BOOST_SYMBOL_VISIBLE std::string WriteJson(const boost::json::value& value);

// JSON text written as it goes, for answers of many rows (Result::data_json): the bytes
// WriteJson gives for the same values in the same order, without building a boost::json tree
// first (on a 100-item /v1/fundos page, building the items' objects cost more than writing them).
// Commas are the writer's; the caller nests Begin/End and puts a Key before each member:
//
//   sdk::JsonText json;
//   json.BeginArray();
//   json.BeginObject();
//   json.Key("cvm_code").Value(fund.cvm_code);  // std::optional<std::int64_t>: 123 | null
//   json.EndObject();
//   json.EndArray();
//   result.data_json = json.Take();
class BOOST_SYMBOL_VISIBLE JsonText {
public:
    JsonText& BeginObject();
    JsonText& EndObject();
    JsonText& BeginArray();
    JsonText& EndArray();
    JsonText& Key(std::string_view key);

    JsonText& Null();
    JsonText& Value(std::string_view text);
    JsonText& Value(const char* text) { return Value(std::string_view(text)); }
    JsonText& Value(const std::string& text) { return Value(std::string_view(text)); }
    JsonText& Value(bool flag);
    JsonText& Value(std::int64_t number);
    JsonText& Value(double number);  // as WriteJson: plain notation for money, null when not finite
    template <typename T>
    JsonText& Value(const std::optional<T>& value) {  // a missing value is null (contract 2.1)
        return value ? Value(*value) : Null();
    }
    // A value that is already JSON text, copied as it is: text this service wrote itself and
    // stored (WriteJson's, JsonText's or Boost.JSON's serializer's), never a client's. The caller
    // vouches that it is one whole JSON value.
    JsonText& Raw(std::string_view json);

    // The text written so far; the writer is empty afterwards.
    std::string Take();

private:
    void BeforeValue();

    std::string out_;  // kept sized ahead of the text: its first used_ bytes
    std::size_t used_ = 0;
    bool comma_ = false;  // whether the next member or item follows another
};

}  // namespace lastro::sdk
