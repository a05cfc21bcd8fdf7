// Creates or migrates one ODB schema ("core" or a plugin's name) and refuses a database whose
// recorded schema version is newer than this binary knows.
#pragma once

#include <odb/database.hxx>

#include <string>

namespace lastro::storage {

struct MigrationResult {
    std::string schema;
    unsigned long long from = 0;  // 0: the schema did not exist
    unsigned long long to = 0;
};

// The version of `schema` recorded in `db`; 0 when it was never created.
unsigned long long StoredSchemaVersion(odb::database& db, const std::string& schema);

// Whether this binary or a loaded plugin's library compiled in an ODB schema named `schema`.
bool HasSchema(odb::database& db, const std::string& schema);

// Throws StorageError "database schema 'funds' is at version 3, newer than this binary's 2".
MigrationResult MigrateSchema(odb::database& db, const std::string& schema);

// Throws StorageError unless `schema` exists at exactly the binary's version (used at server
// start: the server never migrates by itself).
void RequireCurrentSchema(odb::database& db, const std::string& schema);

}  // namespace lastro::storage
