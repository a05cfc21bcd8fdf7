#include "core/storage/migration.hpp"

#include "core/storage/database.hpp"

#include <odb/schema-catalog.hxx>
#include <odb/transaction.hxx>

namespace lastro::storage {
namespace {

unsigned long long StoredVersion(odb::database& db, const std::string& schema) {
    // ODB reads its schema_version table; a database without it reports version 0.
    return db.schema_version(schema);
}

}  // namespace

MigrationResult MigrateSchema(odb::database& db, const std::string& schema) {
    if (!odb::schema_catalog::exists(db, schema)) {
        throw StorageError("no schema named '" + schema + "' is compiled into this binary or its plugins");
    }
    const unsigned long long binary = odb::schema_catalog::current_version(db, schema);
    MigrationResult result{schema, 0, binary};
    WithWriteTransaction(db, [&] {
        result.from = StoredVersion(db, schema);
        if (result.from > binary) {
            throw StorageError("database schema '" + schema + "' is at version " + std::to_string(result.from) +
                               ", newer than this binary's " + std::to_string(binary) +
                               ": upgrade lastro before using this database");
        }
        if (result.from == 0) {
            odb::schema_catalog::create_schema(db, schema, false);
        } else if (result.from < binary) {
            odb::schema_catalog::migrate(db, binary, schema);
        }
    });
    return result;
}

void RequireCurrentSchema(odb::database& db, const std::string& schema) {
    const unsigned long long binary = odb::schema_catalog::current_version(db, schema);
    unsigned long long stored = 0;
    {
        odb::transaction t(db.begin());
        stored = StoredVersion(db, schema);
        t.commit();
    }
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
                           ", older than this binary's " + std::to_string(binary) + ": run `lastro db migrate`");
    }
}

}  // namespace lastro::storage
