// Persistent model of the stocks plugin (docs/README.md). The ODB object is the record of each
// COTAHIST file ingested; the quotes, the corporate actions, B3's issuers and index membership and
// the listing /v1/acoes reads are plugin SQL (model/*_tables.cpp), read and written with
// sdk::SqlSession, because their keysets, partial indexes and bulk loads are not something a
// model can declare.
#pragma once

#include <lastro/sdk/odb_optional.hpp>

#include <cstdint>
#include <optional>
#include <string>

#pragma db model version(1, 1)

namespace lastro::stocks {

// One COTAHIST file applied: what its header and trailer said and what was kept of it.
#pragma db object table("stocks_cotahist_file")
struct CotahistFile {
#pragma db id auto
    std::int64_t id = 0;
    std::string ingested_at;               // RFC 3339 UTC
    std::string source;                    // the file as the ingest named it
    std::string edition;                   // COTAHIST.2016 (the header's file name)
    std::optional<std::string> generated;  // the header's generation date, YYYY-MM-DD
    std::optional<std::string> first_day;
    std::optional<std::string> last_day;
    std::int64_t records = 0;                      // quote records read
    std::optional<std::int64_t> declared_records;  // the trailer's count (header and trailer included)
    std::int64_t kept = 0;                         // cash-market lines stored
    std::int64_t dropped = 0;                      // options, forwards, futures, auctions... left out
};

}  // namespace lastro::stocks
