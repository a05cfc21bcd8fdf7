// The text index behind `q`, `manager` and `administrator` of /v1/fundos (docs/api/registry.md,
// "Search"; docs/performance.md, "Query plans (issue 21)" and "Eleventh round").
//
// The three filters are partial matches on text the ingester folded (case, accents: FoldedText
// in domain/registry/registry_rules.hpp) and stored in funds_fund.search_text,
// manager_folded and administrator_folded. The folded LIKE stays the definition of a match; the
// index only finds the candidates faster, so the answer is the same with or without it:
//
// - SQLite: the universe's funds are copied, with those texts and their status, into search
//   rows (FundSearchRow, funds 15) keyed by a page key that grows with fund_id, so that rowid
//   order is the order of a page. `funds_fund_search` is an FTS5 table with the trigram
//   tokenizer over the three texts, its content the search rows and its rowid their page key,
//   kept by triggers on them. A needle of three characters or more is looked up as the trigrams
//   that cover it; the index yields the rows holding them all in page order, from the cursor's
//   key on, and the page's statement stops at its last row. A needle of one or two characters
//   has no trigram: the search rows are walked in page order, testing it, and the walk stops at
//   the page's end. Search rows are narrow (no item), so a walk reads few pages.
// - PostgreSQL: pg_trgm GIN indexes on funds_fund's three columns, which serve the LIKE itself.
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

// A floor of the page keys of `fund_id` and of every id after it: its first 63 bits (its first
// 16 hex digits, halved), which grow with the id; nullopt unless it starts as a lowercase UUID.
std::optional<std::int64_t> PageKeyFloor(std::string_view fund_id);

// The page keys of fund ids given in increasing order: each its floor, or one more than the
// key before when two ids share their first 63 bits, so keys are unique and in id order.
// Throws std::invalid_argument naming an id that is not a lowercase UUID or out of order.
std::vector<std::int64_t> PageKeys(const std::vector<std::string>& sorted_fund_ids);

// SQLite: makes the search rows (and through their triggers the trigram index) those of the
// registry the database holds, writing only the rows that differ; returns how many it wrote or
// erased. Does nothing on PostgreSQL. Runs inside the caller's transaction (the registry
// ingest's, the migration to funds 15's).
std::size_t RebuildSearchRows(odb::database& db);

}  // namespace lastro::funds
