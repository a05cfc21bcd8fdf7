// The full-size sample's documents and ANBIMA subclasses (`lastro sample --scale full`) read back
// by their ingesters. Its CDA month (about 240,000 positions) is read back by `lastro ingest`
// in docs/performance.md ("Full-size CDA, documents and ANBIMA"): too slow for a unit test in a
// debug build.
#include "anbima_test_files.hpp"
#include "documents_test_files.hpp"
#include "sample/anbima_writer.hpp"
#include "sample/documents_writer.hpp"
#include "sample/sample.hpp"
#include "sample/universe.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace lastro::funds::testing {
namespace {

class FullSizeSampleIngestTest : public ScratchDatabaseTest {};

TEST_F(FullSizeSampleIngestTest, DocumentsAndAnbimaSubclassesOfTheFullSizeUniverse) {
    const sample::Universe universe =
        sample::BuildUniverse(sample::kDefaultSeed, sample::UniverseSize::kFull);
    const fs::path dir = Dir("full");

    const sample::DocumentFiles documents = sample::RenderDocuments(universe);
    std::vector<fs::path> years;
    for (const auto& file : documents.files) {
        years.push_back(dir / file.name);
        WriteFile(years.back(), file.bytes);
    }
    const sdk::IngestSummary read_documents = IngestDocuments(Db(), years);
    EXPECT_GT(documents.documents, 20'000u);
    EXPECT_EQ(read_documents.inserted, documents.documents);
    EXPECT_EQ(read_documents.rejected, 0u);

    const sample::AnbimaFile anbima = sample::RenderAnbimaSubclasses(universe, sample::UniverseSize::kFull);
    WriteFile(dir / std::string(kAnbimaFileName), anbima.bytes);
    const sdk::IngestSummary read_anbima = IngestAnbima(Db(), {dir / std::string(kAnbimaFileName)});
    EXPECT_GT(anbima.rows, 3'000u);
    EXPECT_EQ(read_anbima.inserted, anbima.rows);
    EXPECT_EQ(read_anbima.rejected, 0u);
}

}  // namespace
}  // namespace lastro::funds::testing
