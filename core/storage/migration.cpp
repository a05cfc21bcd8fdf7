#include "core/storage/migration.hpp"

#include "core/storage/database.hpp"

#include <lastro/sdk/schema_sql.hpp>
#include <lastro/sdk/statement_cache.hpp>

#include <odb/schema-catalog.hxx>
#include <odb/transaction.hxx>

namespace lastro::storage {
// Read in a transaction of its own: on PostgreSQL a failed SELECT of a missing table aborts the
// transaction it runs in, which must not be the one that then creates the schema.
unsigned long long StoredSchemaVersion(odb::database& db, const std::string& schema) {
    odb::transaction t(db.begin());
    const unsigned long long version = db.schema_version(schema);
    t.rollback();
    return version;
}

bool HasSchema(odb::database& db, const std::string& schema) {
    return odb::schema_catalog::exists(db, schema);
}

MigrationResult MigrateSchema(odb::database& db, const std::string& schema) {
    if (!odb::schema_catalog::exists(db, schema)) {
        throw StorageError("no schema named '" + schema + "' is compiled into this binary or its plugins");
    }
    const unsigned long long binary = odb::schema_catalog::current_version(db, schema);
    MigrationResult result{schema, StoredSchemaVersion(db, schema), binary};
    if (result.from > binary) {
        throw StorageError("database schema '" + schema + "' is at version " + std::to_string(result.from) +
                           ", newer than this binary's " + std::to_string(binary) +
                           ": upgrade lastro before using this database");
    }
    WithWriteTransaction(db, [&] {
        if (result.from == 0) {
            odb::schema_catalog::create_schema(db, schema, false);
        } else if (result.from < binary) {
            odb::schema_catalog::migrate(db, binary, schema);
        }
        // What the model cannot say (virtual tables, triggers, extension indexes): the plugin's
        // own statements of the versions this step crossed (sdk/schema_sql.hpp).
        sdk::RunSchemaSql(db, schema, result.from, binary);
        // The versions just set leave statements of the old ones in this connection's cache.
        sdk::CatchUpStatementCache(odb::transaction::current().connection());
    });
    return result;
}

void RequireCurrentSchema(odb::database& db, const std::string& schema) {
    const unsigned long long binary = odb::schema_catalog::current_version(db, schema);
    const unsigned long long stored = StoredSchemaVersion(db, schema);
    if (stored == 0) {
        throw StorageError("database schema '" + schema + "' does not exist: run `lastro db migrate`");
    }
    if (stored > binary) {
        throw StorageError("database schema '" + schema + "' is at version " + std::to_string(stored) +
                           ", newer than this binary's " + std::to_string(binary) +
                           ": upgrade lastro before using this database");
    }
    if (stored < binary) {
        throw StorageError("database schema '" + schema + "' is at version " + std::to_string(stored) +
                           ", older than this binary's " + std::to_string(binary) +
                           ": run `lastro db migrate`");
    }
}

}  // namespace lastro::storage
