// What a run of `lastro ingest` or `lastro sync` did that no release shows (a failed ingest leaves
// nothing else: it is one transaction), kept in core_run_outcome for the metrics
// (docs/operations.md, "Metrics").
#pragma once

#include <odb/database.hxx>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace lastro::ingest {

// One row per outcome with a non-zero count, in a write transaction of its own, to be called
// after the run's own transaction ended. Never throws: when the database cannot take the rows
// (perhaps why the run failed) it says so on stderr, and the run's own error stands.
void RecordRunOutcomes(odb::database& db, const std::string& command, const std::string& dataset,
                       const std::vector<std::pair<std::string, std::int64_t>>& counts,
                       const std::string& detail = "");

}  // namespace lastro::ingest
