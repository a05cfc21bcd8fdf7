#include "core/ingest/run_outcomes.hpp"

#include "core/storage/database.hpp"
#include "core_model-odb.hxx"

#include <ctime>
#include <exception>
#include <iostream>

namespace lastro::ingest {

void RecordRunOutcomes(odb::database& db, const std::string& command, const std::string& dataset,
                       const std::vector<std::pair<std::string, std::int64_t>>& counts,
                       const std::string& detail) {
    try {
        const std::string at = storage::Rfc3339(std::time(nullptr));
        storage::WithWriteTransaction(db, [&] {
            for (const auto& [outcome, count] : counts) {
                if (count == 0) {
                    continue;
                }
                storage::RunOutcome row;
                row.dataset = dataset;
                row.command = command;
                row.outcome = outcome;
                row.count = count;
                row.at = at;
                row.detail = detail.substr(0, 500);
                db.persist(row);
            }
        });
    } catch (const std::exception& e) {
        std::cerr << "lastro: " << dataset << ": the " << command
                  << " outcome could not be recorded for the metrics: " << e.what() << "\n";
    }
}

}  // namespace lastro::ingest
