// Runs one dataset's ingester inside one write transaction and records its data release in
// that same transaction: an ingest succeeds whole or leaves the database as it was.
#pragma once

#include "core/plugins/plugin_set.hpp"

#include <lastro/sdk/plugin.hpp>

#include <odb/database.hxx>

#include <filesystem>
#include <string>
#include <vector>

namespace lastro::ingest {

struct IngestOutcome {
    sdk::IngestSummary summary;
    std::string dataset;
    std::string release_label;
};

// Throws sdk::IngestError for bad input files, plugins::PluginError for an unknown dataset.
IngestOutcome RunIngest(odb::database& db, const plugins::PluginSet& plugins, const std::string& dataset,
                        const std::vector<std::filesystem::path>& inputs, sdk::IngestProgress& progress);

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
