// The JSON of GET /v1/series-diarias/{cnpj}/desempenho's rows and summary (docs/performance.md).
// Numbers are doubles, written by the host with the fewest digits that read back as the same
// double (docs/api.md "Numbers"): exact far beyond 1e-12. Returns, the CDI and volatility are
// fractions, Sharpe an index; null stays null (contract 2.1).
#pragma once

#include "domain/daily/performance.hpp"

#include <lastro/sdk/serving/json_text.hpp>

#include <boost/json/object.hpp>

namespace lastro::series {

// The row's figures as members of the object `json` has open: "return_from", "return",
// "accumulated_return", "cdi_return", "cdi_accumulated_return", "excess_over_cdi", "pct_of_cdi"
// (in percent: 105.0 is 105 % of the CDI), "accumulated_excess_over_cdi",
// "accumulated_pct_of_cdi", "provisional", "month" and "month_complete" (null on a daily row). The
// caller writes the day and the published values.
void WritePerformanceFigures(sdk::JsonText& json, const PerformanceRow& row);

// {"end_date", "returns": {month_to_date, year_to_date, months_12, months_24, months_36,
//  since_first_quota}, "volatility_annualized", "max_drawdown": {value, peak, trough, recovery},
//  "sharpe_cdi", "months_above_cdi": {above, of, without_cdi}, "gaps", "unusable_quotas",
//  "window_context": {one entry per figure}, "method"}.
boost::json::object PerformanceSummaryJson(const PerformanceSummary& summary);

// How the figures are computed, in a few words (the summary's "method").
boost::json::object PerformanceMethodJson();

}  // namespace lastro::series
