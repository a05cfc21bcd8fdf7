// funds.class_snapshot — GET /v1/classes/{class_id}/snapshot: one month of a class compared
// with the previous calendar month only (contract 2.11, docs/api/snapshot.md).
#pragma once

#include "funds_model.hxx"

#include <lastro/sdk/plugin.hpp>

#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <vector>

namespace lastro::funds {

// The snapshot object of `current` (for `class_id`, its published_json loaded), with `previous`
// the report of the calendar month before (nullopt when the class did not report that month) and
// `current_series` the series of `current`.
boost::json::object SnapshotData(const std::string& class_id, const FidcReport& current,
                                 const std::optional<FidcReport>& previous,
                                 const std::vector<FidcSeries>& current_series);

sdk::Result HandleClassSnapshot(const sdk::RequestContext& context);

}  // namespace lastro::funds
