// One CVM open-data CSV in memory: ';' separated, no quoting, LF line ends, a header line of
// column names. Fields are UTF-8 here; the table converts to ISO-8859-1 when rendered.
#pragma once

#include <lastro/sdk/calendar.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::sample {

class CsvTable {
public:
    explicit CsvTable(std::span<const std::string_view> columns);

    // Throws std::logic_error when the field count differs from the header's or a field holds
    // ';' or a line break: the format has no escaping, so such a row could not be read back.
    void AddRow(const std::vector<std::string>& fields);
    std::size_t RowCount() const { return rows_; }
    // The file's bytes in ISO-8859-1.
    const std::string& ToLatin1() const { return latin1_; }
    // The file's bytes in UTF-8 (for our own layouts; CVM's files are Latin-1).
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

// One member of a zip archive (or one plain file): its name and its bytes.
struct ArchiveMember {
    std::string name;
    std::string bytes;
};

// Field renderings shared by every CVM file: an absent value is an empty field.
std::string DateField(const std::optional<sdk::Date>& date);       // YYYY-MM-DD
std::string CentsField(const std::optional<std::int64_t>& cents);  // 20471867.51
std::string FlagField(const std::optional<bool>& flag);            // S / N
std::string IntegerField(std::int64_t value);

}  // namespace lastro::sample
