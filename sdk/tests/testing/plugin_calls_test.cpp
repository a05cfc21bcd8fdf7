// The test kit's plugin database and its runs of plugin code: an ingest commits when it returns
// and leaves nothing when it throws; a handler runs inside a transaction with the host given.
#include <lastro/sdk/testing/plugin_calls.hpp>
#include <lastro/sdk/testing/plugin_database.hpp>

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/testing/fake_host.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <odb/transaction.hxx>

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace lastro::sdk::testing {
namespace {

using ::testing::HasSubstr;

// How many rows table `t` holds (the rows an UPDATE of all of them touches).
long long Rows(odb::database& db) {
    odb::transaction transaction(db.begin());
    const long long count = db.execute("UPDATE t SET n = n");
    transaction.commit();
    return count;
}

// Inserts one row per input, then fails when told to.
class InsertingIngester : public Ingester {
public:
    explicit InsertingIngester(bool fail) : fail_(fail) {}
    IngestSummary Run(const IngestContext& context) override {
        context.progress.Stage(context.dataset);
        for (std::size_t i = 0; i < context.inputs.size(); ++i) {
            context.db.execute("INSERT INTO t (n) VALUES (" + std::to_string(i) + ")");
            context.progress.Rows(i + 1);
        }
        if (fail_) {
            throw IngestError("demo.csv", 2, "bad value");
        }
        IngestSummary summary;
        summary.inserted = context.inputs.size();
        summary.release_label = "at-" + std::to_string(context.now);
        return summary;
    }

private:
    bool fail_;
};

class PluginCallsTest : public ::testing::Test {
protected:
    void SetUp() override {
        odb::transaction transaction(database_.Db().begin());
        database_.Db().execute("CREATE TABLE t (n INTEGER)");
        transaction.commit();
    }
    PluginDatabase database_{""};
};

TEST_F(PluginCallsTest, AnIngestThatReturnsIsCommitted) {
    InsertingIngester ingester(false);
    RecordingProgress progress;
    const IngestSummary summary =
        RunIngest(ingester, database_.Db(), "demo.files", {"a.csv", "b.csv"}, 1700000000, &progress);
    EXPECT_EQ(summary.inserted, 2u);
    EXPECT_EQ(summary.release_label, "at-1700000000");
    EXPECT_EQ(progress.Stages(), (std::vector<std::string>{"demo.files"}));
    EXPECT_EQ(progress.LastRows(), 2u);
    EXPECT_EQ(Rows(database_.Db()), 2);
}

TEST_F(PluginCallsTest, AnIngestThatThrowsLeavesNothingAndTheErrorReachesTheCaller) {
    InsertingIngester ingester(true);
    EXPECT_THROW(RunIngest(ingester, database_.Db(), "demo.files", {"a.csv"}, 0), IngestError);
    EXPECT_EQ(Rows(database_.Db()), 0);
}

TEST_F(PluginCallsTest, AHandlerRunsInATransactionWithTheHostAndParameters) {
    FakeHost host;
    host.SetRelease("demo.files", "2026-08");
    Params params;
    params.Set("n", std::int64_t{7});
    const Result result = CallHandler(
        [](const RequestContext& context) {
            EXPECT_TRUE(odb::transaction::has_current());
            Result r;
            r.data = boost::json::value(context.params.Integer("n").value_or(0));
            r.meta.data_release = context.host.LatestRelease("demo.files")->label;
            return r;
        },
        database_.Db(), params, host);
    EXPECT_EQ(result.data, boost::json::value(7));
    EXPECT_EQ(result.meta.data_release, "2026-08");
}

TEST(PluginDatabaseTest, AnUnlinkedSchemaIsNamed) {
    try {
        PluginDatabase database("nosuchplugin");
        FAIL() << "expected an error";
    } catch (const std::runtime_error& e) {
        EXPECT_THAT(e.what(), HasSubstr("no ODB schema 'nosuchplugin' for sqlite is linked into this test"));
    }
}

TEST(PluginDatabaseTest, TheBackendComesFromTheEnvironment) {
    ::unsetenv("LASTRO_TEST_BACKEND");
    EXPECT_EQ(DefaultBackend(), Backend::kSqlite);
    ::setenv("LASTRO_TEST_BACKEND", "postgres", 1);
    EXPECT_EQ(DefaultBackend(), Backend::kPostgres);
    ::setenv("LASTRO_TEST_BACKEND", "mysql", 1);
    EXPECT_THROW(DefaultBackend(), std::runtime_error);
    ::unsetenv("LASTRO_TEST_BACKEND");
}

}  // namespace
}  // namespace lastro::sdk::testing
