#include <lastro/sdk/sample/csv_table.hpp>

#include <lastro/sdk/sample/money.hpp>
#include <lastro/sdk/text.hpp>

#include <stdexcept>

namespace lastro::sdk::sample {

CsvTable::CsvTable(std::span<const std::string_view> columns) : column_count_(columns.size()) {
    for (std::size_t i = 0; i < columns.size(); ++i) {
        if (i > 0) {
            Separate(';');
        }
        Append(columns[i]);
    }
    Separate('\n');
}

void CsvTable::Separate(char separator) {
    utf8_.push_back(separator);
    latin1_.push_back(separator);
}

void CsvTable::Append(std::string_view utf8) {
    bool ascii = true;
    for (const char c : utf8) {
        if (c == ';' || c == '\r' || c == '\n') {
            throw std::logic_error("CSV field cannot hold ';' or a line break: " + std::string(utf8));
        }
        ascii = ascii && static_cast<unsigned char>(c) < 0x80;
    }
    utf8_.append(utf8);
    if (ascii) {
        latin1_.append(utf8);
    } else {
        latin1_.append(Utf8ToLatin1(utf8));
    }
}

void CsvTable::AddRow(const std::vector<std::string>& fields) {
    if (fields.size() != column_count_) {
        throw std::logic_error("CSV row has " + std::to_string(fields.size()) + " fields, the header " +
                               std::to_string(column_count_));
    }
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (i > 0) {
            Separate(';');
        }
        Append(fields[i]);
    }
    Separate('\n');
    ++rows_;
}

std::string DateField(const std::optional<Date>& date) {
    return date ? date->ToString() : std::string();
}

std::string CentsField(const std::optional<std::int64_t>& cents) {
    return Decimal(cents, 2);
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

}  // namespace lastro::sdk::sample
