// The host's own tables (schema "core"): API keys, data releases, run outcomes and server
// settings. Billing's tables are schema "billing" (billing_model.hxx); plugins own theirs.
// Model version history: 1 = first release; 2 = ledger entries name the instance that
// reserved them, per-minute call windows shared by every instance (core_rate_window); 3 = what
// ingests and syncs did that left no release (core_run_outcome); 4 = the ledger, usage and
// call windows move to schema "billing" (`lastro db migrate` copies them there first). Bump `current` and
// commit the regenerated core_model.xml changelog when a persistent class changes (docs/storage.md).
#pragma once

#include <lastro/sdk/odb_optional.hpp>

#include <cstdint>
#include <optional>
#include <string>

#pragma db model version(1, 4)

namespace lastro::storage {

#pragma db object table("core_api_key")
struct ApiKey {
#pragma db id auto
    std::int64_t id = 0;
    std::string name;
    // First characters of the key, safe to show ("lst_3f9a1c2e").
    std::string display_prefix;
#pragma db unique
    std::string secret_hash;  // SHA-256 of the whole key, hex; the key itself is never stored
    // Comma-separated scopes, or "*" for every scope.
    std::string scopes;
    std::optional<std::int64_t> monthly_credits;   // null: the policy's default
    std::optional<std::int64_t> calls_per_minute;  // null: the policy's default
    std::string created_at;
    std::optional<std::string> revoked_at;
};

#pragma db object table("core_data_release")
struct DataRelease {
#pragma db id auto
    std::int64_t id = 0;
#pragma db index
    std::string dataset;
    std::string label;
    std::optional<std::string> as_of;
    std::string ingested_at;
    std::string files;
    std::int64_t rows_read = 0;
    std::int64_t inserted = 0;
    std::int64_t updated = 0;
    std::int64_t removed = 0;
    std::int64_t rejected = 0;
};

// The id of the newest release of any dataset. Releases are never deleted and ids only grow,
// so it changes exactly when an ingest commits: the response cache's generation.
#pragma db view object(DataRelease)
struct NewestRelease {
#pragma db column("max(" + DataRelease::id + ")")
    std::optional<std::int64_t> id;
};

// Per dataset: how many releases (successful ingests) there are, and the newest one's id; for
// the metrics of the data's freshness (core/metrics/release_collector.hpp).
#pragma db view object(DataRelease) query((?) + "GROUP BY" + DataRelease::dataset)
struct DatasetReleases {
#pragma db column(DataRelease::dataset)
    std::string dataset;
#pragma db column("count(" + DataRelease::id + ")")
    std::int64_t releases = 0;
#pragma db column("max(" + DataRelease::id + ")")
    std::int64_t newest_id = 0;
};

// What a run of `lastro ingest` or `lastro sync` did that a release does not show: failed ingests
// (which leave nothing else, being one transaction) and the sync's files by outcome; one row per
// dataset and outcome of a run, written in a transaction of its own after the run's
// (core/ingest/run_outcomes.hpp), read by the metrics.
#pragma db object table("core_run_outcome")
struct RunOutcome {
#pragma db id auto
    std::int64_t id = 0;
#pragma db index
    std::string dataset;
    std::string command;  // "ingest" or "sync"
    // ingest: "failed"; sync: "fetched", "unchanged", "not_published", "failed" (files)
    std::string outcome;
    std::int64_t count = 0;
    std::string at;      // RFC 3339, UTC
    std::string detail;  // a failure's message, at most 500 bytes; empty otherwise
};

// Per dataset, command and outcome: how many, and when last.
#pragma db view object(RunOutcome) \
    query((?) + "GROUP BY" + RunOutcome::dataset + "," + RunOutcome::command + "," + RunOutcome::outcome)
struct RunOutcomeTotals {
#pragma db column(RunOutcome::dataset)
    std::string dataset;
#pragma db column(RunOutcome::command)
    std::string command;
#pragma db column(RunOutcome::outcome)
    std::string outcome;
#pragma db column("CAST(sum(" + RunOutcome::count + ") AS BIGINT)")
    std::int64_t count = 0;
#pragma db column("max(" + RunOutcome::at + ")")
    std::string last_at;
};

#pragma db object table("core_setting")
struct Setting {
#pragma db id
    std::string name;
    std::string value;
};

}  // namespace lastro::storage
