#include "core/ingest/ingest_runner.hpp"

#include "core/ingest/run_outcomes.hpp"

#include "core/storage/core_model.hxx"
#include "core/storage/database.hpp"
#include "core_model-odb.hxx"

#include <odb/transaction.hxx>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <stdexcept>

namespace lastro::ingest {
namespace {

double SecondsSince(std::chrono::steady_clock::time_point started) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

std::string KnownDatasets(const plugins::PluginSet& plugins) {
    std::string known;
    for (const auto& p : plugins.Plugins()) {
        for (const auto& ds : p->manifest.datasets) {
            known += (known.empty() ? "" : ", ") + ds.id;
        }
    }
    return known;
}

const plugins::LoadedPlugin& PluginOf(const plugins::PluginSet& plugins, const std::string& dataset) {
    const plugins::LoadedPlugin* plugin = plugins.ForDataset(dataset);
    if (!plugin) {
        throw plugins::PluginError("unknown dataset '" + dataset + "' (known: " + KnownDatasets(plugins) +
                                   ")");
    }
    return *plugin;
}

// Records the release of `outcome` in the open transaction.
void RecordRelease(odb::database& db, IngestOutcome& outcome, const std::string& files, std::time_t now) {
    storage::DataRelease release;
    release.dataset = outcome.dataset;
    release.label =
        outcome.summary.release_label.empty() ? storage::Rfc3339(now) : outcome.summary.release_label;
    release.as_of = outcome.summary.as_of;
    release.ingested_at = storage::Rfc3339(now);
    release.files = files;
    release.rows_read = static_cast<std::int64_t>(outcome.summary.rows_read);
    release.inserted = static_cast<std::int64_t>(outcome.summary.inserted);
    release.updated = static_cast<std::int64_t>(outcome.summary.updated);
    release.removed = static_cast<std::int64_t>(outcome.summary.removed);
    release.rejected = static_cast<std::int64_t>(outcome.summary.rejected);
    if (db.id() == odb::id_pgsql) {
        // Release ids commit in the order they are drawn: a reader that has seen the newest id
        // has seen every release up to it (the response cache and ReleaseCache rely on it). The
        // lock conflicts with itself, not with reads, and lasts until this ingest commits.
        db.execute("LOCK TABLE core_data_release IN SHARE ROW EXCLUSIVE MODE");
    }
    db.persist(release);
    outcome.release_label = release.label;
}

void Derive(odb::database& db, const plugins::PluginSet& plugins, const std::string& source,
            const std::optional<std::vector<std::string>>& periods, sdk::IngestProgress& progress,
            std::time_t now, IngestOutcomes& outcomes);

// Runs, in the open transaction, the derivation of `dataset` from `source` for `periods`,
// records its release, then what derives from `dataset`; appends each run to `outcomes`.
void DeriveOne(odb::database& db, const plugins::PluginSet& plugins, const plugins::LoadedPlugin& plugin,
               const std::string& dataset, const std::string& source,
               const std::optional<std::vector<std::string>>& periods, sdk::IngestProgress& progress,
               std::time_t now, IngestOutcomes& outcomes) {
    progress.Stage("deriving " + dataset + " from " + source);
    const sdk::DerivationContext context{dataset, source, periods, db, *plugin.services, progress, now};
    IngestOutcome outcome;
    outcome.dataset = dataset;
    outcome.source = source;
    const auto started = std::chrono::steady_clock::now();
    try {
        outcome.summary = plugin.derivations.at(dataset)->Run(context);
        outcome.seconds = SecondsSince(started);
    } catch (const std::exception& e) {
        // The open transaction rolls back with the exception: the source's ingest too.
        throw std::runtime_error("deriving " + dataset + " from " + source +
                                 " failed, so nothing was ingested: " + e.what());
    }
    RecordRelease(db, outcome, "derived from " + source + " (" + DescribePeriods(periods) + ")", now);
    const auto derived_periods = outcome.summary.periods;
    outcomes.push_back(std::move(outcome));
    Derive(db, plugins, dataset, derived_periods, progress, now, outcomes);
}

// Everything derived from `source`, for the periods its ingest changed; nothing when it
// changed none.
void Derive(odb::database& db, const plugins::PluginSet& plugins, const std::string& source,
            const std::optional<std::vector<std::string>>& periods, sdk::IngestProgress& progress,
            std::time_t now, IngestOutcomes& outcomes) {
    if (periods && periods->empty()) {
        return;
    }
    for (const plugins::DerivationStep& step : plugins.DerivedFrom(source)) {
        DeriveOne(db, plugins, *step.plugin, step.dataset->id, source, periods, progress, now, outcomes);
    }
}

}  // namespace

std::string DescribePeriods(const std::optional<std::vector<std::string>>& periods) {
    if (!periods) {
        return "every period";
    }
    if (periods->empty()) {
        return "no period";
    }
    std::string text;
    for (const std::string& p : *periods) {
        text += (text.empty() ? "" : ", ") + p;
    }
    return text;
}

IngestOutcomes RunIngest(odb::database& db, const plugins::PluginSet& plugins, const std::string& dataset,
                         const std::vector<std::filesystem::path>& inputs, sdk::IngestProgress& progress) {
    const plugins::LoadedPlugin& plugin = PluginOf(plugins, dataset);
    if (const plugins::DatasetSpec* spec = plugins.Dataset(dataset); spec && spec->Derived()) {
        throw plugins::PluginError("dataset '" + dataset + "' is derived from " + spec->derived_from.front() +
                                   ": it is rebuilt when its source is ingested (or by `lastro derive " +
                                   dataset + "`), not read from files");
    }
    if (inputs.empty()) {
        throw plugins::PluginError("no input files given for " + dataset);
    }
    const std::time_t now = std::time(nullptr);
    IngestOutcomes outcomes(1);
    IngestOutcome& outcome = outcomes.front();
    outcome.dataset = dataset;
    try {
        odb::transaction t(storage::BeginWrite(db));
        sdk::IngestContext context{dataset, inputs, db, progress, now};
        const auto started = std::chrono::steady_clock::now();
        outcome.summary = plugin.ingesters.at(dataset)->Run(context);
        outcome.seconds = SecondsSince(started);
        std::string files;
        for (const auto& input : inputs) {
            files += (files.empty() ? "" : ";") + input.filename().string();
        }
        RecordRelease(db, outcome, files, now);
        const auto periods = outcome.summary.periods;
        Derive(db, plugins, dataset, periods, progress, now, outcomes);
        t.commit();
    } catch (const std::exception& e) {
        // Rolled back whole by now; only the metrics remember that it was tried.
        RecordRunOutcomes(db, "ingest", dataset, {{"failed", 1}}, e.what());
        throw;
    }
    return outcomes;
}

IngestOutcomes RunDerivation(odb::database& db, const plugins::PluginSet& plugins, const std::string& dataset,
                             sdk::IngestProgress& progress) {
    const plugins::LoadedPlugin& plugin = PluginOf(plugins, dataset);
    const plugins::DatasetSpec* spec = plugins.Dataset(dataset);
    if (!spec || !spec->Derived()) {
        throw plugins::PluginError("dataset '" + dataset +
                                   "' is read from files, not derived: use `lastro ingest " + dataset +
                                   " PATH...`");
    }
    const std::time_t now = std::time(nullptr);
    IngestOutcomes outcomes;
    odb::transaction t(storage::BeginWrite(db));
    // One run rebuilds every period from all its sources as they stand: once, not once per source.
    DeriveOne(db, plugins, plugin, dataset, spec->derived_from.front(), std::nullopt, progress, now,
              outcomes);
    t.commit();
    return outcomes;
}

ConsoleProgress::~ConsoleProgress() {
    if (terminal_ && dirty_) {
        std::fputs("\n", stderr);
    }
}

void ConsoleProgress::Stage(const std::string& what) {
    if (terminal_ && dirty_) {
        std::fputs("\n", stderr);
    }
    stage_ = what;
    dirty_ = false;
    if (!terminal_) {
        std::fprintf(stderr, "reading %s\n", what.c_str());
    }
}

void ConsoleProgress::Rows(std::size_t rows_read) {
    if (terminal_) {
        std::fprintf(stderr, "\r%s: %zu rows", stage_.c_str(), rows_read);
        std::fflush(stderr);
        dirty_ = true;
    }
}

}  // namespace lastro::ingest
