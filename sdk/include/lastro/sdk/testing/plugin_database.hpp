// A plugin's own database for its unit tests: a fresh SQLite file, or a PostgreSQL schema of its
// own, holding the plugin's ODB schema and nothing else (a plugin reads only its own tables, and
// other plugins' data through their services). The schema is created from the ODB schema catalog
// linked into the test, as `lastro db migrate` creates it.
#pragma once

#include <lastro/sdk/testing/backend.hpp>
#include <lastro/sdk/testing/temp_dir.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>
#include <odb/transaction.hxx>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace lastro::sdk::testing {

// The backend PluginDatabase uses when not told: PostgreSQL when LASTRO_TEST_BACKEND is
// `postgres`, SQLite when it is `sqlite` or unset; anything else throws, naming the value.
Backend DefaultBackend();

class PluginDatabase {
public:
    // `schema`: the ODB schema to create, the plugin's name (lastro_odb_model's SCHEMA); its
    // generated code must be linked into the test. Empty: no schema, an empty database.
    // On PostgreSQL the database is a schema of its own (dropped afterwards) in the server of
    // LASTRO_TEST_PGSQL (a key=value libpq conninfo), else in the throwaway cluster of
    // SharedResources, started on first use. Throws std::runtime_error naming what failed.
    explicit PluginDatabase(const std::string& schema, Backend backend = DefaultBackend());
    ~PluginDatabase();
    PluginDatabase(const PluginDatabase&) = delete;
    PluginDatabase& operator=(const PluginDatabase&) = delete;

    // The dynamic interface, as the host hands it to the plugin.
    odb::database& Db() { return *db_; }
    Backend GetBackend() const { return backend_; }
    // A scratch directory of this database's own (for input files), removed with it.
    const std::filesystem::path& Dir() const { return dir_.Path(); }
    // Dir()/name, created on first use.
    std::filesystem::path Subdir(const std::string& name) const { return dir_.Subdir(name); }

private:
    Backend backend_;
    TempDir dir_;
    std::unique_ptr<odb::database> db_;
    std::string pg_conninfo_;
    std::string pg_schema_;
};

// Every row of T, read in a transaction of its own.
template <typename T>
std::vector<T> AllRows(odb::database& db) {
    std::vector<T> rows;
    odb::transaction transaction(db.begin());
    odb::result<T> result(db.query<T>());
    for (const T& row : result) {
        rows.push_back(row);
    }
    transaction.commit();
    return rows;
}

}  // namespace lastro::sdk::testing
