// `lastro sync [DATASET...]` (docs/sync.md): fetch every file the manifests' `sync:` declare,
// keep what changed, and ingest each dataset's changed files in one transaction (with the
// derivations they trigger), in the order the plugins load. What was fetched and ingested is
// remembered in <data_dir>/sync/state.json (validators and content hash per URL), written only
// after the ingest committed, so a failed ingest is tried again by the next run.
#pragma once

#include "core/ingest/ingest_runner.hpp"
#include "core/runtime/runtime.hpp"
#include "core/sync/fetcher.hpp"

#include <functional>
#include <string>
#include <vector>

namespace lastro::sync {

struct SyncResult {
    std::size_t fetched = 0;
    std::size_t unchanged = 0;
    std::size_t not_published = 0;
    std::vector<std::string> errors;  // one line each, naming the dataset and the URL or ingest
};

struct SyncOutput {
    std::function<void(const std::string&)> line;                 // one per file
    std::function<void(const ingest::IngestOutcomes&)> ingested;  // one per dataset ingested
};

// `datasets` empty: every dataset with `sync:`. A named dataset that is unknown or has no
// `sync:` throws SyncError before anything is fetched. `today` is the UTC date
// ("YYYY-MM-DD") the periods count back from.
SyncResult RunSync(runtime::Runtime& runtime, const std::vector<std::string>& datasets,
                   const std::string& today, const Fetcher& fetcher, const SyncOutput& output);

}  // namespace lastro::sync
