// Values the FIDC endpoints compute from a monthly report: null-preserving arithmetic (a
// missing input gives null, never 0; money exact to the cent through <lastro/sdk/serving/money.hpp>)
// and the JSON columns the ingester wrote (bands_json, segments_json, published_json; formats in
// funds_model.hxx and docs/api/fidc-metrics.md).
#pragma once

#include <boost/json/array.hpp>

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace lastro::funds {

using MaybeNumber = std::optional<double>;

// Sum of the values present; null only when every value is missing. Not for money a response
// serves as a total: that is sdk::MoneySum (null when any part is missing).
MaybeNumber SumPresent(const std::vector<MaybeNumber>& values);
// Sum of every value; null when any is missing or there is none (a sum of quota counts; of money,
// sdk::SumOfAmounts).
MaybeNumber SumOfAll(const std::vector<MaybeNumber>& values);
// a × b, a − b: null when either is missing. Of money: sdk::RoundToCents, sdk::MoneyDifference.
MaybeNumber Product(const MaybeNumber& a, const MaybeNumber& b);
MaybeNumber Difference(const MaybeNumber& a, const MaybeNumber& b);
// a / b: null when either is missing or b is 0.
MaybeNumber Ratio(const MaybeNumber& a, const MaybeNumber& b);

// A published component of a sum, by its CVM column.
struct NamedAmount {
    std::string column;
    MaybeNumber value;
};
// A sum of money components (docs/api/fidc-metrics.md, "Partial sums"): `total` is null when
// any component is empty; `partial` is the sum of the components present (null when none is)
// and `missing` the columns it leaves out, so that a client knows what `partial` covers.
struct PartialSum {
    MaybeNumber total;
    MaybeNumber partial;
    boost::json::array missing;  // column names, in the order of the components
};
PartialSum SumOfComponents(const std::vector<NamedAmount>& components);

// The receivable components of table I (TAB_I2A1..I2A10, TAB_I2B1..I2B10) as published in
// published_json; each null when empty or when the report has no table I row. Throws
// std::runtime_error when published_json is not the ingester's format.
std::vector<NamedAmount> ReceivableComponents(const std::string& published_json);

// The ten exclusive overdue bands (b.1 "1 to 30 days" .. b.10 "above 1080 days") of the
// delinquent instalments of table V (with substantial acquisition of risks) and table VI
// (without), as published; all null when the report has no bands.
inline constexpr std::size_t kOverdueBands = 10;
struct DelinquentBands {
    std::array<MaybeNumber, kOverdueBands> with_risk;     // TAB_V_B1..B10
    std::array<MaybeNumber, kOverdueBands> without_risk;  // TAB_VI_B1..B10
};
// "TAB_V_B1_VL_INAD_30" .. "TAB_VI_B10_VL_INAD_MAIOR_1080": `table` "V" or "VI", band 0..9.
std::string DelinquentBandColumn(const std::string& table, std::size_t band);
// Throws std::runtime_error when bands_json is not the ingester's format.
DelinquentBands ParseDelinquentBands(const std::optional<std::string>& bands_json);

// The name of the table II segment `code` in segments_json; null when absent.
std::optional<std::string> SegmentName(const std::optional<std::string>& segments_json,
                                       const std::string& code);

}  // namespace lastro::funds
