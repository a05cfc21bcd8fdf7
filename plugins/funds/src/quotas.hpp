// funds.class_quotas — GET /v1/classes/{class_id}/cotas: one row per (month, quota series) of
// the class's monthly reports (contract 2.10); and funds.class_quota_operations — GET
// /v1/classes/{class_id}/cotas/operacoes: subscriptions, redemptions and amortizations (table
// X_4), one row per (month, series with any X_4 row) (contract 2.9). Both join the rows stored
// with each report (domain/rows/quota_answers.hpp; docs/api/quotas.md).
#pragma once

#include <lastro/sdk/plugin.hpp>

namespace lastro::funds {

sdk::Result HandleClassQuotas(const sdk::RequestContext& context);
sdk::Result HandleClassQuotaOperations(const sdk::RequestContext& context);

}  // namespace lastro::funds
