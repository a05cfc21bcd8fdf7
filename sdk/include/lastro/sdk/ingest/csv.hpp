// The CSV reader of the ingest kit (docs/ingest-kit.md, docs/cvm-csv.md): a header
// line, then records; one separator (';' or ','), quoting OFF (a '"' is data), LF or CRLF line
// ends, blank lines skipped. Text is ISO-8859-1 (decoded as windows-1252, its WHATWG superset)
// or UTF-8, and comes out as UTF-8. Columns are found by header name, never by position; the
// typed reads of a record turn an empty field into nullopt (never 0) and a malformed value into
// a FieldError naming the file, the line and the column. Streams: memory does not grow with
// the file.
#pragma once

#include <lastro/sdk/byte_source.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/ingest/values.hpp>

#include <boost/config.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::sdk {

namespace detail {
class LineReader;
}

enum class TextEncoding {
    kLatin1,  // ISO-8859-1 as published (CVM, B3), read as windows-1252; UTF-8 input is refused
    kUtf8,    // UTF-8; a byte order mark before the header is dropped
};

struct CsvFormat {
    TextEncoding encoding = TextEncoding::kLatin1;
    char separator = ';';
    char decimal_point = '.';                   // of Decimal()
    DateFormat date_format = DateFormat::kIso;  // of DateValue()

    // CVM's open data: ISO-8859-1, ';', decimal point '.', dates YYYY-MM-DD.
    static CsvFormat Cvm() { return {}; }
};

class BOOST_SYMBOL_VISIBLE CsvReader {
public:
    // Reads the header line. Throws IngestError (file, line 1) for an empty file, a header that
    // is not separated by the format's separator, or bytes that are not text of its encoding.
    CsvReader(std::unique_ptr<ByteSource> source, CsvFormat format);
    ~CsvReader();
    CsvReader(CsvReader&&) noexcept;
    CsvReader& operator=(CsvReader&&) noexcept;

    const std::string& SourceName() const;
    const CsvFormat& Format() const { return format_; }

    // ---- the header ----
    const std::vector<std::string>& Header() const { return header_; }
    std::optional<std::size_t> Find(std::string_view column) const;
    // The column's index; throws IngestError "missing column X" (line 1) when absent.
    std::size_t Require(std::string_view column) const;
    // The first of `columns` the header has (a column renamed between layouts):
    // IngestError "missing column A (or B)" when it has none.
    std::optional<std::size_t> FindAny(std::initializer_list<std::string_view> columns) const;
    std::size_t RequireAny(std::initializer_list<std::string_view> columns) const;
    // A layout fixed to the letter: IngestError (line 1) "the header must be exactly: A;B;C"
    // unless the header is `columns`, in that order.
    void RequireHeader(std::span<const std::string_view> columns) const;

    // ---- records ----
    // Advances to the next record; false at the end of the file. Blank lines carry no record
    // and are skipped (line numbers still count them). Throws IngestError on bytes that are not
    // text of the encoding, and on a last line cut short (no line end and fewer fields than the
    // header), which means a truncated file.
    bool Next();
    // 1-based line number of the current record in the file.
    std::size_t Line() const { return line_; }
    std::size_t FieldCount() const { return fields_.size(); }
    // "expected 21 fields, found 7" when the record has another field count than the header.
    std::optional<std::string> FieldCountProblem() const;
    // Throws IngestError (file, line) with FieldCountProblem().
    void RequireFieldCount() const;

    // UTF-8 text of field `index` of the current record, as published; empty when out of range.
    std::string_view Field(std::size_t index) const;
    // nullopt for an empty field (a missing value), otherwise the text as published.
    std::optional<std::string_view> Optional(std::size_t index) const;

    // ---- typed reads of the current record: blanks around a value are not part of it, and a
    // blank field is nullopt. Errors are FieldError "COLUMN is not <what>: 'value'". ----
    std::optional<std::string> Text(std::size_t column) const;
    // FieldError "COLUMN is empty" for a blank field.
    std::string RequiredText(std::size_t column) const;
    std::optional<double> Decimal(std::size_t column, Sign sign = Sign::kAny,
                                  std::string_view what = "a number") const;
    std::optional<std::int64_t> Integer(std::size_t column, Sign sign = Sign::kAny,
                                        std::string_view what = "an integer") const;
    // In the format's date_format; "is not a YYYY-MM-DD date".
    std::optional<Date> DateValue(std::size_t column) const;
    // The same date as "YYYY-MM-DD", the form the model stores.
    std::optional<std::string> IsoDate(std::size_t column) const;
    // 14 digits; "is not a valid CNPJ" (bare or masked CNPJs are accepted).
    std::optional<std::string> Cnpj(std::size_t column) const;
    // DocumentOrText of the field.
    std::optional<std::string> Document(std::size_t column) const;
    // A FieldError naming the current line and `column`: "COLUMN <problem>[: 'value']".
    [[noreturn]] void Fail(std::size_t column, std::string problem,
                           std::optional<std::string_view> value = std::nullopt) const;

private:
    void Split(std::string_view text);
    // The UTF-8 text of `raw`: a view into utf8_ (Latin-1, decoded) or `raw` itself (UTF-8,
    // checked). Throws IngestError on bytes that are not text.
    std::string_view Decode(std::string_view raw);
    [[noreturn]] void FailAt(std::size_t line, const std::string& message) const;

    std::unique_ptr<detail::LineReader> lines_;
    CsvFormat format_;
    std::size_t line_ = 0;
    std::vector<std::string> header_;
    std::string utf8_;
    std::vector<std::string_view> fields_;
};

// The fields of `line` split at `separator` (quoting off), as CsvReader splits a record: for
// lines an ingester stored and reads again.
BOOST_SYMBOL_VISIBLE void SplitFields(std::string_view line, char separator,
                                      std::vector<std::string_view>& fields);

}  // namespace lastro::sdk
