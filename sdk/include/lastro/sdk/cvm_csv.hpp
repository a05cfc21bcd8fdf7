// Reader for CVM open-data CSV files (docs/datasets/cvm-csv.md): ISO-8859-1 (decoded as
// windows-1252, its WHATWG superset) converted to UTF-8, ';' separated, quoting OFF (a '"' is
// data), a header line, LF or CRLF line ends, empty field = missing value. Columns are found
// by header name, never by position. Streams: memory does not grow with the file.
#pragma once

#include <lastro/sdk/byte_source.hpp>

#include <boost/config.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::sdk {

class BOOST_SYMBOL_VISIBLE CvmCsvReader {
public:
    // Reads the header line. Throws IngestError (file, line 1) for an empty file, a header
    // that is not ';' separated text, or bytes that are not ISO-8859-1 text (UTF-8 input,
    // NUL or other control bytes).
    explicit CvmCsvReader(std::unique_ptr<ByteSource> source);

    const std::string& SourceName() const;
    const std::vector<std::string>& Header() const { return header_; }
    std::optional<std::size_t> Find(std::string_view column) const;
    // The column's index; throws IngestError "missing column X" (line 1) when absent.
    std::size_t Require(std::string_view column) const;

    // Advances to the next data line; false at the end of the file. Blank lines carry no record
    // and are skipped (line numbers still count them). Throws IngestError on bytes that are not
    // ISO-8859-1 text, and on a last line cut short (no line end and fewer fields than the
    // header), which means a truncated file.
    bool Next();
    // 1-based line number of the current record in the file.
    std::size_t Line() const { return line_; }
    std::size_t FieldCount() const { return fields_.size(); }
    // UTF-8 text of field `index` of the current record; empty when out of range.
    std::string_view Field(std::size_t index) const;
    // nullopt for an empty field (a missing value), otherwise the text.
    std::optional<std::string_view> Optional(std::size_t index) const;

private:
    // The next line without its line end; false at the end of the file. The view points into
    // buffer_ (or raw_ for a line that spans chunks) and lives until the next call.
    bool ReadLine(std::string_view& line);
    void Split(std::string_view utf8);
    // Decodes `raw` into utf8_ (which only grows, so no allocation per line) and returns the
    // length of the UTF-8 text; throws IngestError on bytes that are not text.
    std::size_t Decode(std::string_view raw);
    [[noreturn]] void Fail(std::size_t line, const std::string& message) const;

    std::unique_ptr<ByteSource> source_;
    std::vector<char> buffer_;
    std::size_t buffer_pos_ = 0;
    std::size_t buffer_end_ = 0;
    bool eof_ = false;
    bool last_line_terminated_ = true;
    std::size_t line_ = 0;
    std::vector<std::string> header_;
    std::string raw_;
    std::string utf8_;
    std::vector<std::string_view> fields_;
};

}  // namespace lastro::sdk
