// A series as the handlers read it: every stored observation, in memory once per data release
// (sdk::Remembered), so a page or a transform over the whole history reads no rows.
#pragma once

#include "domain/series_data.hpp"

#include <lastro/sdk/plugin.hpp>

#include <memory>

namespace lastro::series {

// sdk::Unavailable (503, refunded) when the series' dataset has never been ingested.
std::shared_ptr<const SeriesData> LoadSeries(const sdk::RequestContext& context, const SeriesSpec& spec);

}  // namespace lastro::series
