// The JSON text the FIDC ingester writes must be byte for byte what boost::json::serialize
// writes for the same document: the stored JSON documents must not change with the writer.
#include "ingest/inf_mensal_fidc/fidc_json_text.hpp"

#include <gtest/gtest.h>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace lastro::funds::testing {
namespace {

std::string Written(std::string_view text) {
    std::string out;
    AppendJsonString(out, text);
    return out;
}

std::string WrittenNumber(double value) {
    JsonTextWriter writer;
    writer.Number(value);
    return writer.Take();
}

TEST(FidcJsonTextTest, EveryByteIsEscapedAsBoostJsonEscapesIt) {
    for (int byte = 0; byte < 256; ++byte) {
        const std::string text = "a" + std::string(1, static_cast<char>(byte)) + "b";
        EXPECT_EQ(Written(text), boost::json::serialize(boost::json::string(text))) << "byte " << byte;
    }
}

TEST(FidcJsonTextTest, PublishedTextKeepsEverythingButTheEscapes) {
    for (const std::string& text :
         {std::string(), std::string("FIDC \"ALFA\" C:\\dados"),
          std::string("Serviços Públicos (eletricidade)"), std::string("\x01\x1f\x7f tab\there\r\n"),
          std::string("a/b <c> &d; 'e'"), std::string(3, '\0')}) {
        EXPECT_EQ(Written(text), boost::json::serialize(boost::json::string(text))) << text;
    }
}

TEST(FidcJsonTextTest, NumbersHaveBoostJsonsForm) {
    std::vector<double> values = {0.0,
                                  -0.0,
                                  1.0,
                                  -1.0,
                                  0.1,
                                  1500.0,
                                  6278669.83,
                                  -50000.0,
                                  71.42857143,
                                  1e21,
                                  1e-7,
                                  123456789012345678.0,
                                  std::numeric_limits<double>::max(),
                                  std::numeric_limits<double>::min(),
                                  std::numeric_limits<double>::denorm_min()};
    // Money as CVM publishes it: up to 15 integer digits and 2 to 8 decimals.
    std::mt19937_64 random(20260801);
    for (int i = 0; i < 20000; ++i) {
        const long long integer = static_cast<long long>(random() % 1000000000000000ULL) >> (random() % 50);
        const int decimals = 2 + static_cast<int>(random() % 7);
        const long long fraction = static_cast<long long>(random() % 100000000ULL);
        char text[64];
        std::snprintf(text, sizeof text, "%s%lld.%0*lld", random() % 5 == 0 ? "-" : "", integer, decimals,
                      fraction % static_cast<long long>(std::pow(10, decimals)));
        values.push_back(std::strtod(text, nullptr));
    }
    for (double value : values) {
        EXPECT_EQ(WrittenNumber(value), boost::json::serialize(boost::json::value(value))) << value;
    }
}

TEST(FidcJsonTextTest, ADocumentIsWrittenAsBoostJsonSerializesIt) {
    JsonTextWriter writer;
    writer.BeginObject();
    writer.Key("V");
    writer.BeginObject();
    writer.Key("to_mature");
    writer.BeginArray();
    writer.Number(400000.0);
    writer.Null();
    writer.NumberOrNull(std::nullopt);
    writer.NumberOrNull(2.5);
    writer.EndArray();
    writer.Key("empty_list");
    writer.BeginArray();
    writer.EndArray();
    writer.Key("empty_object");
    writer.BeginObject();
    writer.EndObject();
    writer.Key("total");
    writer.Number(-0.5);
    writer.EndObject();
    writer.Key("VI");
    writer.Null();
    for (const auto& [name, value] : {std::pair{"TAB_\"X\"", "5.00"}, std::pair{"TAB_Y", "tab\there"}}) {
        std::string key;
        AppendJsonString(key, name);
        key.push_back(':');
        writer.StringMember(key, value);
    }
    writer.Key("one_member");
    writer.BeginObject();
    writer.StringMember("\"K\":", "v");
    writer.EndObject();
    writer.Key("VIII");
    writer.BeginArray();
    writer.BeginArray();
    writer.String("1");
    writer.String("5000.00");
    writer.EndArray();
    writer.BeginArray();
    writer.String("2");
    writer.Null();
    writer.EndArray();
    writer.EndArray();
    writer.EndObject();

    const boost::json::value expected = {
        {"V",
         {{"to_mature", boost::json::array{400000.0, nullptr, nullptr, 2.5}},
          {"empty_list", boost::json::array()},
          {"empty_object", boost::json::object()},
          {"total", -0.5}}},
        {"VI", nullptr},
        {"TAB_\"X\"", "5.00"},
        {"TAB_Y", "tab\there"},
        {"one_member", {{"K", "v"}}},
        {"VIII", boost::json::array{boost::json::array{"1", "5000.00"}, boost::json::array{"2", nullptr}}},
    };
    EXPECT_EQ(writer.Take(), boost::json::serialize(expected));
    // Taken: the writer starts a new document.
    writer.BeginArray();
    writer.EndArray();
    EXPECT_EQ(writer.Take(), "[]");
}

}  // namespace
}  // namespace lastro::funds::testing
