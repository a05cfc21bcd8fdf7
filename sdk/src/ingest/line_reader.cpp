#include "line_reader.hpp"

#include <lastro/sdk/problem.hpp>

#include <cstring>
#include <stdexcept>

namespace lastro::sdk::detail {

namespace {

constexpr std::size_t kChunkBytes = 64 * 1024;
// Data lines are a few KiB at most; a longer "line" is a binary file, and the cap keeps memory
// bounded whatever the input.
constexpr std::size_t kMaxLineBytes = 16 * 1024 * 1024;

}  // namespace

LineReader::LineReader(std::unique_ptr<ByteSource> source, std::string what)
    : source_(std::move(source)), what_(std::move(what)), buffer_(kChunkBytes) {
    if (!source_) {
        throw std::invalid_argument("a reader needs a byte source");
    }
}

bool LineReader::Next(std::string_view& line) {
    bool spans_chunks = false;
    spanning_.clear();
    for (;;) {
        if (buffer_pos_ < buffer_end_) {
            const char* start = buffer_.data() + buffer_pos_;
            const std::size_t available = buffer_end_ - buffer_pos_;
            if (const void* newline = std::memchr(start, '\n', available)) {
                const auto length = static_cast<std::size_t>(static_cast<const char*>(newline) - start);
                buffer_pos_ += length + 1;
                terminated_ = true;
                if (spans_chunks) {
                    spanning_.append(start, length);
                    line = spanning_;
                } else {
                    line = {start, length};  // the common case: no copy
                }
                break;
            }
            spanning_.append(start, available);
            spans_chunks = true;
            buffer_pos_ = buffer_end_;
            if (spanning_.size() > kMaxLineBytes) {
                throw IngestError(Name(), line_ + 1, "line longer than 16 MiB; not " + what_);
            }
        }
        if (eof_) {
            if (!spans_chunks) {
                return false;
            }
            terminated_ = false;
            line = spanning_;
            break;
        }
        buffer_pos_ = 0;
        buffer_end_ = source_->Read(buffer_.data(), buffer_.size());
        eof_ = buffer_end_ == 0;
    }
    ++line_;
    if (!line.empty() && line.back() == '\r') {
        line.remove_suffix(1);
    }
    return true;
}

}  // namespace lastro::sdk::detail
