// funds.class_quota_operations — GET /v1/classes/{class_id}/cotas/operacoes: subscriptions,
// redemptions and amortizations (table X_4), one row per (month, series with any X_4 row)
// (contract 2.9, docs/api/quotas.md).
#pragma once

#include <lastro/sdk/plugin.hpp>

#include <optional>

namespace lastro::funds {

// The outlier rule of subscriptions: true when the implied price value / shares differs from
// the series' quota value of the month by more than a factor of 10 either way. False when any
// input is missing or the shares or quota value are not positive (nothing to compare).
bool IsSubscriptionOutlier(const std::optional<double>& value_brl, const std::optional<double>& shares,
                           const std::optional<double>& quota_value_brl);

sdk::Result HandleClassQuotaOperations(const sdk::RequestContext& context);

}  // namespace lastro::funds
