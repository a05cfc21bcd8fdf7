// A company's row of /v1/companhias, written as JSON once per ingest (docs/api/companhias.md):
// the handler concatenates stored items instead of converting columns on every call.
#pragma once

#include "domain/registry/company_record.hpp"

#include <optional>
#include <string>
#include <vector>

namespace lastro::companies {

// One situation a company was seen in across the registry snapshots.
struct SituationSeen {
    std::optional<std::string> situation;  // SIT
    std::optional<std::string> since;      // DT_INI_SIT
    std::string first_seen_at;             // the first snapshot that showed it: its file's date,
                                           // else its ingest's (YYYY-MM-DD)
};

struct ItemStamps {
    std::string first_seen_at;  // RFC 3339: the ingest that first listed the company
    std::string updated_at;     // RFC 3339: the ingest that last changed its published row
};

// The item's JSON object; `history` ordered by `since` (the registry's own dates).
std::string CompanyItemJson(const CompanyRecord& record, const std::vector<SituationSeen>& history,
                            const ItemStamps& stamps);

}  // namespace lastro::companies
