// Internal: the lines of a byte source, read in fixed chunks (memory does not grow with the
// file), for the CSV and fixed-width readers. A line is returned without its LF or CRLF.
#pragma once

#include <lastro/sdk/byte_source.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::sdk::detail {

class LineReader {
public:
    // `what` names the layout in the message about an overlong line ("a CVM CSV file").
    LineReader(std::unique_ptr<ByteSource> source, std::string what);

    const std::string& Name() const { return source_->Name(); }
    // The next line; false at the end of the source. The view lives until the next call.
    // Throws IngestError (naming the line) for a line longer than 16 MiB: a binary file.
    bool Next(std::string_view& line);
    // 1-based number of the line Next() returned last.
    std::size_t Line() const { return line_; }
    // False when the last line returned had no line end: a file cut short, when its content
    // says it is incomplete.
    bool Terminated() const { return terminated_; }

private:
    std::unique_ptr<ByteSource> source_;
    std::string what_;
    std::vector<char> buffer_;
    std::size_t buffer_pos_ = 0;
    std::size_t buffer_end_ = 0;
    bool eof_ = false;
    bool terminated_ = true;
    std::size_t line_ = 0;
    std::string spanning_;  // a line that spans chunks
};

}  // namespace lastro::sdk::detail
