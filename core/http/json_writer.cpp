#include "core/http/json_writer.hpp"

#include <boost/json/serialize.hpp>

#include <charconv>
#include <cmath>

namespace lastro::http {
namespace {

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
            char buffer[32];
            auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, d);
            out.append(buffer, end);
            break;
        }
        case boost::json::kind::string:
            out += boost::json::serialize(value.get_string());
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
                out += boost::json::serialize(boost::json::string_view(key));
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

}  // namespace lastro::http
