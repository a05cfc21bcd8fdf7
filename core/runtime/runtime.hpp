// Start-up shared by lastrod and the lastro CLI: configuration, database, plugins (with the
// host's built-in operations) and the server settings kept in the database.
#pragma once

#include "core/config/config.hpp"
#include "core/plugins/plugin_set.hpp"
#include "core/storage/migration.hpp"

#include <odb/database.hxx>

#include <memory>
#include <string>
#include <vector>

namespace lastro::runtime {

inline constexpr const char* kDefaultConfigFile = "/etc/lastro/lastro.yaml";

struct Runtime {
    config::Config config;
    std::unique_ptr<odb::database> db;          // the data: core's and the plugins' schemas
    std::unique_ptr<odb::database> billing_db;  // SQLite: billing's own file; null on PostgreSQL
    std::unique_ptr<plugins::PluginSet> plugins;

    // Where schema "billing" is (the ledger, usage, call windows): its own file on SQLite, the
    // one database on PostgreSQL.
    odb::database& Billing() const { return billing_db ? *billing_db : *db; }

    ~Runtime();  // plugins stop and go before the database closes
};

// Loads the configuration (LASTRO_CONFIG or the default file), opens the database and loads
// the plugins. Throws with a one-line message naming what is wrong.
std::unique_ptr<Runtime> Boot(bool open_database = true);

// Creates or migrates the billing schema (moving billing's rows out of an older core), the core
// schema and every plugin's schema, and makes sure the cursor
// signing secret is in its file (cursor_secret.hpp: created, or moved out of the database).
std::vector<storage::MigrationResult> MigrateAll(Runtime& runtime);

// Verifies every schema is at this binary's version (the server never migrates by itself).
void RequireMigrated(Runtime& runtime);

}  // namespace lastro::runtime
