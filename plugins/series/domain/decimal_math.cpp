#include "domain/decimal_math.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace lastro::series {
namespace {

// 10^0 .. 10^38 of type T, made once (a page divides by them on every row).
template <typename T>
const T& TableOfTen(int exponent) {
    static const std::array<T, 39> powers = [] {
        std::array<T, 39> table{};
        table[0] = 1;
        for (std::size_t i = 1; i < table.size(); ++i) {
            table[i] = table[i - 1] * 10;
        }
        return table;
    }();
    return powers.at(static_cast<std::size_t>(exponent));
}

// Exact in a quadruple up to 10^48.
Real PowerOfTenReal(int exponent) {
    return TableOfTen<Real>(exponent);
}

}  // namespace

const Wide& PowerOfTen(int exponent) {
    return TableOfTen<Wide>(exponent);
}

Real RealOf(std::string_view decimal_text) {
    unsigned __int128 units = 0;
    int scale = 0;
    bool negative = false;
    bool fraction = false;
    int digits = 0;
    for (char c : decimal_text) {
        if (c == '-') {
            negative = true;
        } else if (c == '.') {
            fraction = true;
        } else if (c >= '0' && c <= '9') {
            if (++digits > 38) {
                throw std::invalid_argument("more than 38 digits: " + std::string(decimal_text));
            }
            units = units * 10 + static_cast<unsigned>(c - '0');
            scale += fraction ? 1 : 0;
        } else {
            throw std::invalid_argument("not a decimal: " + std::string(decimal_text));
        }
    }
    Real value = static_cast<Real>(units);
    if (scale > 0) {
        value /= PowerOfTenReal(scale);
    }
    return negative ? -value : value;
}

Real GrowthOf(std::string_view percent_text) {
    return 1 + RealOf(percent_text) / 100;
}

int DecimalsOf(std::string_view decimal_text) {
    const std::size_t point = decimal_text.find('.');
    return point == std::string_view::npos ? 0 : static_cast<int>(decimal_text.size() - point - 1);
}

std::string FormatFixed(const Real& value, int decimals) {
    const bool negative = value < 0;
    Real scaled = (negative ? -value : value) * PowerOfTenReal(decimals) + Real(0.5);
    // Whole digits past what 128 bits hold are written as zeros (see the header).
    int zeros = 0;
    while (scaled >= PowerOfTenReal(36)) {
        scaled /= 10;
        ++zeros;
    }
    unsigned __int128 units = static_cast<unsigned __int128>(scaled);  // truncates: half rounds up
    std::string digits;
    do {
        digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(units % 10)));
        units /= 10;
    } while (units != 0);
    digits.append(static_cast<std::size_t>(zeros), '0');
    if (static_cast<int>(digits.size()) <= decimals) {
        digits.insert(0, static_cast<std::size_t>(decimals) + 1 - digits.size(), '0');
    }
    if (decimals > 0) {
        digits.insert(digits.size() - static_cast<std::size_t>(decimals), ".");
    }
    const bool zero = digits.find_first_not_of("0.") == std::string::npos;
    return (negative && !zero) ? "-" + digits : digits;
}

std::string PercentOfGrowth(const Real& growth) {
    return FormatFixed((growth - 1) * 100, kServedDecimals);
}

Real Power(const Real& growth, long double exponent) {
    return static_cast<Real>(std::pow(static_cast<long double>(growth), exponent));
}

Scaled ScaledOf(std::string_view decimal_text) {
    Scaled out;
    bool negative = false;
    for (char c : decimal_text) {
        if (c == '-') {
            negative = true;
        } else if (c == '.') {
            out.scale = 0;  // counted below
        } else if (c >= '0' && c <= '9') {
            out.units = out.units * 10 + (c - '0');
        } else {
            throw std::invalid_argument("not a decimal: " + std::string(decimal_text));
        }
    }
    out.scale = DecimalsOf(decimal_text);
    if (negative) {
        out.units = -out.units;
    }
    return out;
}

Wide Rescale(const Scaled& value, int scale) {
    if (scale < value.scale) {
        throw std::invalid_argument("a rescale would drop published decimals");
    }
    return value.units * PowerOfTen(scale - value.scale);
}

std::string FormatScaled(const Wide& units, int scale) {
    const bool negative = units < 0;
    const Wide magnitude = negative ? Wide(-units) : units;
    std::string digits;
    if (magnitude <= Wide((std::numeric_limits<std::uint64_t>::max)())) {
        // A CDI factor at 16 decimals is a 17-digit number: 64 bits, without Boost's division.
        digits = std::to_string(magnitude.convert_to<std::uint64_t>());
    } else {
        digits = magnitude.str();
    }
    if (static_cast<int>(digits.size()) <= scale) {
        digits.insert(0, static_cast<std::size_t>(scale) + 1 - digits.size(), '0');
    }
    if (scale > 0) {
        digits.insert(digits.size() - static_cast<std::size_t>(scale), ".");
    }
    return negative ? "-" + digits : digits;
}

}  // namespace lastro::series
