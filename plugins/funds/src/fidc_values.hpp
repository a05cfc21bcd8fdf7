// Values the FIDC endpoints compute from a monthly report: null-preserving arithmetic (a
// missing input gives null, never 0) and the JSON columns the ingester wrote (bands_json,
// segments_json; formats in funds_model.hxx and docs/api/fidc-metrics.md).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace lastro::funds {

using MaybeNumber = std::optional<double>;

// Sum of the values present; null only when every value is missing.
MaybeNumber SumPresent(const std::vector<MaybeNumber>& values);
// a × b, a − b: null when either is missing.
MaybeNumber Product(const MaybeNumber& a, const MaybeNumber& b);
MaybeNumber Difference(const MaybeNumber& a, const MaybeNumber& b);
// a / b: null when either is missing or b is 0.
MaybeNumber Ratio(const MaybeNumber& a, const MaybeNumber& b);
// Rounded to the cent, so that floating-point noise in a difference of money reads 0.
MaybeNumber ToCents(const MaybeNumber& value);

// The ten exclusive overdue bands (b.1 "1 to 30 days" .. b.10 "above 1080 days") of the
// delinquent instalments of table V (with substantial acquisition of risks) and table VI
// (without), as published; all null when the report has no bands.
inline constexpr std::size_t kOverdueBands = 10;
struct DelinquentBands {
    std::array<MaybeNumber, kOverdueBands> with_risk;     // TAB_V_B1..B10
    std::array<MaybeNumber, kOverdueBands> without_risk;  // TAB_VI_B1..B10
};
// Throws std::runtime_error when bands_json is not the ingester's format.
DelinquentBands ParseDelinquentBands(const std::optional<std::string>& bands_json);

// The name of the table II segment `code` in segments_json; null when absent.
std::optional<std::string> SegmentName(const std::optional<std::string>& segments_json,
                                       const std::string& code);

}  // namespace lastro::funds
