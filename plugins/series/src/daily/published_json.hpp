// Published decimal text (domain/daily/inf_diario_reader.hpp's IsPublishedDecimal) as a JSON
// number with its decimals kept: "44.275588000000" is written as is; leading zeros of the integer
// part, which JSON forbids ("007.5"), are dropped.
#pragma once

#include <lastro/sdk/serving/json_text.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace lastro::series {

inline void WritePublished(sdk::JsonText& json, const std::optional<std::string>& text) {
    if (!text) {
        json.Null();
        return;
    }
    std::string_view digits = *text;
    const bool negative = digits.starts_with('-');
    if (negative) {
        digits.remove_prefix(1);
    }
    while (digits.size() > 1 && digits[0] == '0' && digits[1] != '.') {
        digits.remove_prefix(1);
    }
    json.Raw(negative ? "-" + std::string(digits) : std::string(digits));
}

}  // namespace lastro::series
