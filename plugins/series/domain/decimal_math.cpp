#include "domain/decimal_math.hpp"

#include <cmath>
#include <stdexcept>

namespace lastro::series {
namespace {

Wide PowerOfTen(int exponent) {
    Wide value = 1;
    for (int i = 0; i < exponent; ++i) {
        value *= 10;
    }
    return value;
}

}  // namespace

Real RealOf(std::string_view decimal_text) {
    return Real(std::string(decimal_text));
}

Real GrowthOf(std::string_view percent_text) {
    return Real(1) + RealOf(percent_text) / 100;
}

int DecimalsOf(std::string_view decimal_text) {
    const std::size_t point = decimal_text.find('.');
    return point == std::string_view::npos ? 0 : static_cast<int>(decimal_text.size() - point - 1);
}

std::string FormatFixed(const Real& value, int decimals) {
    Real scaled = boost::multiprecision::abs(value);
    for (int i = 0; i < decimals; ++i) {
        scaled *= 10;
    }
    scaled = boost::multiprecision::floor(scaled + Real("0.5"));
    std::string digits = scaled.str(0, std::ios_base::fixed);
    if (const std::size_t point = digits.find('.'); point != std::string::npos) {
        digits.erase(point);
    }
    if (static_cast<int>(digits.size()) <= decimals) {
        digits.insert(0, static_cast<std::size_t>(decimals) + 1 - digits.size(), '0');
    }
    if (decimals > 0) {
        digits.insert(digits.size() - static_cast<std::size_t>(decimals), ".");
    }
    const bool zero = digits.find_first_not_of("0.") == std::string::npos;
    return (value < 0 && !zero) ? "-" + digits : digits;
}

std::string PercentOfGrowth(const Real& growth) {
    return FormatFixed((growth - 1) * 100, kServedDecimals);
}

Real Power(const Real& growth, long double exponent) {
    const long double base = growth.convert_to<long double>();
    return Real(std::pow(base, exponent));
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
    std::string digits = (negative ? Wide(-units) : units).str();
    if (static_cast<int>(digits.size()) <= scale) {
        digits.insert(0, static_cast<std::size_t>(scale) + 1 - digits.size(), '0');
    }
    if (scale > 0) {
        digits.insert(digits.size() - static_cast<std::size_t>(scale), ".");
    }
    return negative ? "-" + digits : digits;
}

}  // namespace lastro::series
