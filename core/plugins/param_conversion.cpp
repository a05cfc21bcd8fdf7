#include "core/plugins/param_conversion.hpp"

#include <lastro/sdk/text.hpp>
#include <lastro/sdk/uuid.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>

namespace lastro::plugins {
namespace {

std::size_t CountCodePoints(std::string_view utf8) {
    return static_cast<std::size_t>(std::count_if(
        utf8.begin(), utf8.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

bool HasControlCharacters(std::string_view text) {
    return std::any_of(text.begin(), text.end(), [](char c) {
        auto u = static_cast<unsigned char>(c);
        return u < 0x20 || u == 0x7F;
    });
}

std::string Range(const ParamSpec& spec) {
    if (spec.min && spec.max) {
        return " between " + std::to_string(*spec.min) + " and " + std::to_string(*spec.max);
    }
    if (spec.min) {
        return " of at least " + std::to_string(*spec.min);
    }
    if (spec.max) {
        return " of at most " + std::to_string(*spec.max);
    }
    return "";
}

}  // namespace

std::variant<sdk::ParamValue, ParamError> ConvertParam(const ParamSpec& spec, std::string_view raw) {
    const std::string& name = spec.name;
    if (!sdk::IsValidUtf8(raw)) {
        return ParamError{name + " must be valid UTF-8 text"};
    }
    if (HasControlCharacters(raw)) {
        return ParamError{name + " must not contain control characters"};
    }
    if (spec.max_length && CountCodePoints(raw) > *spec.max_length) {
        return ParamError{name + " is longer than " + std::to_string(*spec.max_length) + " characters"};
    }
    switch (spec.type) {
        case ParamType::kString: {
            if (!spec.enum_values.empty() &&
                std::find(spec.enum_values.begin(), spec.enum_values.end(), raw) == spec.enum_values.end()) {
                std::string allowed;
                for (const auto& v : spec.enum_values) {
                    allowed += (allowed.empty() ? "" : ", ") + v;
                }
                return ParamError{name + " must be one of: " + allowed};
            }
            return sdk::ParamValue(std::string(raw));
        }
        case ParamType::kInteger: {
            std::int64_t value = 0;
            auto [end, ec] = std::from_chars(raw.data(), raw.data() + raw.size(), value);
            bool ok = !raw.empty() && ec == std::errc() && end == raw.data() + raw.size();
            if (!ok || (spec.min && value < *spec.min) || (spec.max && value > *spec.max)) {
                return ParamError{name + " must be an integer" + Range(spec)};
            }
            return sdk::ParamValue(value);
        }
        case ParamType::kNumber: {
            // Plain decimal notation only ("0.05", "-12", "1500000.50"): no exponent, hex,
            // infinity or NaN, which from_chars would otherwise accept.
            const bool plain = !raw.empty() && std::all_of(raw.begin(), raw.end(), [](char c) {
                return (c >= '0' && c <= '9') || c == '.' || c == '-';
            });
            double value = 0;
            auto [end, ec] = std::from_chars(raw.data(), raw.data() + raw.size(), value);
            if (!plain || ec != std::errc() || end != raw.data() + raw.size()) {
                return ParamError{name + " must be a decimal number written with a point (e.g. 0.05)"};
            }
            return sdk::ParamValue(value);
        }
        case ParamType::kBoolean:
            if (raw == "true") {
                return sdk::ParamValue(true);
            }
            if (raw == "false") {
                return sdk::ParamValue(false);
            }
            return ParamError{name + " must be true or false"};
        case ParamType::kMonth:
            if (auto month = sdk::Month::Parse(raw)) {
                return sdk::ParamValue(*month);
            }
            // A well-written month outside the years served says so, not that it is malformed.
            if (raw.size() == 7 && raw[4] == '-' && sdk::Month::Parse("2000" + std::string(raw.substr(4)))) {
                return ParamError{name + " " + std::string(raw) +
                                  " is out of range: months run from 1900-01 to 2999-12"};
            }
            return ParamError{name + " must be a month written YYYY-MM (month 01 to 12)"};
        case ParamType::kDate:
            if (auto date = sdk::Date::Parse(raw)) {
                return sdk::ParamValue(*date);
            }
            if (raw.size() == 10 && raw[4] == '-' && sdk::Date::Parse("2000" + std::string(raw.substr(4)))) {
                return ParamError{name + " " + std::string(raw) +
                                  " is out of range: dates run from 1900-01-01 to 2999-12-31"};
            }
            return ParamError{name + " must be a calendar date written YYYY-MM-DD"};
        case ParamType::kUuid:
            if (sdk::IsUuid(raw)) {
                std::string lower(raw);
                std::transform(lower.begin(), lower.end(), lower.begin(),
                               [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
                return sdk::ParamValue(lower);
            }
            return ParamError{name + " must be a UUID (8-4-4-4-12 hexadecimal digits)"};
        case ParamType::kIdentifier: {
            sdk::IdentifierCheck checked = spec.format->Check(raw);
            if (checked.value) {
                return sdk::ParamValue(std::move(*checked.value));
            }
            return ParamError{name + " " + checked.problem};
        }
    }
    return ParamError{name + " has an unsupported type"};
}

}  // namespace lastro::plugins
