#include "ingest/anbima_csv_reader.hpp"

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/text.hpp>

#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace lastro::funds {

namespace {

constexpr std::size_t kChunkBytes = 64 * 1024;
// Lines of this layout are a few hundred bytes; the cap keeps memory bounded on a wrong file.
constexpr std::size_t kMaxLineBytes = 1024 * 1024;
constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

}  // namespace

AnbimaCsvReader::AnbimaCsvReader(std::unique_ptr<sdk::ByteSource> source)
    : source_(std::move(source)), chunk_(kChunkBytes) {
    if (!source_) {
        throw std::invalid_argument("AnbimaCsvReader needs a byte source");
    }
    if (!ReadLine()) {
        throw sdk::IngestError(SourceName(), 1, "empty file, no header");
    }
    if (std::string_view(text_).starts_with(kByteOrderMark)) {
        text_.erase(0, kByteOrderMark.size());
    }
    Check(text_);
    header_ = text_;
}

bool AnbimaCsvReader::Next() {
    do {
        if (!ReadLine()) {
            fields_.clear();
            return false;
        }
    } while (text_.empty());
    Check(text_);
    fields_.clear();
    std::string_view rest = text_;
    for (;;) {
        const std::size_t separator = rest.find(';');
        fields_.push_back(rest.substr(0, separator));
        if (separator == std::string_view::npos) {
            break;
        }
        rest.remove_prefix(separator + 1);
    }
    return true;
}

bool AnbimaCsvReader::ReadLine() {
    text_.clear();
    bool any = false;
    for (;;) {
        if (chunk_pos_ < chunk_end_) {
            any = true;
            const char* start = chunk_.data() + chunk_pos_;
            const std::size_t available = chunk_end_ - chunk_pos_;
            if (const void* newline = std::memchr(start, '\n', available)) {
                const auto length = static_cast<std::size_t>(static_cast<const char*>(newline) - start);
                text_.append(start, length);
                chunk_pos_ += length + 1;
                break;
            }
            text_.append(start, available);
            chunk_pos_ = chunk_end_;
            if (text_.size() > kMaxLineBytes) {
                throw sdk::IngestError(SourceName(), line_ + 1, "line longer than 1 MiB; not this layout");
            }
        }
        if (eof_) {
            if (!any) {
                return false;
            }
            break;  // a last line without a line end
        }
        chunk_pos_ = 0;
        chunk_end_ = source_->Read(chunk_.data(), chunk_.size());
        eof_ = chunk_end_ == 0;
    }
    ++line_;
    if (!text_.empty() && text_.back() == '\r') {
        text_.pop_back();
    }
    return true;
}

void AnbimaCsvReader::Check(std::string_view text) const {
    if (!sdk::IsValidUtf8(text)) {
        throw sdk::IngestError(SourceName(), line_, "not UTF-8 text (this layout is UTF-8, not ISO-8859-1)");
    }
    for (unsigned char c : text) {
        if (c < 0x20 && c != '\t') {
            char message[64];
            std::snprintf(message, sizeof message, "control byte 0x%02X", c);
            throw sdk::IngestError(SourceName(), line_, message);
        }
    }
}

}  // namespace lastro::funds
