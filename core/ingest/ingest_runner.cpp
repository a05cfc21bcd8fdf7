#include "core/ingest/ingest_runner.hpp"

#include "core/storage/core_model.hxx"
#include "core/storage/database.hpp"
#include "core_model-odb.hxx"

#include <odb/transaction.hxx>

#include <cstdio>
#include <ctime>

namespace lastro::ingest {

IngestOutcome RunIngest(odb::database& db, const plugins::PluginSet& plugins, const std::string& dataset,
                        const std::vector<std::filesystem::path>& inputs, sdk::IngestProgress& progress) {
    const plugins::LoadedPlugin* plugin = plugins.ForDataset(dataset);
    if (!plugin) {
        std::string known;
        for (const auto& p : plugins.Plugins()) {
            for (const auto& ds : p->manifest.datasets) {
                known += (known.empty() ? "" : ", ") + ds.id;
            }
        }
        throw plugins::PluginError("unknown dataset '" + dataset + "' (known: " + known + ")");
    }
    if (inputs.empty()) {
        throw plugins::PluginError("no input files given for " + dataset);
    }
    const std::time_t now = std::time(nullptr);
    IngestOutcome outcome;
    outcome.dataset = dataset;
    odb::transaction t(storage::BeginWrite(db));
    sdk::IngestContext context{dataset, inputs, db, progress, now};
    outcome.summary = plugin->ingesters.at(dataset)->Run(context);

    storage::DataRelease release;
    release.dataset = dataset;
    release.label =
        outcome.summary.release_label.empty() ? storage::Rfc3339(now) : outcome.summary.release_label;
    release.as_of = outcome.summary.as_of;
    release.ingested_at = storage::Rfc3339(now);
    for (const auto& input : inputs) {
        release.files += (release.files.empty() ? "" : ";") + input.filename().string();
    }
    release.rows_read = static_cast<std::int64_t>(outcome.summary.rows_read);
    release.inserted = static_cast<std::int64_t>(outcome.summary.inserted);
    release.updated = static_cast<std::int64_t>(outcome.summary.updated);
    release.removed = static_cast<std::int64_t>(outcome.summary.removed);
    release.rejected = static_cast<std::int64_t>(outcome.summary.rejected);
    db.persist(release);
    t.commit();
    outcome.release_label = release.label;
    return outcome;
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
