#include "core/sample/csv_table.hpp"

#include <lastro/sdk/text.hpp>

#include <cstdio>
#include <stdexcept>

namespace lastro::sample {

CsvTable::CsvTable(std::span<const std::string_view> columns) : column_count_(columns.size()) {
    for (std::size_t i = 0; i < columns.size(); ++i) {
        if (i > 0) {
            utf8_.push_back(';');
        }
        utf8_.append(columns[i]);
    }
    utf8_.push_back('\n');
}

void CsvTable::AddRow(const std::vector<std::string>& fields) {
    if (fields.size() != column_count_) {
        throw std::logic_error("CSV row has " + std::to_string(fields.size()) + " fields, the header " +
                               std::to_string(column_count_));
    }
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (fields[i].find_first_of(";\r\n") != std::string::npos) {
            throw std::logic_error("CSV field cannot hold ';' or a line break: " + fields[i]);
        }
        if (i > 0) {
            utf8_.push_back(';');
        }
        utf8_.append(fields[i]);
    }
    utf8_.push_back('\n');
    ++rows_;
}

std::string CsvTable::ToLatin1() const {
    return sdk::Utf8ToLatin1(utf8_);
}

std::string DateField(const std::optional<sdk::Date>& date) {
    return date ? date->ToString() : std::string();
}

std::string CentsField(const std::optional<std::int64_t>& cents) {
    if (!cents) {
        return {};
    }
    const std::int64_t value = *cents < 0 ? -*cents : *cents;
    char text[48];
    std::snprintf(text, sizeof text, "%s%lld.%02lld", *cents < 0 ? "-" : "",
                  static_cast<long long>(value / 100), static_cast<long long>(value % 100));
    return text;
}

std::string FlagField(const std::optional<bool>& flag) {
    if (!flag) {
        return {};
    }
    return *flag ? "S" : "N";
}

std::string IntegerField(std::int64_t value) {
    return std::to_string(value);
}

}  // namespace lastro::sample
