// A plugin's data migration, on SQLite and on PostgreSQL: rows a new model version derives from
// rows already stored (answers written at ingest, blocks of a ranking, ...), written when a
// database is migrated to that version. Declared as a static object in the plugin's library,
// beside the code that writes those rows at ingest, so that both write the same:
//
//   void FillOnMigration(odb::database& db) { RebuildQuotaAnswers(db); }
//   const sdk::DataMigration<9> kFillOnMigration("funds", &FillOnMigration);
//
// `lastro db migrate` runs `fill` inside the migration's transaction, once the tables are at
// `Version` (ODB's data migration functions; ODB 2.4's data_migration_entry cannot take a
// database id in C++11 mode, hence one registration per database). `fill` sees the rows of the
// version before and writes with the newest code: a later version that changes what it writes
// moves the registration there. docs/storage.md, "Schemas and migrations". The step that
// reaches `Version` has just set it, so the statements earlier steps left are dropped before
// `fill` runs (statement_cache.hpp).
#pragma once

#include <lastro/sdk/statement_cache.hpp>

#include <odb/database.hxx>
#include <odb/schema-catalog.hxx>
#include <odb/schema-version.hxx>
#include <odb/transaction.hxx>

namespace lastro::sdk {

template <odb::schema_version Version, odb::schema_version Base = 1>
class DataMigration {
public:
    DataMigration(const char* schema, void (*fill)(odb::database&)) {
        auto run = [fill](odb::database& db) {
            CatchUpStatementCache(odb::transaction::current().connection());
            fill(db);
        };
        odb::schema_catalog::data_migration_function<Version, Base>(odb::id_sqlite, run, schema);
        odb::schema_catalog::data_migration_function<Version, Base>(odb::id_pgsql, run, schema);
    }
    DataMigration(const DataMigration&) = delete;
    DataMigration& operator=(const DataMigration&) = delete;
};

}  // namespace lastro::sdk
