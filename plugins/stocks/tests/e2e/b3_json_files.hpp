// B3's JSON answers and CVM's FCA as the end-to-end tests read them, with their own code: the
// sample's files parsed with Boost.JSON, pt-BR numbers ("15.750.216.851", "0,830118") and
// dd/mm/yyyy dates converted here.
#pragma once

#include "cotahist_lines.hpp"

#include <boost/json.hpp>

#include <filesystem>
#include <string>

namespace lastro::stocks::e2e {

inline boost::json::value ReadJson(const std::filesystem::path& path) {
    return boost::json::parse(FileText(path));
}

inline double PtBrNumber(const boost::json::value& value) {
    std::string text(value.as_string());
    std::string plain;
    for (char c : text) {
        if (c == ',') {
            plain += '.';
        } else if (c != '.') {
            plain += c;
        }
    }
    return std::stod(plain);
}

// dd/mm/yyyy as YYYY-MM-DD.
inline std::string IsoDate(const boost::json::value& value) {
    const std::string text(value.as_string());
    return text.substr(6, 4) + "-" + text.substr(3, 2) + "-" + text.substr(0, 2);
}

inline std::string Text(const boost::json::value& value) {
    return value.is_null() ? std::string() : std::string(value.as_string());
}

}  // namespace lastro::stocks::e2e
