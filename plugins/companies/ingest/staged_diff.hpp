// A stage (a temporary table an ingester loaded in bulk) compared with the stored rows it
// replaces: the counts an ingest's summary reports, and the stored rows the stage no longer has
// removed. The documents' indexes and the forms' rows are applied this way.
#pragma once

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/plugin.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace lastro::companies {

struct StagedDiff {
    std::string target;            // the stored table: "companies_document"
    std::string stage;             // the staged rows: "companies_document_stage"
    std::vector<std::string> key;  // the columns a row is matched on, in both
    std::string kind;              // the stored rows' kind ("ipe", "fre"...), the first part of their key
    std::string scope;             // which stored rows the stage replaces: "year = 2025" (of that kind)
    std::string unchanged;         // when a matched row is unchanged: "o.fingerprint = n.fingerprint"
};

// Adds inserted, updated, unchanged and removed to `summary`, deletes the stored rows of the
// scope that the stage lacks, and returns how many staged rows differ from the stored ones (to
// write: 0 when the stage changes nothing).
std::size_t CountAndRemoveGone(sdk::SqlSession& sql, const StagedDiff& diff, sdk::IngestSummary& summary);

}  // namespace lastro::companies
