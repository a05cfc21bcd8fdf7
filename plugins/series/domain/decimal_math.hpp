// The arithmetic of published rates, without binary-float noise (docs/transforms.md):
// - products of published decimals are carried in IEEE quadruple precision (Real: a 113-bit
//   mantissa, 34 significant digits), so a compounded rate never drifts from the one the
//   Central Bank's calculator gives: ten thousand days compound with an error near 1e-30,
//   far below the 8 decimals served, where cpp_dec_float_50 cost ten times the CPU a call;
// - scaled integers (Scaled) where a rule truncates or rounds at a fixed decimal (B3's CDI);
// - a non-integer power (annualizing) is the one step taken in long double (64-bit mantissa),
//   about 18 significant digits before the result is rounded to the decimals served.
#pragma once

#include <boost/multiprecision/cpp_int.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace lastro::series {

using Real = __float128;
// A decimal as an integer count of 10^-scale: 1.00043739 is {100043739, 8}. 256 bits: a CDI
// factor accumulated since 1986 (about 1e15) at 16 decimals, times a daily factor, fits.
using Wide = boost::multiprecision::int256_t;

// Computed values are served with this many decimals (percent, or a factor's fraction).
inline constexpr int kServedDecimals = 8;

// The value of a published decimal text ("0.052531", "-0.21"): its digits exactly (up to 38),
// divided by its power of ten once, so the nearest quadruple to the decimal.
Real RealOf(std::string_view decimal_text);

// 1 + percent/100 (the nearest quadruple): the growth over the span a published rate covers.
Real GrowthOf(std::string_view percent_text);

// `value` rounded half away from zero to `decimals` places (0..18), as plain JSON number text
// ("4.62108370"); never "-0...": a negative zero is written without its sign. Beyond 34
// significant digits (a value over 1e26 at 8 decimals, which no series reaches) the digits a
// quadruple does not hold are written as zeros.
std::string FormatFixed(const Real& value, int decimals);

// (value - 1) x 100 with kServedDecimals: a growth factor as a percentage rate.
std::string PercentOfGrowth(const Real& growth);

// growth^exponent computed in long double (annualizing, or a yearly rate's share of a day).
Real Power(const Real& growth, long double exponent);

// Number of decimals of a published decimal text ("0.052531" -> 6).
int DecimalsOf(std::string_view decimal_text);

struct Scaled {
    Wide units = 0;
    int scale = 0;
};

// 10^exponent, 0..38 (std::out_of_range beyond).
const Wide& PowerOfTen(int exponent);

// The published decimal as a scaled integer, exactly ("0.052531" -> {52531, 6}).
Scaled ScaledOf(std::string_view decimal_text);

// `value` at `scale` decimals: more decimals are appended zeros; fewer is a logic error
// (throws std::invalid_argument: a rule never silently drops published digits).
Wide Rescale(const Scaled& value, int scale);

// A scaled integer as plain decimal text with exactly `scale` decimals ("1.00043739").
std::string FormatScaled(const Wide& units, int scale);

}  // namespace lastro::series
