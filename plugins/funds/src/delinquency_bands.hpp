// funds.class_delinquency_bands — GET /v1/classes/{class_id}/carteira/inadimplencia/faixas:
// cumulative delinquency of one month by overdue days, from the exclusive bands of tables V and
// VI (contract 2.13, docs/api/delinquency-bands.md).
#pragma once

#include <lastro/sdk/plugin.hpp>

#include <array>
#include <cstddef>

namespace lastro::funds {

// The rows' thresholds: row i counts the bands b.(i+1)..b.10, overdue by more than these days.
inline constexpr std::array<int, 10> kOverdueDays = {0, 30, 60, 90, 120, 150, 180, 360, 720, 1080};

sdk::Result HandleClassDelinquencyBands(const sdk::RequestContext& context);

}  // namespace lastro::funds
