// Test support for anbima.subclasses: anbima_subclasses.csv in Lastro's interchange layout
// (UTF-8, ';', the exact header of docs/datasets/anbima_subclasses.md), and the ingester run in
// one write transaction as the host runs it.
#pragma once

#include "ingest/anbima_subclasses/anbima_ingester.hpp"
#include "registry_fixture.hpp"
#include "src/class_reports.hpp"

#include <string>
#include <vector>

namespace lastro::funds::testing {

inline std::vector<std::string> AnbimaHeader() {
    return {kAnbimaColumns.begin(), kAnbimaColumns.end()};
}

// The file as UTF-8 lines, header first.
struct AnbimaFile {
    std::vector<std::string> lines{std::string(kAnbimaHeader)};

    void Row(const Fields& fields) { lines.push_back(Line(AnbimaHeader(), fields)); }

    fs::path Write(const fs::path& dir, const std::string& line_end = "\n") const {
        std::string text;
        for (const std::string& line : lines) {
            text += line + line_end;
        }
        const fs::path path = dir / "anbima_subclasses.csv";
        WriteFile(path, text);
        return path;
    }
};

inline sdk::IngestSummary IngestAnbima(odb::database& db, const std::vector<fs::path>& inputs) {
    AnbimaIngester ingester;
    return sdk::testing::RunIngest(ingester, db, std::string(kAnbimaDataset), inputs, SnapshotTime());
}

}  // namespace lastro::funds::testing
