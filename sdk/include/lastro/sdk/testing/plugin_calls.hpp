// Running a plugin's code the way the host runs it: an ingest or a derivation in one write
// transaction (committed when it returns, rolled back when it throws), a handler in a read
// transaction.
#pragma once

#include <lastro/sdk/plugin.hpp>

#include <boost/json/value.hpp>

#include <cstddef>
#include <ctime>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace odb {
class database;
}

namespace lastro::sdk::testing {

// The progress an ingest reported.
class RecordingProgress : public IngestProgress {
public:
    void Stage(const std::string& what) override { stages_.push_back(what); }
    void Rows(std::size_t rows_read) override { last_rows_ = rows_read; }

    const std::vector<std::string>& Stages() const { return stages_; }
    std::size_t LastRows() const { return last_rows_; }

private:
    std::vector<std::string> stages_;
    std::size_t last_rows_ = 0;
};

// Runs `ingester` for `dataset` on `inputs` with the clock at `now`. The exception of a failed
// ingest (IngestError for bad input) reaches the caller after the rollback.
IngestSummary RunIngest(Ingester& ingester, odb::database& db, const std::string& dataset,
                        const std::vector<std::filesystem::path>& inputs, std::time_t now,
                        IngestProgress* progress = nullptr);

// Runs `derivation` of `dataset` for `periods` of `source` (nullopt: every period).
IngestSummary RunDerivation(Derivation& derivation, odb::database& db, const std::string& dataset,
                            const std::string& source, const std::optional<std::vector<std::string>>& periods,
                            const Services& services, std::time_t now, IngestProgress* progress = nullptr);

// Calls `handler` with typed `params` (as the host hands them over, after checking them against
// the manifest), the decoded cursor position and `host`. An answer written as text
// (Result::data_json) is also parsed into `data`, so that tests read every answer alike.
Result CallHandler(const Handler& handler, odb::database& db, const Params& params, const Host& host,
                   const std::optional<boost::json::value>& cursor_position = std::nullopt,
                   const std::string& operation_id = "test.operation");

}  // namespace lastro::sdk::testing
