// Partial-match search over folded text with a trigram index, as /v1/fundos and /v1/companhias
// serve `q` (docs/storage.md, "Trigram search"). The folded LIKE '%needle%' stays the definition
// of a match; the index only finds the candidates faster, so an answer is the same with or
// without it:
//
// - SQLite: an FTS5 table with the trigram tokenizer over the folded text, looked up with
//   TrigramPhrase(column, needle) (MATCH), then the LIKE drops the rows that hold the trigrams
//   elsewhere than in one run. A needle under three characters has no trigram: scan.
// - PostgreSQL: a pg_trgm GIN index on the folded column serves the LIKE itself.
#pragma once

#include <boost/config.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace lastro::sdk {

// The fewest characters a needle needs for the trigram index.
inline constexpr std::size_t kTrigramNeedle = 3;

// One column filter of an FTS5 expression: `column : ("abc" AND "def" AND ...)`, the trigrams
// starting at every third character of the needle and its last one (double quotes doubled), or
// nullopt when the needle is too short for a trigram or holds a NUL. An index kept without
// positions (detail=column) answers it with a superset of the rows holding the needle.
BOOST_SYMBOL_VISIBLE std::optional<std::string> TrigramPhrase(std::string_view column,
                                                              std::string_view needle);

// `needle` as a LIKE pattern '%needle%' with '\' as the escape character: its '%', '_' and '\'
// match themselves (write the statement with ESCAPE '\').
BOOST_SYMBOL_VISIBLE std::string ContainsPattern(std::string_view needle);

}  // namespace lastro::sdk
