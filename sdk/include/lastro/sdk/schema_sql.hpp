// SQL a plugin's schema needs beyond what its ODB model can say: full-text virtual tables and
// the triggers that keep them in sync, indexes with an operator class (PostgreSQL's GIN
// trigram indexes), extensions. A plugin declares the statements next to its model, one entry
// per (schema, model version, backend), as a static object in its library, the way the ODB
// compiler registers the schema itself:
//
//   static const sdk::SchemaSql kSearchSqlite("funds", 4, odb::id_sqlite, {
//       "CREATE VIRTUAL TABLE IF NOT EXISTS funds_fund_search USING fts5(...)", ...});
//
// `lastro db migrate` runs them in the transaction that creates or migrates the schema, after
// ODB has brought its tables to the binary's version: on a new database every entry up to the
// model's current version, in version order; on a database at version N, the entries of the
// versions above N (they see the schema at the binary's version, not at their own). The test
// kit's plugin database (sdk/testing) runs them too, so a plugin's tests see the schema lastro
// serves. Write them idempotent (IF NOT EXISTS). docs/storage.md, "Plugin SQL".
#pragma once

#include <odb/database.hxx>
#include <odb/forward.hxx>

#include <cstddef>
#include <string>
#include <vector>

namespace lastro::sdk {

class SchemaSql {
public:
    SchemaSql(std::string schema, unsigned long long version, odb::database_id backend,
              std::vector<std::string> statements);
    SchemaSql(const SchemaSql&) = delete;
    SchemaSql& operator=(const SchemaSql&) = delete;
    ~SchemaSql();
};

// Runs, inside the caller's transaction, the statements registered for `schema` and `db`'s
// backend with from < version <= to, in version order then in declaration order. Returns how
// many statements ran.
std::size_t RunSchemaSql(odb::database& db, const std::string& schema, unsigned long long from,
                         unsigned long long to);

}  // namespace lastro::sdk
