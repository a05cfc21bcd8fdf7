// The text index behind `q`, `manager` and `administrator` of /v1/fundos (docs/api/registry.md,
// "Search"; docs/performance.md, "Query plans (issue 21)").
//
// The three filters are partial matches on text the ingester folded (case, accents: FoldedText
// in ingest/registro_fundo_classe/registry_rules.hpp) and stored in funds_fund.search_text,
// manager_folded and administrator_folded. The folded LIKE stays the definition of a match; the
// index only finds the candidates faster, so the answer is the same with or without it:
//
// - SQLite: `funds_fund_search`, an FTS5 table with the trigram tokenizer over the three
//   columns of the FIDC universe's funds, its rowid the fund's registry_id, kept in sync by
//   triggers on funds_fund (so a registry re-ingest, one transaction, updates it with the rows).
//   A needle of three characters or more is looked up as the trigrams that cover it, which the
//   index answers with the rows holding them all (case folded; a superset of the LIKE's matches).
// - PostgreSQL: pg_trgm GIN indexes on the three columns, which serve the LIKE itself.
//
// A needle of one or two characters has no trigram: it is matched by the LIKE while walking the
// universe in fund_id order (the index funds_fund_universe_i, which holds the folded texts, so
// the walk reads the index alone and fetches the matching rows), and stops at the page's end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace odb {
class database;
}

namespace lastro::funds {

// The fewest characters a needle needs for the trigram index.
inline constexpr std::size_t kTrigramNeedle = 3;
// SQLite: trigram candidates read by registry id and sorted, at most this many per row of the
// page asked; above, the walk in fund_id order answers (src/search.cpp).
inline constexpr std::size_t kMostCandidatesPerRow = 4;

// One column filter of an FTS5 expression: `column : ("abc" AND "def" AND ...)`, the trigrams
// starting at every third character of the needle and its last one (double quotes doubled), or
// nullopt when the needle is too short for a trigram or holds a NUL. The index keeps no
// positions (funds 12, detail=column), so the rows holding them all are a superset of those
// holding the needle.
std::optional<std::string> TrigramPhrase(std::string_view column, std::string_view needle);

// SQLite: the registry ids of the universe's funds matching `expression` (phrases joined with
// AND), at most `most` + 1 of them (one more tells that there are more than `most`).
std::vector<std::int64_t> TrigramCandidates(odb::database& db, const std::string& expression,
                                            std::size_t most);

}  // namespace lastro::funds
