// Persistent model of the companies plugin (docs/README.md). The ODB objects are the ingests'
// own records; the registry's tables are plugin SQL (model/registry_tables.cpp) because the
// search index over them (FTS5 on SQLite, pg_trgm on PostgreSQL) is not something a model can
// declare, and the handlers read them with sdk::SqlSession.
#pragma once

#include <lastro/sdk/odb_optional.hpp>

#include <cstdint>
#include <optional>
#include <string>

// Version 2 adds the document indexes' table as plugin SQL (model/document_tables.cpp); version 3
// the structured filings' tables (FRE, FCA), the datasets derived from them and the delivery a
// document's versions share (model/filing_tables.cpp); version 4 the CRI/CRA certificates' and
// offerings' tables (model/issuance_tables.cpp).
#pragma db model version(1, 4)

namespace lastro::companies {

// One applied registry snapshot (cad_cia_aberta.csv): the situation history says in which
// snapshots each situation of a company was seen.
#pragma db object table("companies_registry_snapshot")
struct RegistrySnapshot {
#pragma db id
    std::int64_t id = 0;                    // 1, 2, ... in the order they were ingested
    std::string ingested_at;                // RFC 3339 UTC
    std::string source;                     // the file as the ingest named it
    std::optional<std::string> written_at;  // the file's modification time, RFC 3339 UTC
    std::int64_t companies = 0;             // rows kept (one per CD_CVM)
    std::int64_t duplicates = 0;            // rows the one-row-per-code rule left out
};

}  // namespace lastro::companies
