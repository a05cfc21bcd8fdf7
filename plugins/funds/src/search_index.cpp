#include "src/search_index.hpp"

#include "funds_model-odb.hxx"

#include <lastro/sdk/schema_sql.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <algorithm>
#include <vector>

namespace lastro::funds {
namespace {

// funds schema version 4 (model/funds_model.hxx), beside ODB's tables and indexes.
//
// SQLite: the trigram table holds the universe's funds only, keyed by registry_id (stable across
// re-ingests and VACUUM, unlike funds_fund's own rowid); the triggers keep it in the writer's
// transaction; the last two statements fill it from a database migrated from version 3.
const sdk::SchemaSql kSqliteSearchIndex(
    "funds", 4, odb::id_sqlite,
    {
        "CREATE VIRTUAL TABLE IF NOT EXISTS funds_fund_search"
        " USING fts5(search_text, manager, administrator, tokenize = 'trigram')",
        "CREATE TRIGGER IF NOT EXISTS funds_fund_search_insert AFTER INSERT ON funds_fund"
        " WHEN new.fidc_universe BEGIN"
        " INSERT INTO funds_fund_search(rowid, search_text, manager, administrator)"
        " VALUES (new.registry_id, new.search_text, new.manager_folded, new.administrator_folded);"
        " END",
        "CREATE TRIGGER IF NOT EXISTS funds_fund_search_delete AFTER DELETE ON funds_fund"
        " WHEN old.fidc_universe BEGIN"
        " DELETE FROM funds_fund_search WHERE rowid = old.registry_id;"
        " END",
        "CREATE TRIGGER IF NOT EXISTS funds_fund_search_update AFTER UPDATE ON funds_fund BEGIN"
        " DELETE FROM funds_fund_search WHERE rowid = old.registry_id;"
        " INSERT INTO funds_fund_search(rowid, search_text, manager, administrator)"
        " SELECT new.registry_id, new.search_text, new.manager_folded, new.administrator_folded"
        " WHERE new.fidc_universe;"
        " END",
        "DELETE FROM funds_fund_search",
        "INSERT INTO funds_fund_search(rowid, search_text, manager, administrator)"
        " SELECT registry_id, search_text, manager_folded, administrator_folded FROM funds_fund"
        " WHERE fidc_universe",
    });

// funds 12, SQLite: the trigram table again with detail=column, which keeps of each trigram the
// rows and columns holding it, not its positions. A needle is then looked up as its trigrams ANDed
// (TrigramPhrase) instead of as a phrase, which needs the positions: a superset of the phrase's
// rows, and the folded LIKE decides as before. The index is smaller and a lookup reads less
// (docs/performance.md, "Search: trigrams without positions").
const sdk::SchemaSql kSqliteSearchIndexColumns(
    "funds", 12, odb::id_sqlite,
    {
        "DROP TABLE IF EXISTS funds_fund_search",
        "CREATE VIRTUAL TABLE funds_fund_search"
        " USING fts5(search_text, manager, administrator, tokenize = 'trigram', detail = column)",
        "INSERT INTO funds_fund_search(rowid, search_text, manager, administrator)"
        " SELECT registry_id, search_text, manager_folded, administrator_folded FROM funds_fund"
        " WHERE fidc_universe",
    });

// PostgreSQL: pg_trgm (in Debian's postgresql-17; a trusted extension, so the database's owner
// may create it) and one GIN trigram index per column. The operator class is named in the
// schema that holds the extension, which need not be on lastro's search_path. fastupdate off:
// a registry ingest writes the index entries at once instead of a pending list that every search
// reads until the next vacuum (with it, right after an ingest, PostgreSQL rightly preferred a
// sequential scan; the registry is a few thousand rows a day, so the ingest's cost is small).
const sdk::SchemaSql kPgsqlSearchIndex(
    "funds", 4, odb::id_pgsql,
    {
        "CREATE EXTENSION IF NOT EXISTS pg_trgm",
        "DO $$ DECLARE ops text; BEGIN"
        " SELECT quote_ident(n.nspname) || '.gin_trgm_ops' INTO ops FROM pg_extension e"
        " JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm';"
        " EXECUTE 'CREATE INDEX IF NOT EXISTS funds_fund_search_text_trgm_i ON funds_fund"
        " USING gin (search_text ' || ops || ') WITH (fastupdate = off)';"
        " EXECUTE 'CREATE INDEX IF NOT EXISTS funds_fund_manager_trgm_i ON funds_fund"
        " USING gin (manager_folded ' || ops || ') WITH (fastupdate = off)';"
        " EXECUTE 'CREATE INDEX IF NOT EXISTS funds_fund_administrator_trgm_i ON funds_fund"
        " USING gin (administrator_folded ' || ops || ') WITH (fastupdate = off)';"
        " END $$",
    });

// The byte offsets where the UTF-8 characters of `text` begin.
std::vector<std::size_t> CharacterStarts(std::string_view utf8) {
    std::vector<std::size_t> starts;
    for (std::size_t i = 0; i < utf8.size(); ++i) {
        if ((static_cast<unsigned char>(utf8[i]) & 0xC0) != 0x80) {
            starts.push_back(i);
        }
    }
    return starts;
}

}  // namespace

std::optional<std::string> TrigramPhrase(std::string_view column, std::string_view needle) {
    const std::vector<std::size_t> starts = CharacterStarts(needle);
    if (starts.size() < kTrigramNeedle || needle.find('\0') != std::string_view::npos) {
        return std::nullopt;
    }
    // The trigrams starting at every third character, and the last one: together they cover the
    // needle, and a row holding them all is a candidate. Fewer trigrams than all of them read
    // fewer lists; the LIKE drops the rows that hold them elsewhere than in one run.
    const std::size_t last = starts.size() - kTrigramNeedle;
    std::string phrase(column);
    phrase += " : (";
    for (std::size_t first = 0;; first = std::min(first + kTrigramNeedle, last)) {
        const std::size_t end =
            first + kTrigramNeedle < starts.size() ? starts[first + kTrigramNeedle] : needle.size();
        if (first > 0) {
            phrase += " AND ";
        }
        phrase += '"';
        for (char c : needle.substr(starts[first], end - starts[first])) {
            if (c == '"') {
                phrase += '"';
            }
            phrase += c;
        }
        phrase += '"';
        if (first == last) {
            break;
        }
    }
    phrase += ')';
    return phrase;
}

std::vector<std::int64_t> TrigramCandidates(odb::database& db, const std::string& expression,
                                            std::size_t most) {
    // The expression is an SQL string literal here (single quotes doubled): a native view takes
    // no bound value outside a column comparison.
    std::string literal = "'";
    for (char c : expression) {
        if (c == '\'') {
            literal += '\'';
        }
        literal += c;
    }
    literal += '\'';
    using Query = odb::query<FundSearchMatch>;
    std::vector<std::int64_t> ids;
    for (const FundSearchMatch& match : db.query<FundSearchMatch>(
             Query("funds_fund_search MATCH " + literal + " LIMIT " + std::to_string(most + 1)))) {
        ids.push_back(match.registry_id);
    }
    return ids;
}

}  // namespace lastro::funds
