#include <lastro/sdk/cvm_csv.hpp>

#include <lastro/sdk/problem.hpp>

#include "windows_1252.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace lastro::sdk {

namespace {

constexpr std::size_t kChunkBytes = 64 * 1024;
// CVM lines are a few KiB at most; a longer "line" is a binary file, and the cap keeps memory
// bounded whatever the input.
constexpr std::size_t kMaxLineBytes = 16 * 1024 * 1024;
constexpr char kLooksUtf8[] = "the file looks UTF-8 encoded; CVM files are ISO-8859-1";

constexpr std::uint64_t kBytesOf01 = 0x0101010101010101ULL;
constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;

// True when all eight bytes of `word` are printable ASCII (0x20..0x7F), the common case.
bool AllPrintableAscii(std::uint64_t word) {
    const std::uint64_t has_below_space = (word - kBytesOf01 * 0x20) & ~word & kHighBits;
    return ((word & kHighBits) | has_below_space) == 0;
}

bool IsForbiddenControl(unsigned char byte) {
    return byte < 0x20 && byte != '\t' && byte != '\n' && byte != '\r';
}

}  // namespace

CvmCsvReader::CvmCsvReader(std::unique_ptr<ByteSource> source)
    : source_(std::move(source)), buffer_(kChunkBytes) {
    if (!source_) {
        throw std::invalid_argument("CvmCsvReader needs a byte source");
    }
    std::string_view raw;
    if (!ReadLine(raw)) {
        Fail(1, "empty file, no header");
    }
    line_ = 1;
    if (raw.starts_with("\xEF\xBB\xBF")) {
        Fail(1, kLooksUtf8);  // a UTF-8 byte order mark
    }
    const std::size_t size = Decode(raw);  // before taking utf8_.data(): Decode may grow it
    Split({utf8_.data(), size});
    if (fields_.size() < 2) {
        Fail(1, "header is not ';' separated");
    }
    header_.assign(fields_.begin(), fields_.end());
    fields_.clear();
}

const std::string& CvmCsvReader::SourceName() const {
    return source_->Name();
}

std::optional<std::size_t> CvmCsvReader::Find(std::string_view column) const {
    for (std::size_t i = 0; i < header_.size(); ++i) {
        if (header_[i] == column) {
            return i;
        }
    }
    return std::nullopt;
}

std::size_t CvmCsvReader::Require(std::string_view column) const {
    auto index = Find(column);
    if (!index) {
        Fail(1, "missing column " + std::string(column));
    }
    return *index;
}

bool CvmCsvReader::Next() {
    std::string_view raw;
    do {
        if (!ReadLine(raw)) {
            fields_.clear();
            return false;
        }
        ++line_;
    } while (raw.empty());
    const std::size_t size = Decode(raw);  // before taking utf8_.data(): Decode may grow it
    Split({utf8_.data(), size});
    if (!last_line_terminated_ && fields_.size() < header_.size()) {
        Fail(line_, "truncated file: last line has " + std::to_string(fields_.size()) + " of " +
                        std::to_string(header_.size()) + " fields");
    }
    return true;
}

std::string_view CvmCsvReader::Field(std::size_t index) const {
    return index < fields_.size() ? fields_[index] : std::string_view();
}

std::optional<std::string_view> CvmCsvReader::Optional(std::size_t index) const {
    std::string_view field = Field(index);
    if (field.empty()) {
        return std::nullopt;
    }
    return field;
}

bool CvmCsvReader::ReadLine(std::string_view& line) {
    bool spans_chunks = false;
    raw_.clear();
    for (;;) {
        if (buffer_pos_ < buffer_end_) {
            const char* start = buffer_.data() + buffer_pos_;
            const std::size_t available = buffer_end_ - buffer_pos_;
            if (const void* newline = std::memchr(start, '\n', available)) {
                const auto length = static_cast<std::size_t>(static_cast<const char*>(newline) - start);
                buffer_pos_ += length + 1;
                last_line_terminated_ = true;
                if (spans_chunks) {
                    raw_.append(start, length);
                    line = raw_;
                } else {
                    line = {start, length};  // the common case: no copy
                }
                break;
            }
            raw_.append(start, available);
            spans_chunks = true;
            buffer_pos_ = buffer_end_;
            if (raw_.size() > kMaxLineBytes) {
                Fail(line_ + 1, "line longer than 16 MiB; not a CVM CSV file");
            }
        }
        if (eof_) {
            if (!spans_chunks) {
                return false;
            }
            last_line_terminated_ = false;
            line = raw_;
            break;
        }
        buffer_pos_ = 0;
        buffer_end_ = source_->Read(buffer_.data(), buffer_.size());
        eof_ = buffer_end_ == 0;
    }
    if (!line.empty() && line.back() == '\r') {
        line.remove_suffix(1);
    }
    return true;
}

void CvmCsvReader::Split(std::string_view utf8) {
    fields_.clear();
    const char* field = utf8.data();
    const char* end = field + utf8.size();
    for (;;) {
        const auto* separator = static_cast<const char*>(std::memchr(field, ';', end - field));
        if (separator == nullptr) {
            fields_.emplace_back(field, end - field);
            return;
        }
        fields_.emplace_back(field, separator - field);
        field = separator + 1;
    }
}

std::size_t CvmCsvReader::Decode(std::string_view raw) {
    // Each byte becomes at most three UTF-8 bytes (the windows-1252 characters above U+07FF).
    if (utf8_.size() < raw.size() * 3) {
        utf8_.resize(raw.size() * 3);
    }
    char* out = utf8_.data();
    const auto* in = reinterpret_cast<const unsigned char*>(raw.data());
    const auto* end = in + raw.size();
    while (in < end) {
        if (end - in >= 8) {
            std::uint64_t word;
            std::memcpy(&word, in, sizeof word);
            if (AllPrintableAscii(word)) {
                std::memcpy(out, in, sizeof word);
                in += sizeof word;
                out += sizeof word;
                continue;
            }
        }
        const unsigned char byte = *in++;
        char32_t code_point = byte;
        if (byte < 0x80) {
            if (IsForbiddenControl(byte)) {
                char message[64];
                std::snprintf(message, sizeof message, "byte 0x%02X is not ISO-8859-1 text", byte);
                Fail(line_, message);
            }
            *out++ = static_cast<char>(byte);
            continue;
        }
        if (byte < 0xA0) {
            code_point = detail::kWindows1252High[byte - 0x80];
            if (code_point == 0) {
                char message[64];
                std::snprintf(message, sizeof message, "byte 0x%02X is not ISO-8859-1 text", byte);
                Fail(line_, message);
            }
        } else if (byte == 0xC3 && in < end && (*in & 0xC0) == 0x80) {
            // "Ã" then a byte of 0x80..0xBF is how UTF-8 writes à..ÿ: Portuguese text in UTF-8.
            Fail(line_, kLooksUtf8);
        }
        if (code_point < 0x800) {
            *out++ = static_cast<char>(0xC0 | (code_point >> 6));
            *out++ = static_cast<char>(0x80 | (code_point & 0x3F));
        } else {
            *out++ = static_cast<char>(0xE0 | (code_point >> 12));
            *out++ = static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
            *out++ = static_cast<char>(0x80 | (code_point & 0x3F));
        }
    }
    return static_cast<std::size_t>(out - utf8_.data());
}

void CvmCsvReader::Fail(std::size_t line, const std::string& message) const {
    throw IngestError(source_->Name(), line, message);
}

}  // namespace lastro::sdk
