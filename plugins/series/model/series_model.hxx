// Persistent model of the series plugin (docs/datasets/sgs.md): every observation of every SGS
// series, one row per (series, date), its value as published. Rows are never deleted: an SGS
// answer is a window of the history, so an ingest inserts the dates it carries and updates
// those whose value changed, and says when each value was first and last changed.
// Dates are "YYYY-MM-DD" text; a value SGS published empty is NULL, never 0.
#pragma once

#include <lastro/sdk/odb_optional.hpp>

#include <cstdint>
#include <optional>
#include <string>

// Version 2 adds the tables of the funds' daily reports as plugin SQL (model/daily_tables.cpp).
#pragma db model version(1, 2)

namespace lastro::series {

#pragma db object table("series_observation")
struct StoredObservation {
#pragma db id auto
    std::int64_t id = 0;
    std::int64_t series_code = 0;      // the SGS code: 11
    std::string date;                  // data, as YYYY-MM-DD
    std::optional<std::string> value;  // valor: decimal text with a point, decimals as published
    std::string first_seen_at;         // RFC 3339 UTC of the ingest that stored the date first
    std::string changed_at;            // ... that stored its current value
#pragma db index("series_observation_code_date_i") unique members(series_code, date)
};

}  // namespace lastro::series
