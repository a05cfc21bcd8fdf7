#include "domain/search/search_index.hpp"

#include "funds_model-odb.hxx"

#include <lastro/sdk/data_migration.hpp>
#include <lastro/sdk/schema_sql.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>
#include <utility>
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
// (sdk::TrigramPhrase) instead of as a phrase, which needs the positions: a superset of the phrase's
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

// funds 15, SQLite: the trigram table over the search rows (FundSearchRow), its rowid their page
// key, so that it yields matches in page order. External content: the texts are read from the
// search rows, not kept twice; the triggers on them keep the index in the writer's transaction,
// and the old ones on funds_fund go. Rebuilt from the search rows, which the migration to 15
// (RebuildSearchRows, below) has just written.
const sdk::SchemaSql kSqliteSearchIndexInPageOrder(
    "funds", 15, odb::id_sqlite,
    {
        "DROP TRIGGER IF EXISTS funds_fund_search_insert",
        "DROP TRIGGER IF EXISTS funds_fund_search_delete",
        "DROP TRIGGER IF EXISTS funds_fund_search_update",
        "DROP TABLE IF EXISTS funds_fund_search",
        "CREATE VIRTUAL TABLE funds_fund_search"
        " USING fts5(search_text, manager_folded, administrator_folded, tokenize = 'trigram',"
        " detail = column, content = 'funds_fund_search_row', content_rowid = 'page_key')",
        "CREATE TRIGGER funds_fund_search_row_insert AFTER INSERT ON funds_fund_search_row BEGIN"
        " INSERT INTO funds_fund_search(rowid, search_text, manager_folded, administrator_folded)"
        " VALUES (new.page_key, new.search_text, new.manager_folded, new.administrator_folded);"
        " END",
        "CREATE TRIGGER funds_fund_search_row_delete AFTER DELETE ON funds_fund_search_row BEGIN"
        " INSERT INTO funds_fund_search(funds_fund_search, rowid, search_text, manager_folded,"
        " administrator_folded)"
        " VALUES ('delete', old.page_key, old.search_text, old.manager_folded, old.administrator_folded);"
        " END",
        "CREATE TRIGGER funds_fund_search_row_update AFTER UPDATE ON funds_fund_search_row BEGIN"
        " INSERT INTO funds_fund_search(funds_fund_search, rowid, search_text, manager_folded,"
        " administrator_folded)"
        " VALUES ('delete', old.page_key, old.search_text, old.manager_folded, old.administrator_folded);"
        " INSERT INTO funds_fund_search(rowid, search_text, manager_folded, administrator_folded)"
        " VALUES (new.page_key, new.search_text, new.manager_folded, new.administrator_folded);"
        " END",
        "INSERT INTO funds_fund_search(funds_fund_search) VALUES ('rebuild')",
    });

void FillOnMigration(odb::database& db) {
    RebuildSearchRows(db);
}
const sdk::DataMigration<15> kFillOnMigration("funds", &FillOnMigration);

bool SameRow(const FundSearchRow& a, const FundSearchRow& b) {
    return a.page_key == b.page_key && a.registry_id == b.registry_id && a.fund_id == b.fund_id &&
           a.search_text == b.search_text && a.manager_folded == b.manager_folded &&
           a.administrator_folded == b.administrator_folded && a.status_folded == b.status_folded;
}

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

}  // namespace

std::optional<std::int64_t> PageKeyFloor(std::string_view fund_id) {
    // xxxxxxxx-xxxx-xxxx-: 16 hex digits, the dashes where a UUID has them.
    constexpr std::size_t kPrefix = 19;
    if (fund_id.size() < kPrefix) {
        return std::nullopt;
    }
    std::uint64_t bits = 0;
    for (std::size_t i = 0; i < kPrefix; ++i) {
        const char c = fund_id[i];
        if (i == 8 || i == 13 || i == 18) {
            if (c != '-') {
                return std::nullopt;
            }
        } else if (c >= '0' && c <= '9') {
            bits = bits << 4 | static_cast<std::uint64_t>(c - '0');
        } else if (c >= 'a' && c <= 'f') {
            bits = bits << 4 | static_cast<std::uint64_t>(c - 'a' + 10);
        } else {
            return std::nullopt;
        }
    }
    return static_cast<std::int64_t>(bits >> 1);
}

std::vector<std::int64_t> PageKeys(const std::vector<std::string>& sorted_fund_ids) {
    std::vector<std::int64_t> keys;
    keys.reserve(sorted_fund_ids.size());
    for (std::size_t i = 0; i < sorted_fund_ids.size(); ++i) {
        const std::string& id = sorted_fund_ids[i];
        const std::optional<std::int64_t> floor = PageKeyFloor(id);
        if (!floor) {
            throw std::invalid_argument("fund id " + id + " is not a lowercase UUID");
        }
        if (i == 0) {
            keys.push_back(*floor);
            continue;
        }
        if (!(sorted_fund_ids[i - 1] < id)) {
            throw std::invalid_argument("fund id " + id + " is not after " + sorted_fund_ids[i - 1]);
        }
        if (keys.back() == std::numeric_limits<std::int64_t>::max()) {
            throw std::invalid_argument("no page key is left for fund id " + id);
        }
        keys.push_back(std::max(*floor, keys.back() + 1));
    }
    return keys;
}

std::size_t RebuildSearchRows(odb::database& db) {
    if (db.id() != odb::id_sqlite) {
        return 0;
    }
    std::vector<FundListRow> funds;
    for (FundListRow& fund :
         db.query<FundListRow>(odb::query<FundListRow>(odb::query<Fund>::fidc_universe == true))) {
        funds.push_back(std::move(fund));
    }
    std::sort(funds.begin(), funds.end(),
              [](const FundListRow& a, const FundListRow& b) { return a.fund_id < b.fund_id; });
    std::vector<std::string> ids;
    ids.reserve(funds.size());
    for (const FundListRow& fund : funds) {
        ids.push_back(fund.fund_id);
    }
    const std::vector<std::int64_t> keys = PageKeys(ids);
    std::map<std::int64_t, FundSearchRow> wanted;
    for (std::size_t i = 0; i < funds.size(); ++i) {
        FundListRow& fund = funds[i];
        wanted.emplace(keys[i],
                       FundSearchRow{keys[i], fund.registry_id, std::move(fund.fund_id),
                                     std::move(fund.search_text), std::move(fund.manager_folded),
                                     std::move(fund.administrator_folded), std::move(fund.status_folded)});
    }
    // Rows that go or change their key first: a fund's registry id is unique among the rows.
    std::map<std::int64_t, FundSearchRow> stored;
    for (FundSearchRow& row : db.query<FundSearchRow>()) {
        stored.emplace(row.page_key, std::move(row));
    }
    std::size_t written = 0;
    for (const auto& [key, row] : stored) {
        auto found = wanted.find(key);
        if (found == wanted.end() || found->second.registry_id != row.registry_id) {
            db.erase<FundSearchRow>(key);
            ++written;
        }
    }
    for (const auto& [key, row] : wanted) {
        auto found = stored.find(key);
        if (found == stored.end() || found->second.registry_id != row.registry_id) {
            db.persist(row);
            ++written;
        } else if (!SameRow(found->second, row)) {
            db.update(row);
            ++written;
        }
    }
    return written;
}

}  // namespace lastro::funds
