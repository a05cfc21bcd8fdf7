// The numbers of CVM's FIDC monthly report (docs/datasets/inf_mensal_fidc.md): plain decimals
// with a point, an optional leading '-', no thousands separator, no exponent — the ingest kit's
// sdk::ParseDecimal — and counts written as decimals with an integral value. An empty field is
// a missing value (NULL), never 0; surrounding blanks are not part of a value.
#pragma once

#include <lastro/sdk/ingest/values.hpp>

#include <cstdint>
#include <optional>
#include <string_view>

namespace lastro::funds {

using NumberStatus = sdk::ValueStatus;
using ParsedDecimal = sdk::Parsed<double>;
using ParsedInteger = sdk::Parsed<std::int64_t>;

// "-123.45", "0.0", "7" are numbers; "1.234,56", "1e5", "+1", ".5", "5.", "NaN" are not.
inline ParsedDecimal ParseFidcDecimal(std::string_view text) {
    return sdk::ParseDecimal(text);
}
// ParseFidcDecimal(text).status, without converting the text when no conversion can fail:
// the ingester checks every decimal of every row and converts it later, when it builds the report.
inline NumberStatus FidcDecimalStatus(std::string_view text) {
    return sdk::CheckDecimal(text);
}

// A count (TAB_X_NR_COTST, SEQUENCIAL): a plain decimal with an integral value ("12", "12.00").
ParsedInteger ParseFidcInteger(std::string_view text);

// The value of a field already validated by the parsers above; nullopt when empty.
std::optional<double> DecimalOrNull(std::string_view text);
std::optional<std::int64_t> IntegerOrNull(std::string_view text);

}  // namespace lastro::funds
