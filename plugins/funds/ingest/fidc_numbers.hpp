// Strict reading of the numbers of CVM's FIDC monthly report (docs/datasets/inf_mensal_fidc.md):
// a plain decimal with a point, an optional leading '-', no thousands separator, no exponent.
// An empty field is a missing value (NULL), never 0.
#pragma once

#include "ingest/field_text.hpp"

#include <cstdint>
#include <optional>
#include <string_view>

namespace lastro::funds {

// Surrounding spaces are not part of a value (TrimBlanks, ingest/field_text.hpp); an all-blank
// field counts as empty.
enum class NumberStatus { kEmpty, kValue, kInvalid };

struct ParsedDecimal {
    NumberStatus status = NumberStatus::kEmpty;
    double value = 0;
};

// "-123.45", "0.0", "7" are numbers; "1.234,56", "1e5", "+1", ".5", "5.", "NaN" are not.
ParsedDecimal ParseFidcDecimal(std::string_view text);
// ParseFidcDecimal(text).status, without converting the text when no conversion can fail:
// the ingester checks every decimal of every row and converts it later, when it builds the report.
NumberStatus FidcDecimalStatus(std::string_view text);

struct ParsedInteger {
    NumberStatus status = NumberStatus::kEmpty;
    std::int64_t value = 0;
};

// A count (TAB_X_NR_COTST, SEQUENCIAL): a plain decimal with an integral value ("12", "12.00").
ParsedInteger ParseFidcInteger(std::string_view text);

// The value of a field already validated by the parsers above; nullopt when empty.
std::optional<double> DecimalOrNull(std::string_view text);
std::optional<std::int64_t> IntegerOrNull(std::string_view text);

}  // namespace lastro::funds
