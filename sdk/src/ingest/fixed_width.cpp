#include <lastro/sdk/ingest/fixed_width.hpp>

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/text.hpp>

#include "line_reader.hpp"
#include "text_decoding.hpp"

#include <algorithm>
#include <stdexcept>

namespace lastro::sdk {

RecordLayout::RecordLayout(std::string type, std::vector<FixedField> fields)
    : type_(std::move(type)), fields_(std::move(fields)) {
    std::vector<const FixedField*> by_start;
    for (const FixedField& field : fields_) {
        const std::string where = "record " + type_ + " field " + field.name;
        if (field.start == 0 || field.length == 0) {
            throw std::invalid_argument(where + ": start and length count from 1");
        }
        if (field.implied_decimals < 0 || (field.type == FieldType::kDecimal &&
                                           static_cast<std::size_t>(field.implied_decimals) > field.length)) {
            throw std::invalid_argument(where + ": more implied decimals than digits");
        }
        by_start.push_back(&field);
        width_ = std::max(width_, field.start + field.length - 1);
    }
    std::sort(by_start.begin(), by_start.end(), [](auto* a, auto* b) { return a->start < b->start; });
    for (std::size_t i = 1; i < by_start.size(); ++i) {
        if (by_start[i]->start < by_start[i - 1]->start + by_start[i - 1]->length) {
            throw std::invalid_argument("record " + type_ + ": field " + by_start[i]->name + " overlaps " +
                                        by_start[i - 1]->name);
        }
    }
}

std::size_t RecordLayout::Index(std::string_view name) const {
    for (std::size_t i = 0; i < fields_.size(); ++i) {
        if (fields_[i].name == name) {
            return i;
        }
    }
    throw std::invalid_argument("record " + type_ + " has no field " + std::string(name));
}

FixedWidthReader::FixedWidthReader(std::unique_ptr<ByteSource> source, std::size_t type_start,
                                   std::size_t type_length, std::vector<RecordLayout> layouts,
                                   TextEncoding encoding)
    : lines_(std::make_unique<detail::LineReader>(std::move(source), "a fixed-width file")),
      type_start_(type_start),
      type_length_(type_length),
      layouts_(std::move(layouts)),
      encoding_(encoding) {
    if (type_start_ == 0 || type_length_ == 0 || layouts_.empty()) {
        throw std::invalid_argument("a fixed-width reader needs the position of the record type and layouts");
    }
}

FixedWidthReader::~FixedWidthReader() = default;
FixedWidthReader::FixedWidthReader(FixedWidthReader&&) noexcept = default;
FixedWidthReader& FixedWidthReader::operator=(FixedWidthReader&&) noexcept = default;

const std::string& FixedWidthReader::SourceName() const {
    return lines_->Name();
}

const RecordLayout& FixedWidthReader::LayoutOf(std::string_view type) const {
    for (const RecordLayout& layout : layouts_) {
        if (layout.Type() == type) {
            return layout;
        }
    }
    throw std::invalid_argument("no layout of record type " + std::string(type));
}

bool FixedWidthReader::Next() {
    std::string_view line;
    do {
        if (!lines_->Next(line)) {
            record_ = {};
            return false;
        }
        line_ = lines_->Line();
    } while (TrimBlanks(line).empty());
    record_ = line;
    if (record_.size() < type_start_ + type_length_ - 1) {
        throw IngestError(SourceName(), line_,
                          "record of " + std::to_string(record_.size()) +
                              " bytes has no record type at bytes " + std::to_string(type_start_) + "-" +
                              std::to_string(type_start_ + type_length_ - 1));
    }
    const std::string_view type = record_.substr(type_start_ - 1, type_length_);
    const auto found = std::find_if(layouts_.begin(), layouts_.end(),
                                    [type](const RecordLayout& layout) { return layout.Type() == type; });
    if (found == layouts_.end()) {
        throw IngestError(SourceName(), line_, "unknown record type " + Quoted(type));
    }
    current_ = static_cast<std::size_t>(found - layouts_.begin());
    if (record_.size() < found->Width()) {
        throw IngestError(SourceName(), line_,
                          "record " + found->Type() + " has " + std::to_string(record_.size()) +
                              " bytes, its layout needs " + std::to_string(found->Width()) +
                              " (truncated file?)");
    }
    return true;
}

const FixedField& FixedWidthReader::FieldOf(std::size_t index, FieldType type) const {
    const auto& fields = Layout().Fields();
    if (index >= fields.size()) {
        throw std::logic_error("record " + Type() + " has no field #" + std::to_string(index));
    }
    if (fields[index].type != type) {
        throw std::logic_error("field " + fields[index].name + " of record " + Type() +
                               " is not declared with the type it is read as");
    }
    return fields[index];
}

std::string_view FixedWidthReader::Raw(std::size_t index) const {
    const auto& fields = Layout().Fields();
    if (index >= fields.size()) {
        throw std::logic_error("record " + Type() + " has no field #" + std::to_string(index));
    }
    return record_.substr(fields[index].start - 1, fields[index].length);
}

std::optional<std::string_view> FixedWidthReader::Value(const FixedField& field) const {
    const std::string_view value = TrimBlanks(record_.substr(field.start - 1, field.length));
    if (value.empty() || (!field.none.empty() && value == field.none)) {
        return std::nullopt;
    }
    return value;
}

std::optional<std::string> FixedWidthReader::Text(std::size_t index) const {
    const FixedField& field = FieldOf(index, FieldType::kText);
    const auto value = Value(field);
    if (!value) {
        return std::nullopt;
    }
    if (encoding_ == TextEncoding::kUtf8) {
        if (auto problem = detail::Utf8Problem(*value)) {
            throw IngestError(SourceName(), line_, field.name + ": " + *problem);
        }
        return std::string(*value);
    }
    std::string utf8;
    std::string problem;
    const std::optional<std::size_t> size = detail::DecodeLatin1(*value, utf8, problem);
    if (!size) {
        throw IngestError(SourceName(), line_, field.name + ": " + problem);
    }
    utf8.resize(*size);
    return utf8;
}

std::optional<std::int64_t> FixedWidthReader::Integer(std::size_t index) const {
    const FixedField& field = FieldOf(index, FieldType::kInteger);
    const auto value = Value(field);
    if (!value) {
        return std::nullopt;
    }
    const Parsed<std::int64_t> parsed = ParseInteger(*value);
    if (parsed.status != ValueStatus::kValue) {
        Fail(field, "is not an integer", *value);
    }
    return parsed.value;
}

std::optional<double> FixedWidthReader::Decimal(std::size_t index) const {
    const FixedField& field = FieldOf(index, FieldType::kDecimal);
    const auto value = Value(field);
    if (!value) {
        return std::nullopt;
    }
    // The digits with the point put back, converted once: correctly rounded whatever the width.
    const bool negative = value->front() == '-';
    const std::string_view digits = negative ? value->substr(1) : *value;
    if (!AllDigits(digits)) {
        Fail(field,
             "is not a number of " + std::to_string(field.length) + " digits with " +
                 std::to_string(field.implied_decimals) + " implied decimals",
             *value);
    }
    const auto split =
        digits.size() - std::min(digits.size(), static_cast<std::size_t>(field.implied_decimals));
    std::string text = negative ? "-" : "";
    text += split == 0 ? std::string("0") : std::string(digits.substr(0, split));
    if (split < digits.size()) {
        text += '.';
        text += std::string(static_cast<std::size_t>(field.implied_decimals) - (digits.size() - split), '0');
        text += digits.substr(split);
    }
    return ParseDecimal(text).value;
}

std::optional<Date> FixedWidthReader::DateValue(std::size_t index) const {
    const FixedField& field = FieldOf(index, FieldType::kDate);
    const auto value = Value(field);
    if (!value) {
        return std::nullopt;
    }
    const Parsed<Date> parsed = ParseDate(*value, DateFormat::kCompact);
    if (parsed.status != ValueStatus::kValue) {
        Fail(field, "is not " + std::string(DateFormatName(DateFormat::kCompact)), *value);
    }
    return parsed.value;
}

void FixedWidthReader::Fail(const FixedField& field, const std::string& problem,
                            std::string_view value) const {
    // The value is quoted in the message: as UTF-8 whatever the file's encoding (a Latin-1 byte
    // copied as is would make the message, and the summary quoting it, invalid UTF-8).
    const bool utf8 = encoding_ == TextEncoding::kUtf8 && IsValidUtf8(value);
    throw FieldError(SourceName(), line_, field.name, problem,
                     utf8 ? std::string(value) : Latin1ToUtf8(value));
}

}  // namespace lastro::sdk
