// sdk::CachedQuery across a schema version change, on both databases: ODB drops a connection's
// statements when the version moves, so a query cached before the change is prepared again and
// answers from the current statements, and one prepared after it (before ODB noticed) survives
// the next object lookup. The prepares a tracer counts show the first; the second shows as a read
// of freed memory under the asan preset or valgrind. Uses core's own model, the host's.
#include "core/storage/core_model.hxx"
#include "core/storage/database.hpp"
#include "core/storage/migration.hpp"

#include "core_model-odb.hxx"

#include <lastro/sdk/cached_query.hpp>
#include <lastro/sdk/testing/postgres_cluster.hpp>

#include <gtest/gtest.h>
#include <odb/statement.hxx>
#include <odb/tracer.hxx>
#include <odb/transaction.hxx>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

namespace lastro::storage {
namespace {

// Counts the queries prepared on core_data_release.
class PrepareCounter : public odb::tracer {
public:
    void prepare(odb::connection&, const odb::statement& statement) override {
        const std::string text = statement.text();
        if (text.starts_with("SELECT") && text.find("core_data_release") != std::string::npos) {
            ++prepared;
        }
    }
    void execute(odb::connection&, const char*) override {}
    int prepared = 0;
};

struct OfDataset {
    std::string dataset;
};

// The cached view: the dataset's count of releases and newest id.
std::vector<DatasetReleases> ReleasesOf(odb::database& db, const std::string& dataset) {
    using Query = odb::query<DatasetReleases>;
    auto q = sdk::CachedQuery<DatasetReleases, OfDataset>(
        db, "core.test.releases_of",
        [](const OfDataset& p) { return Query::dataset == Query::_ref(p.dataset); });
    q.params.dataset = dataset;
    std::vector<DatasetReleases> rows;
    for (const DatasetReleases& row : q.Execute()) {
        rows.push_back(row);
    }
    return rows;
}

// The cached object query: the labels of the dataset's releases, oldest first.
std::vector<std::string> LabelsOf(odb::database& db, const std::string& dataset) {
    using Query = odb::query<DataRelease>;
    auto q = sdk::CachedQuery<DataRelease, OfDataset>(db, "core.test.labels_of", [](const OfDataset& p) {
        return (Query::dataset == Query::_ref(p.dataset)) + "ORDER BY" + Query::id;
    });
    q.params.dataset = dataset;
    std::vector<std::string> labels;
    for (const DataRelease& release : q.Execute()) {
        labels.push_back(release.label);
    }
    return labels;
}

void AddRelease(odb::database& db, const std::string& dataset, const std::string& label) {
    DataRelease release;
    release.dataset = dataset;
    release.label = label;
    release.ingested_at = "2026-11-27T00:00:00Z";
    release.files = "[]";
    db.persist(release);
}

// Marks the schema as being migrated, as the first half of each step of a migration does: ODB
// moves the version sequence.
void MoveSchemaSequence(odb::database& db) {
    const unsigned int before = db.schema_version_sequence();
    db.schema_version_migration(db.schema_version("core"), true, "core");
    ASSERT_GT(db.schema_version_sequence(), before);
}

void CachedQueriesFollowTheSchemaVersion(odb::database& db) {
    MigrateSchema(db, "core");
    PrepareCounter counter;
    odb::transaction transaction(BeginWrite(db));
    transaction.tracer(counter);
    AddRelease(db, "funds", "2026-09");
    AddRelease(db, "funds", "2026-10");
    const int before = counter.prepared;

    ASSERT_EQ(ReleasesOf(db, "funds").size(), 1u);
    ASSERT_EQ(LabelsOf(db, "funds"), (std::vector<std::string>{"2026-09", "2026-10"}));
    ASSERT_EQ(ReleasesOf(db, "funds").size(), 1u);
    EXPECT_EQ(counter.prepared, before + 2) << "a cached query was prepared again without a version change";

    // Prepared again after the change; the view first, so its statements are made before any
    // object lookup, which then must not drop them.
    MoveSchemaSequence(db);
    std::vector<DatasetReleases> releases = ReleasesOf(db, "funds");
    AddRelease(db, "funds", "2026-11");
    EXPECT_EQ(LabelsOf(db, "funds"), (std::vector<std::string>{"2026-09", "2026-10", "2026-11"}));
    releases = ReleasesOf(db, "funds");
    ASSERT_EQ(releases.size(), 1u);
    EXPECT_EQ(releases[0].dataset, "funds");
    EXPECT_EQ(releases[0].releases, 3);
    EXPECT_EQ(counter.prepared, before + 4) << "each cached query is prepared once per version";
    EXPECT_TRUE(ReleasesOf(db, "industry").empty());
    transaction.commit();
}

TEST(CachedQueryVersions, OnSqlite) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                      ("lastro-cached-query-" + std::to_string(std::random_device{}()));
    {
        config::DatabaseConfig config;
        config.sqlite_path = dir / "test.db";
        std::unique_ptr<odb::database> db = OpenDatabase(config);
        CachedQueriesFollowTheSchemaVersion(*db);
    }
    std::filesystem::remove_all(dir);
}

TEST(CachedQueryVersions, OnPostgres) {
    std::unique_ptr<sdk::testing::PostgresCluster> cluster = sdk::testing::PostgresCluster::Start();
    config::DatabaseConfig config;
    config.backend = config::Backend::kPgsql;
    config.pgsql_conninfo = cluster->Conninfo("postgres");
    config.pool_size = 1;
    std::unique_ptr<odb::database> db = OpenDatabase(config);
    CachedQueriesFollowTheSchemaVersion(*db);
}

}  // namespace
}  // namespace lastro::storage
