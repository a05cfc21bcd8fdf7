// Fixed-width records (B3's COTAHIST and Indic files; docs/ingest-kit.md): every line is one
// record, its type code at a fixed position selects its layout, and each field is a byte range
// of the line as the published layout numbers it (1-based start, length). Text is ISO-8859-1
// (read as windows-1252) or UTF-8 and comes out as UTF-8; a blank field is nullopt, never 0; a
// malformed value is a FieldError naming the file, the line and the field.
#pragma once

#include <lastro/sdk/byte_source.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/ingest/csv.hpp>
#include <lastro/sdk/ingest/values.hpp>

#include <boost/config.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::sdk {

namespace detail {
class LineReader;
}

enum class FieldType {
    kText,     // trimmed of blanks
    kInteger,  // digits, zero-padded on the left ("00042"); an optional leading '-'
    kDecimal,  // digits with `implied_decimals` of them after an implied point: "0000000001424"
               // with 2 is 14.24 (B3's "(11)V99")
    kDate,     // YYYYMMDD
};

struct FixedField {
    std::string name;
    std::size_t start = 0;  // 1-based position of the first byte, as published layouts number it
    std::size_t length = 0;
    FieldType type = FieldType::kText;
    int implied_decimals = 0;  // kDecimal only
    // A value the source writes for "no value" (B3: DATVEN 99991231): read as nullopt.
    std::string none = {};
};

// The fields of one record type.
class BOOST_SYMBOL_VISIBLE RecordLayout {
public:
    // Throws std::invalid_argument for a field that starts at 0, is empty, overlaps another,
    // or has more implied decimals than digits: a layout written wrong.
    RecordLayout(std::string type, std::vector<FixedField> fields);

    const std::string& Type() const { return type_; }
    const std::vector<FixedField>& Fields() const { return fields_; }
    // The bytes a record of this type needs: the end of its last field.
    std::size_t Width() const { return width_; }
    // The field's index; std::invalid_argument for a name the layout lacks (a programming error).
    std::size_t Index(std::string_view name) const;

private:
    std::string type_;
    std::vector<FixedField> fields_;
    std::size_t width_ = 0;
};

class BOOST_SYMBOL_VISIBLE FixedWidthReader {
public:
    // Each record carries its type at [type_start, type_start + type_length) (1-based).
    FixedWidthReader(std::unique_ptr<ByteSource> source, std::size_t type_start, std::size_t type_length,
                     std::vector<RecordLayout> layouts, TextEncoding encoding = TextEncoding::kLatin1);
    ~FixedWidthReader();
    FixedWidthReader(FixedWidthReader&&) noexcept;
    FixedWidthReader& operator=(FixedWidthReader&&) noexcept;

    const std::string& SourceName() const;

    // Advances to the next record; false at the end. Blank lines are skipped. Throws
    // IngestError (file, line) for a record type no layout declares and a record shorter than
    // its layout (a truncated file); bytes that are not text of the encoding are refused when a
    // field holding them is read.
    bool Next();
    std::size_t Line() const { return line_; }
    const std::string& Type() const { return layouts_[current_].Type(); }
    const RecordLayout& Layout() const { return layouts_[current_]; }
    // The layout of `type`; std::invalid_argument when not declared.
    const RecordLayout& LayoutOf(std::string_view type) const;

    // Reads of field `index` of the current record's layout (RecordLayout::Index). Each checks
    // the field's declared type: reading a kText field as a decimal is a programming error
    // (std::logic_error).
    std::string_view Raw(std::size_t index) const;
    std::optional<std::string> Text(std::size_t index) const;
    std::optional<std::int64_t> Integer(std::size_t index) const;
    std::optional<double> Decimal(std::size_t index) const;
    std::optional<Date> DateValue(std::size_t index) const;

private:
    const FixedField& FieldOf(std::size_t index, FieldType type) const;
    // The field's bytes trimmed of blanks; nullopt when blank or equal to the field's `none`.
    std::optional<std::string_view> Value(const FixedField& field) const;
    [[noreturn]] void Fail(const FixedField& field, const std::string& problem, std::string_view value) const;

    std::unique_ptr<detail::LineReader> lines_;
    std::size_t type_start_;
    std::size_t type_length_;
    std::vector<RecordLayout> layouts_;
    TextEncoding encoding_;
    std::size_t current_ = 0;
    std::size_t line_ = 0;
    std::string_view record_;  // the current line, raw bytes
};

}  // namespace lastro::sdk
