// Compile-time lookups in the published column lists of layouts/ (a misspelt name does not
// compile), shared by the ingesters, the sample writer and the tests.
#pragma once

#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace lastro::funds {

// The position of `name` in `columns`, found at compile time: a misspelt name does not compile.
template <std::size_t N>
consteval std::size_t ColumnIndex(const std::array<std::string_view, N>& columns, std::string_view name) {
    for (std::size_t i = 0; i < N; ++i) {
        if (columns[i] == name) {
            return i;
        }
    }
    throw std::logic_error("no such column");
}

// `name` itself, checked at compile time to be one of `columns`.
template <std::size_t N>
consteval std::string_view ColumnOf(const std::array<std::string_view, N>& columns, std::string_view name) {
    return columns[ColumnIndex(columns, name)];
}

// The columns joined by `separator`: a header line.
template <std::size_t N>
std::string JoinColumns(const std::array<std::string_view, N>& columns, char separator = ';') {
    std::string line;
    for (std::string_view column : columns) {
        if (!line.empty()) {
            line += separator;
        }
        line += column;
    }
    return line;
}

}  // namespace lastro::funds
