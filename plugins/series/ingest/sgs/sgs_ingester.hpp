// `lastro ingest bcb.sgs.<code> FILE...`: SGS answers as downloaded (JSON or formato=csv, one
// window of dates each, loose or in a zip), merged and applied to the stored series
// (docs/datasets/sgs.md). Overlapping windows must agree; a file that is not an SGS answer is
// refused with its name, line and reason before anything is written.
#pragma once

#include "domain/series_spec.hpp"

#include <lastro/sdk/plugin.hpp>

namespace lastro::series {

class SgsIngester : public sdk::Ingester {
public:
    explicit SgsIngester(SeriesSpec spec) : spec_(std::move(spec)) {}
    sdk::IngestSummary Run(const sdk::IngestContext& context) override;

private:
    SeriesSpec spec_;
};

}  // namespace lastro::series
