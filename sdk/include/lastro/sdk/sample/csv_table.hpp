// One open-data CSV file in memory as Brazilian publishers write them (CVM among them): ';'
// separated, no quoting, LF line ends, a header line of column names. Fields are UTF-8 here;
// the table also renders ISO-8859-1.
#pragma once

#include <lastro/sdk/calendar.hpp>

#include <boost/config.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::sdk::sample {

class BOOST_SYMBOL_VISIBLE CsvTable {
public:
    explicit CsvTable(std::span<const std::string_view> columns);

    // Throws std::logic_error when the field count differs from the header's or a field holds
    // ';' or a line break: the format has no escaping, so such a row could not be read back.
    void AddRow(const std::vector<std::string>& fields);
    std::size_t RowCount() const { return rows_; }
    // The file's bytes in ISO-8859-1.
    const std::string& ToLatin1() const { return latin1_; }
    // The file's bytes in UTF-8 (for layouts published in UTF-8).
    const std::string& Utf8() const { return utf8_; }

private:
    void Append(std::string_view utf8);  // one field, checked
    void Separate(char separator);

    std::size_t column_count_;
    std::string utf8_;
    // Kept alongside, field by field: most fields are ASCII and are copied as they are.
    std::string latin1_;
    std::size_t rows_ = 0;
};

// Field renderings of such files: an absent value is an empty field.
BOOST_SYMBOL_VISIBLE std::string DateField(const std::optional<Date>& date);            // YYYY-MM-DD
BOOST_SYMBOL_VISIBLE std::string CentsField(const std::optional<std::int64_t>& cents);  // 20471867.51
BOOST_SYMBOL_VISIBLE std::string FlagField(const std::optional<bool>& flag);            // S / N
BOOST_SYMBOL_VISIBLE std::string IntegerField(std::int64_t value);

}  // namespace lastro::sdk::sample
