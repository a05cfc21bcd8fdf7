// Test helper: reads back a sample CSV (ISO-8859-1, ';', unquoted, LF) into UTF-8 fields.
#pragma once

#include <lastro/sdk/text.hpp>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::funds::sample::testing {

struct ParsedCsv {
    std::string header_line;  // raw bytes of the first line
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;

    std::size_t Column(std::string_view name) const {
        for (std::size_t i = 0; i < header.size(); ++i) {
            if (header[i] == name) {
                return i;
            }
        }
        throw std::out_of_range("no column " + std::string(name));
    }
};

inline std::vector<std::string> SplitFields(std::string_view line) {
    std::vector<std::string> fields;
    std::size_t start = 0;
    for (;;) {
        const std::size_t end = line.find(';', start);
        fields.emplace_back(line.substr(start, end == std::string_view::npos ? end : end - start));
        if (end == std::string_view::npos) {
            return fields;
        }
        start = end + 1;
    }
}

inline ParsedCsv ParseLatin1Csv(std::string_view bytes) {
    ParsedCsv csv;
    std::size_t start = 0;
    bool first = true;
    while (start < bytes.size()) {
        std::size_t end = bytes.find('\n', start);
        if (end == std::string_view::npos) {
            end = bytes.size();
        }
        const std::string_view line = bytes.substr(start, end - start);
        if (first) {
            csv.header_line = std::string(line);
            csv.header = SplitFields(line);
            first = false;
        } else {
            csv.rows.push_back(SplitFields(sdk::Latin1ToUtf8(line)));
        }
        start = end + 1;
    }
    return csv;
}

}  // namespace lastro::funds::sample::testing
