// The values of one row as the B3 ingesters bind them (text, or nullopt for NULL), with the
// fingerprint that tells an unchanged row from an updated one.
#pragma once

#include <lastro/sdk/bulk_sql.hpp>

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lastro::stocks {

using StoredValues = std::vector<std::optional<std::string>>;

// Views for sdk::SqlSession, valid while `values` lives.
inline std::vector<sdk::SqlValue> Views(const StoredValues& values) {
    return {values.begin(), values.end()};
}

// The shortest text that reads back to the same double (what the database is given).
inline std::string DoubleText(double value) {
    char text[32];
    const auto [end, error] = std::to_chars(text, text + sizeof text, value);
    (void)error;
    return std::string(text, end);
}

inline std::optional<std::string> DoubleText(const std::optional<double>& value) {
    return value ? std::optional<std::string>(DoubleText(*value)) : std::nullopt;
}

// FNV-1a over the values, a NULL distinct from every text; as decimal text.
inline std::string FingerprintOf(const StoredValues& values) {
    std::uint64_t hash = 14695981039346656037ull;
    const auto add = [&hash](unsigned char c) { hash = (hash ^ c) * 1099511628211ull; };
    for (const auto& value : values) {
        if (!value) {
            add(0xFF);
        } else {
            for (unsigned char c : *value) {
                add(c);
            }
        }
        add(0x1F);
    }
    return std::to_string(hash);
}

}  // namespace lastro::stocks
