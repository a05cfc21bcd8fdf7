// industry.fidc_aggregates (docs/README.md, "When the aggregates change"): rebuilt inside the
// write transaction of each ingest of its sources. The months an FIDC ingest changed are derived
// again with the month after each (its same-store figures and attrition look back), the month
// before when its spike filter now decides otherwise, and the rankings 12 and 24 months later
// (their 12-month changes look back); the completeness of every month is judged again; any
// other source rebuilds every month.
#pragma once

#include <lastro/sdk/plugin.hpp>

namespace lastro::industry {

inline constexpr const char* kAggregatesDataset = "industry.fidc_aggregates";
inline constexpr const char* kFidcDataset = "cvm.inf_mensal_fidc";

class AggregatesDerivation : public sdk::Derivation {
public:
    sdk::IngestSummary Run(const sdk::DerivationContext& context) override;
};

}  // namespace lastro::industry
