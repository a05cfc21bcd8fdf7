// Runs one dataset's ingester inside one write transaction and records its data release in
// that same transaction, then, in the same transaction, the derivations of every dataset
// computed from it (and from those, in turn) for the periods the ingest changed: an ingest and
// its derivations succeed whole or leave the database as it was (docs/plugins.md).
#pragma once

#include "core/plugins/plugin_set.hpp"

#include <lastro/sdk/plugin.hpp>

#include <odb/database.hxx>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace lastro::ingest {

struct IngestOutcome {
    sdk::IngestSummary summary;
    std::string dataset;
    std::string release_label;
    std::string source;  // for a derivation: the dataset whose ingest triggered it
    double seconds = 0;  // the ingester's or derivation's own run, without what it triggered
};

// The ingest first, then each derivation it triggered, in the order they ran.
using IngestOutcomes = std::vector<IngestOutcome>;

// Throws sdk::IngestError for bad input files, plugins::PluginError for an unknown or derived
// dataset.
IngestOutcomes RunIngest(odb::database& db, const plugins::PluginSet& plugins, const std::string& dataset,
                         const std::vector<std::filesystem::path>& inputs, sdk::IngestProgress& progress);

// Rebuilds a derived dataset whole from its sources as they are (after a plugin is installed
// on a database that already holds its sources), then what derives from it.
IngestOutcomes RunDerivation(odb::database& db, const plugins::PluginSet& plugins, const std::string& dataset,
                             sdk::IngestProgress& progress);

// "2026-07, 2026-08", or "every period".
std::string DescribePeriods(const std::optional<std::vector<std::string>>& periods);

// Progress on a terminal (one rewritten line) or as plain lines otherwise.
class ConsoleProgress : public sdk::IngestProgress {
public:
    explicit ConsoleProgress(bool terminal) : terminal_(terminal) {}
    ~ConsoleProgress() override;
    void Stage(const std::string& what) override;
    void Rows(std::size_t rows_read) override;

private:
    bool terminal_;
    std::string stage_;
    bool dirty_ = false;
};

}  // namespace lastro::ingest
