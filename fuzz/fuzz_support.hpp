// Shared by the fuzz targets (fuzz/README.md): the fuzzer's bytes as a ByteSource, and the rule
// every target checks: bad input may only end in the error type the API documents for it. Any
// other exception escaping is a finding too (a user would get an unclear message or a 500), so
// it aborts, which libFuzzer reports as a crash and keeps the input.
#pragma once

#include <lastro/sdk/byte_source.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/text.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <typeinfo>

namespace lastro::fuzz {

// Hands the bytes out in chunks of `chunk`, so line ends fall on the readers' buffer edges.
class MemorySource final : public sdk::ByteSource {
public:
    MemorySource(const std::uint8_t* data, std::size_t size, std::size_t chunk, std::string name)
        : data_(data), size_(size), chunk_(std::max<std::size_t>(chunk, 1)), name_(std::move(name)) {}

    std::size_t Read(char* buffer, std::size_t size) override {
        const std::size_t n = std::min({size, chunk_, size_ - pos_});
        if (n > 0) {
            std::memcpy(buffer, data_ + pos_, n);
        }
        pos_ += n;
        return n;
    }
    const std::string& Name() const override { return name_; }

private:
    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t chunk_;
    std::size_t pos_ = 0;
    std::string name_;
};

[[noreturn]] inline void UnexpectedException(const char* target, const std::exception& e) {
    std::fprintf(stderr, "%s: unexpected exception %s: %s\n", target, typeid(e).name(), e.what());
    std::abort();
}

// Runs `body`; the documented error `Expected` is an answer, anything else aborts.
template <typename Expected, typename Body>
void ExpectOnly(const char* target, Body&& body) {
    try {
        body();
    } catch (const Expected&) {
    } catch (const std::exception& e) {
        UnexpectedException(target, e);
    }
}

[[noreturn]] inline void Broken(const char* target, std::size_t line, const std::string& what) {
    std::fprintf(stderr, "%s: line %zu: %s\n", target, line, what.c_str());
    std::abort();
}

// A reader's optional text field: absent, or non-empty UTF-8 (a blank cell is absent).
inline void ExpectText(const char* target, std::size_t line, const std::optional<std::string>& text,
                       const char* what) {
    if (text && (text->empty() || !sdk::IsValidUtf8(*text))) {
        Broken(target, line, std::string(what) + " is empty or not UTF-8");
    }
}

// A reader's optional date field: absent, or a real day written YYYY-MM-DD.
inline void ExpectIsoDate(const char* target, std::size_t line, const std::optional<std::string>& date,
                          const char* what) {
    const std::optional<sdk::Date> day = date ? sdk::Date::Parse(*date) : std::nullopt;
    if (date && (!day || day->ToString() != *date)) {
        Broken(target, line, std::string(what) + " is not a real YYYY-MM-DD day: '" + *date + "'");
    }
}

// Lines of the file: a last line without newline counts.
inline std::size_t LineCount(std::string_view bytes) {
    const auto newlines = static_cast<std::size_t>(std::count(bytes.begin(), bytes.end(), '\n'));
    return bytes.empty() || bytes.back() == '\n' ? newlines : newlines + 1;
}

// The rule of every streaming reader of a plugin's files (a Reader built on a ByteSource, whose
// Next(record, problem) gives kRow, kRejected or kEnd and sets record.line): the input, named
// `name` and handed out in chunks of a size its length picks, must end as records whose lines
// are inside the file and ascending, each a row `row(reader, record)` accepts or a rejection
// `rejected(record, problem)` accepts, and nothing after the end; only an IngestError naming the
// file and a line of it may be thrown instead.
template <typename Reader, typename Record, typename Row, typename Rejected>
void ReadEveryRecord(const char* target, const char* name, const std::uint8_t* data, std::size_t size,
                     Row&& row, Rejected&& rejected) {
    const std::size_t lines =
        std::max<std::size_t>(LineCount({reinterpret_cast<const char*>(data), size}), 1);
    static constexpr std::array<std::size_t, 4> kChunks{1 << 16, 5, 4096, 1 << 16};
    const std::size_t chunk = kChunks[size % kChunks.size()];
    try {
        Reader reader(std::make_unique<MemorySource>(data, size, chunk, name));
        Record record;
        std::string problem;
        std::size_t last_line = 1;  // the header's
        for (;;) {
            const auto outcome = reader.Next(record, problem);
            if (outcome == decltype(outcome)::kEnd) {
                break;
            }
            if (record.line <= last_line || record.line > lines) {
                Broken(target, record.line,
                       "record out of order or outside the file's " + std::to_string(lines) + " lines");
            }
            last_line = record.line;
            if (outcome == decltype(outcome)::kRow) {
                row(reader, record);
            } else {
                rejected(record, problem);
            }
        }
        if (reader.Next(record, problem) != decltype(reader.Next(record, problem))::kEnd) {
            Broken(target, last_line, "a record after the end");
        }
    } catch (const sdk::IngestError& e) {
        if (e.File() != name || e.Line() > lines) {
            Broken(target, e.Line(), std::string("refusal outside the file: ") + e.what());
        }
    } catch (const std::exception& e) {
        UnexpectedException(target, e);
    }
}

}  // namespace lastro::fuzz
