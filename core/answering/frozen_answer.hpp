// A handler's answer as JSON text, shared by every call it serves (the response cache keeps it
// until the next ingest), and the other forms of it a call may ask for, each made once, on the
// first call that asks, then shared: its pieces deflated for gzip answers (gzip_member.hpp),
// and its rows as a CSV table (csv_table.hpp), plain and in gzip. What belongs to one call
// (its request_id, its signed cursor) is never in it.
#pragma once

#include "core/answering/gzip_member.hpp"

#include <boost/json/value.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

namespace lastro::answering {

struct FrozenAnswer {
    // `data`, and the members of `meta` that come from the handler (data_release, as_of,
    // row_count, sources, extra), comma-led and without braces so that the host can append
    // them after request_id.
    std::string data;
    std::string meta;
    std::optional<boost::json::value> next_position;  // for cursor pagination
    // Names this answer among all others: 16 hex digits of a digest of the server's build, the
    // operation and its parameters, and the newest release when it was read. The base of its
    // ETag (answering.hpp).
    std::string tag;
    std::optional<std::string> data_release;  // meta.data_release, for a CSV answer's headers
    // When the newest release it was read at was ingested, as an HTTP date (Last-Modified); ""
    // before the first ingest.
    std::string last_modified;

    struct Deflated {
        DeflatedPiece data;
        DeflatedPiece meta;
    };
    struct Csv {
        std::string text;
        std::size_t rows = 0;
    };

    // Made on the first call, then the same for every call.
    const Deflated& DeflatedForm() const;
    // The rows of `data` (or of its member `rows_field`, for an object) as CSV. Throws
    // std::runtime_error when `data` holds no such rows.
    const Csv& CsvForm(const std::string& rows_field) const;
    const std::string& CsvGzipForm(const std::string& rows_field) const;

    // What it holds in memory: its text, and the forms made so far.
    std::size_t TextBytes() const;
    std::size_t FormBytes() const { return form_bytes_.load(std::memory_order_relaxed); }

private:
    mutable std::once_flag deflated_once_, csv_once_, csv_gzip_once_;
    mutable Deflated deflated_;
    mutable Csv csv_;
    mutable std::string csv_gzip_;
    mutable std::atomic<std::size_t> form_bytes_{0};
};

}  // namespace lastro::answering
