// The JSON of one /v1/macroeconomia/{serie_id} row (manifest.yaml, series.macro_values).
#pragma once

#include "domain/transforms.hpp"

#include <lastro/sdk/serving/json_text.hpp>

namespace lastro::series {

void WriteSeriesRow(sdk::JsonText& json, const ServedRow& row);

}  // namespace lastro::series
