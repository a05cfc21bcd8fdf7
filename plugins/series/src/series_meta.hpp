// meta.series: what a series answer serves, named on every answer (docs/api/macroeconomia.md):
// the series, its published unit and frequency, and the unit, frequency and transform served.
#pragma once

#include "domain/series_data.hpp"
#include "domain/transforms.hpp"

#include <boost/json/object.hpp>

namespace lastro::series {

boost::json::object SeriesMeta(const SeriesData& data, const SeriesQuery& query);

}  // namespace lastro::series
