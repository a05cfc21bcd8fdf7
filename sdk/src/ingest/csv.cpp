#include <lastro/sdk/ingest/csv.hpp>

#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/problem.hpp>

#include "line_reader.hpp"
#include "text_decoding.hpp"

#include <cstring>

namespace lastro::sdk {

namespace {

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

}  // namespace

void SplitFields(std::string_view line, char separator, std::vector<std::string_view>& fields) {
    fields.clear();
    const char* field = line.data();
    const char* end = field + line.size();
    for (;;) {
        const auto* found =
            static_cast<const char*>(std::memchr(field, separator, static_cast<std::size_t>(end - field)));
        if (found == nullptr) {
            fields.emplace_back(field, static_cast<std::size_t>(end - field));
            return;
        }
        fields.emplace_back(field, static_cast<std::size_t>(found - field));
        field = found + 1;
    }
}

CsvReader::CsvReader(std::unique_ptr<ByteSource> source, CsvFormat format)
    : lines_(std::make_unique<detail::LineReader>(
          std::move(source), format.encoding == TextEncoding::kLatin1 ? "a CVM CSV file" : "a CSV file")),
      format_(format) {
    std::string_view raw;
    if (!lines_->Next(raw)) {
        FailAt(1, "empty file, no header");
    }
    line_ = 1;
    if (raw.starts_with(kByteOrderMark)) {
        if (format_.encoding == TextEncoding::kLatin1) {
            FailAt(1, detail::kLooksUtf8);
        }
        raw.remove_prefix(kByteOrderMark.size());
    }
    Split(Decode(raw));
    if (fields_.size() < 2) {
        FailAt(1, "header is not '" + std::string(1, format_.separator) + "' separated");
    }
    header_.assign(fields_.begin(), fields_.end());
    fields_.clear();
}

CsvReader::~CsvReader() = default;
CsvReader::CsvReader(CsvReader&&) noexcept = default;
CsvReader& CsvReader::operator=(CsvReader&&) noexcept = default;

const std::string& CsvReader::SourceName() const {
    return lines_->Name();
}

std::optional<std::size_t> CsvReader::Find(std::string_view column) const {
    for (std::size_t i = 0; i < header_.size(); ++i) {
        if (header_[i] == column) {
            return i;
        }
    }
    return std::nullopt;
}

std::size_t CsvReader::Require(std::string_view column) const {
    auto index = Find(column);
    if (!index) {
        FailAt(1, "missing column " + std::string(column));
    }
    return *index;
}

std::optional<std::size_t> CsvReader::FindAny(std::initializer_list<std::string_view> columns) const {
    for (std::string_view column : columns) {
        if (auto index = Find(column)) {
            return index;
        }
    }
    return std::nullopt;
}

std::size_t CsvReader::RequireAny(std::initializer_list<std::string_view> columns) const {
    if (auto index = FindAny(columns)) {
        return *index;
    }
    std::string message = "missing column " + std::string(*columns.begin());
    if (columns.size() > 1) {
        message += " (or " + std::string(*(columns.begin() + 1)) + ")";
    }
    FailAt(1, message);
}

void CsvReader::RequireHeader(std::span<const std::string_view> columns) const {
    bool same = header_.size() == columns.size();
    for (std::size_t i = 0; same && i < columns.size(); ++i) {
        same = header_[i] == columns[i];
    }
    if (!same) {
        std::string expected;
        for (std::string_view column : columns) {
            expected += (expected.empty() ? "" : std::string(1, format_.separator)) + std::string(column);
        }
        FailAt(1, "the header must be exactly: " + expected);
    }
}

bool CsvReader::Next() {
    std::string_view raw;
    do {
        if (!lines_->Next(raw)) {
            fields_.clear();
            return false;
        }
        line_ = lines_->Line();
    } while (raw.empty());
    Split(Decode(raw));
    if (!lines_->Terminated() && fields_.size() < header_.size()) {
        FailAt(line_, "truncated file: last line has " + std::to_string(fields_.size()) + " of " +
                          std::to_string(header_.size()) + " fields");
    }
    return true;
}

std::optional<std::string> CsvReader::FieldCountProblem() const {
    if (fields_.size() == header_.size()) {
        return std::nullopt;
    }
    return "expected " + std::to_string(header_.size()) + " fields, found " + std::to_string(fields_.size());
}

void CsvReader::RequireFieldCount() const {
    if (auto problem = FieldCountProblem()) {
        FailAt(line_, *problem);
    }
}

std::string_view CsvReader::Field(std::size_t index) const {
    return index < fields_.size() ? fields_[index] : std::string_view();
}

std::optional<std::string_view> CsvReader::Optional(std::size_t index) const {
    std::string_view field = Field(index);
    if (field.empty()) {
        return std::nullopt;
    }
    return field;
}

std::optional<std::string> CsvReader::Text(std::size_t column) const {
    const std::string_view text = TrimBlanks(Field(column));
    if (text.empty()) {
        return std::nullopt;
    }
    return std::string(text);
}

std::string CsvReader::RequiredText(std::size_t column) const {
    auto text = Text(column);
    if (!text) {
        Fail(column, "is empty");
    }
    return std::move(*text);
}

std::optional<double> CsvReader::Decimal(std::size_t column, Sign sign, std::string_view what) const {
    const Parsed<double> parsed = ParseDecimal(Field(column), {format_.decimal_point, sign});
    if (parsed.status == ValueStatus::kInvalid) {
        Fail(column, "is not " + std::string(what), TrimBlanks(Field(column)));
    }
    return parsed.status == ValueStatus::kValue ? std::optional(parsed.value) : std::nullopt;
}

std::optional<std::int64_t> CsvReader::Integer(std::size_t column, Sign sign, std::string_view what) const {
    const Parsed<std::int64_t> parsed = ParseInteger(Field(column), sign);
    if (parsed.status == ValueStatus::kInvalid) {
        Fail(column, "is not " + std::string(what), TrimBlanks(Field(column)));
    }
    return parsed.status == ValueStatus::kValue ? std::optional(parsed.value) : std::nullopt;
}

std::optional<Date> CsvReader::DateValue(std::size_t column) const {
    const Parsed<Date> parsed = ParseDate(Field(column), format_.date_format);
    if (parsed.status == ValueStatus::kInvalid) {
        Fail(column, "is not " + std::string(DateFormatName(format_.date_format)), TrimBlanks(Field(column)));
    }
    return parsed.status == ValueStatus::kValue ? std::optional(parsed.value) : std::nullopt;
}

std::optional<std::string> CsvReader::IsoDate(std::size_t column) const {
    auto date = DateValue(column);
    return date ? std::optional(date->ToString()) : std::nullopt;
}

std::optional<std::string> CsvReader::Cnpj(std::size_t column) const {
    const std::string_view text = TrimBlanks(Field(column));
    if (text.empty()) {
        return std::nullopt;
    }
    auto parsed = ParseCnpj(text);
    if (!parsed.digits) {
        Fail(column, "is not a valid CNPJ", text);
    }
    return std::move(parsed.digits);
}

std::optional<std::string> CsvReader::Document(std::size_t column) const {
    return DocumentOrText(Field(column));
}

void CsvReader::Fail(std::size_t column, std::string problem, std::optional<std::string_view> value) const {
    const std::string name =
        column < header_.size() ? header_[column] : "column " + std::to_string(column + 1);
    throw FieldError(SourceName(), line_, name, std::move(problem), value);
}

void CsvReader::Split(std::string_view text) {
    SplitFields(text, format_.separator, fields_);
}

std::string_view CsvReader::Decode(std::string_view raw) {
    if (format_.encoding == TextEncoding::kUtf8) {
        if (auto problem = detail::Utf8Problem(raw)) {
            FailAt(line_, *problem);
        }
        return raw;
    }
    std::string problem;
    const std::optional<std::size_t> size = detail::DecodeLatin1(raw, utf8_, problem);
    if (!size) {
        FailAt(line_, problem);
    }
    return {utf8_.data(), *size};
}

void CsvReader::FailAt(std::size_t line, const std::string& message) const {
    throw IngestError(SourceName(), line, message);
}

}  // namespace lastro::sdk
