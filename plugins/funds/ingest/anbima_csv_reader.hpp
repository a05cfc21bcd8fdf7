// Reader of Lastro's ANBIMA interchange layout (docs/datasets/anbima_subclasses.md): UTF-8
// (CvmCsvReader decodes windows-1252, so it cannot read it), ';' separated, no quoting, LF or
// CRLF line ends, a header line. Streams in fixed chunks; a line that is not UTF-8 text fails
// with the file and the line.
#pragma once

#include <lastro/sdk/byte_source.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::funds {

class AnbimaCsvReader {
public:
    // Reads the header line (a UTF-8 byte order mark before it is dropped). IngestError(file, 1)
    // for an empty file or a header that is not UTF-8 text.
    explicit AnbimaCsvReader(std::unique_ptr<sdk::ByteSource> source);

    const std::string& SourceName() const { return source_->Name(); }
    // The header line as written.
    const std::string& HeaderLine() const { return header_; }

    // The next non-blank line, split at ';'; false at the end. IngestError(file, line) for bytes
    // that are not UTF-8 text or are control characters other than a tab.
    bool Next();
    std::size_t Line() const { return line_; }
    const std::vector<std::string_view>& Fields() const { return fields_; }

private:
    bool ReadLine();
    void Check(std::string_view text) const;

    std::unique_ptr<sdk::ByteSource> source_;
    std::vector<char> chunk_;
    std::size_t chunk_pos_ = 0;
    std::size_t chunk_end_ = 0;
    bool eof_ = false;
    std::size_t line_ = 0;
    std::string text_;  // the current line, without its line end
    std::string header_;
    std::vector<std::string_view> fields_;
};

}  // namespace lastro::funds
