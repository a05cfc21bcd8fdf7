// The rows of funds.class_quota_operations (GET /v1/classes/{class_id}/cotas/operacoes):
// subscriptions, redemptions and amortizations (table X_4), one row per (month, series with any
// X_4 row) (contract 2.9, docs/api/quotas.md), written when a report is saved
// (domain/rows/quota_answers.hpp).
#pragma once

#include "funds_model.hxx"

#include <lastro/sdk/serving/json_text.hpp>

#include <cstddef>
#include <optional>
#include <vector>

namespace lastro::funds {

// The outlier rule of subscriptions: true when the implied price value / shares differs from
// the series' quota value of the month by more than a factor of 10 either way. False when any
// input is missing or the shares or quota value are not positive (nothing to compare).
bool IsSubscriptionOutlier(const std::optional<double>& value_brl, const std::optional<double>& shares,
                           const std::optional<double>& quota_value_brl);

// The /cotas/operacoes rows of one report, one per series with any X_4 row in SeriesOrder (a
// series absent from `series` is named by its X_4 label, without quota data), as items of the
// open array; returns how many. `operations` are the report's X_4 rows in table order. Written
// once, when the report is saved (domain/rows/quota_answers.hpp).
std::size_t WriteOperationRows(sdk::JsonText& json, const FidcQuotaReport& report,
                               const std::vector<FidcQuotaSeries>& series,
                               const std::vector<FidcQuotaOperation>& operations);

}  // namespace lastro::funds
