// The columns a reader of CVM's files requires, found by header name, never by position: a
// header that lacks some is refused naming every one missing, at line 1 of the file.
#pragma once

#include <lastro/sdk/ingest/csv.hpp>
#include <lastro/sdk/problem.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace lastro::companies {

// The position of each of `columns` in `csv`'s header, in the same order.
template <std::size_t N>
std::array<std::size_t, N> RequireColumns(const sdk::CsvReader& csv,
                                          const std::array<std::string_view, N>& columns) {
    std::array<std::size_t, N> positions{};
    std::string missing;
    std::size_t count = 0;
    for (std::size_t i = 0; i < N; ++i) {
        if (const auto found = csv.Find(columns[i])) {
            positions[i] = *found;
        } else {
            missing += (missing.empty() ? "" : ", ") + std::string(columns[i]);
            ++count;
        }
    }
    if (count > 0) {
        throw sdk::IngestError(csv.SourceName(), 1,
                               (count == 1 ? "missing column " : "missing columns ") + missing);
    }
    return positions;
}

// The position of `name` in `columns`, for constants: a name not in the list does not compile.
template <std::size_t N>
consteval std::size_t ColumnIndex(const std::array<std::string_view, N>& columns, std::string_view name) {
    for (std::size_t i = 0; i < N; ++i) {
        if (columns[i] == name) {
            return i;
        }
    }
    throw "not a column of the reader's list";
}

}  // namespace lastro::companies
