// What the readers of CRI/CRA files share: columns resolved by name with every missing one named,
// and the checked reads of a row's fields.
#pragma once

#include <lastro/sdk/cvm_csv.hpp>
#include <lastro/sdk/ingest/values.hpp>
#include <lastro/sdk/problem.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::companies {

// The index of each of `names` in the header; sdk::IngestError at line 1 naming every one absent.
inline std::vector<std::size_t> RequireColumns(const sdk::CsvReader& csv,
                                               const std::vector<std::string_view>& names) {
    std::vector<std::size_t> index;
    std::string missing;
    std::size_t count = 0;
    for (std::string_view name : names) {
        if (const auto found = csv.Find(name)) {
            index.push_back(*found);
        } else {
            index.push_back(0);
            missing += (missing.empty() ? "" : ", ") + std::string(name);
            ++count;
        }
    }
    if (count > 0) {
        throw sdk::IngestError(csv.SourceName(), 1,
                               (count == 1 ? "missing column " : "missing columns ") + missing);
    }
    return index;
}

// A plain decimal kept as its text (nullopt when blank); FieldError "COLUMN is not a number".
inline std::optional<std::string> CheckedDecimal(const sdk::CsvReader& csv, std::size_t column) {
    std::optional<std::string> text = csv.Text(column);
    if (text && sdk::CheckDecimal(*text) != sdk::ValueStatus::kValue) {
        csv.Fail(column, "is not a number", *text);
    }
    return text;
}

// A required non-negative integer; FieldError "COLUMN is empty" or "is not an integer".
inline std::int64_t RequiredInteger(const sdk::CsvReader& csv, std::size_t column) {
    const auto value = csv.Integer(column, sdk::Sign::kNonNegative);
    if (!value) {
        csv.Fail(column, "is empty");
    }
    return *value;
}

// A required YYYY-MM-DD date.
inline std::string RequiredIsoDate(const sdk::CsvReader& csv, std::size_t column) {
    const auto value = csv.IsoDate(column);
    if (!value) {
        csv.Fail(column, "is empty");
    }
    return *value;
}

}  // namespace lastro::companies
