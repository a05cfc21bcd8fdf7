// A series as the handlers read it: every stored observation, in memory once per data release
// (sdk::Remembered), so a page or a transform over the whole history reads no rows; and the
// JSON of each observation's row as published, so a page of them is copied, not computed.
#pragma once

#include "domain/series_data.hpp"

#include <lastro/sdk/plugin.hpp>
#include <lastro/sdk/result.hpp>

#include <memory>
#include <string>
#include <vector>

namespace lastro::series {

struct ServedSeries {
    std::shared_ptr<const SeriesData> data;
    // native_rows[i]: observation i's row at the series' own frequency, transform none, as
    // WriteSeriesRow writes it (such a row depends on no parameter).
    std::vector<std::string> native_rows;
};

// The series' data at the call's release. Call after RequireRelease.
std::shared_ptr<const ServedSeries> LoadSeries(const sdk::RequestContext& context, const SeriesSpec& spec);

// sdk::Unavailable (503, refunded) when `meta` (sdk::DatasetMeta of the series) has no release:
// the series' dataset was never ingested.
void RequireRelease(const sdk::Meta& meta, const SeriesSpec& spec);
void RequireRelease(const sdk::Host& host, const SeriesSpec& spec);

}  // namespace lastro::series
