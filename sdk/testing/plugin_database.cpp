#include <lastro/sdk/testing/plugin_database.hpp>

#include <lastro/sdk/schema_sql.hpp>
#include <lastro/sdk/testing/shared_resources.hpp>

#include <odb/pgsql/database.hxx>
#include <odb/schema-catalog.hxx>
#include <odb/sqlite/database.hxx>

#include <atomic>
#include <cstdlib>
#include <random>
#include <stdexcept>

namespace lastro::sdk::testing {
namespace {

void Execute(const std::string& conninfo, const std::string& sql) {
    odb::pgsql::database admin(conninfo);
    odb::transaction transaction(admin.begin());
    admin.execute(sql);
    transaction.commit();
}

// The extensions plugins create (pg_trgm: the funds plugin's search index). Each test works in
// a schema of its own that it drops with CASCADE at the end; an extension a plugin created
// there would go with it, and with it every other test's index that uses it. So the test
// database has them in `public` from the start and the plugins' CREATE EXTENSION IF NOT EXISTS
// finds them there.
const char* const kTestExtensions[] = {"pg_trgm"};

// The conninfo of the database that holds this process's test schemas: LASTRO_TEST_PGSQL, or a
// database of the shared cluster made on first use.
std::string TestServer() {
    static const std::string conninfo = [] {
        std::string made;
        if (const char* given = std::getenv("LASTRO_TEST_PGSQL"); given && *given) {
            made = given;
        } else {
            PostgresCluster& cluster = SharedResources::Get().Postgres();
            cluster.CreateDatabase("lastro_plugin_tests");
            made = cluster.Conninfo("lastro_plugin_tests");
        }
        for (const char* extension : kTestExtensions) {
            Execute(made, std::string("CREATE EXTENSION IF NOT EXISTS ") + extension + " SCHEMA public");
        }
        return made;
    }();
    return conninfo;
}

}  // namespace

Backend DefaultBackend() {
    const char* name = std::getenv("LASTRO_TEST_BACKEND");
    if (!name || !*name || std::string(name) == "sqlite") {
        return Backend::kSqlite;
    }
    if (std::string(name) == "postgres") {
        return Backend::kPostgres;
    }
    throw std::runtime_error("LASTRO_TEST_BACKEND is '" + std::string(name) +
                             "'; expected sqlite or postgres");
}

PluginDatabase::PluginDatabase(const std::string& schema, Backend backend)
    : backend_(backend), dir_("lastro-plugin-db-") {
    if (backend == Backend::kPostgres) {
        static std::atomic<int> counter{0};
        std::random_device random;
        pg_conninfo_ = TestServer();
        pg_schema_ = "plugin_test_" + std::to_string(random() % 1000000) + "_" + std::to_string(++counter);
        Execute(pg_conninfo_, "CREATE SCHEMA " + pg_schema_);
        db_ = std::make_unique<odb::pgsql::database>(pg_conninfo_ + " options='-c search_path=" + pg_schema_ +
                                                     "'");
    } else {
        db_ = std::make_unique<odb::sqlite::database>((Dir() / "plugin.db").string(),
                                                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    }
    if (schema.empty()) {
        return;
    }
    if (!odb::schema_catalog::exists(*db_, schema)) {
        throw std::runtime_error("no ODB schema '" + schema + "' for " + BackendName(backend) +
                                 " is linked into this test (lastro_odb_model SCHEMA " + schema + ")");
    }
    odb::transaction transaction(db_->begin());
    odb::schema_catalog::create_schema(*db_, schema);
    RunSchemaSql(*db_, schema, 0, odb::schema_catalog::current_version(*db_, schema));
    transaction.commit();
}

PluginDatabase::~PluginDatabase() {
    db_.reset();
    if (!pg_schema_.empty()) {
        try {
            Execute(pg_conninfo_, "DROP SCHEMA " + pg_schema_ + " CASCADE");
        } catch (const std::exception&) {
            // The cluster may be gone already at the end of the run; it takes the schema with it.
        }
    }
}

}  // namespace lastro::sdk::testing
