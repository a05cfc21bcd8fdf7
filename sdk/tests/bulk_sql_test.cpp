// sdk::SqlSession and sdk::BulkLoader on both backends: parameters, NULLs, text that COPY must
// escape, counts, and failures thrown as ODB throws them.
#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/testing/backend.hpp>
#include <lastro/sdk/testing/plugin_database.hpp>

#include <gtest/gtest.h>
#include <odb/exceptions.hxx>
#include <odb/transaction.hxx>

#include <string>
#include <vector>

namespace lastro::sdk {
namespace {

using testing::Backend;
using testing::PluginDatabase;

class BulkSqlTest : public ::testing::TestWithParam<Backend> {
protected:
    BulkSqlTest() : database_("", GetParam()) {
        odb::transaction transaction(database_.Db().begin());
        SqlSession(database_.Db())
            .Execute("CREATE TABLE bulk_t (id INTEGER PRIMARY KEY, name TEXT, amount TEXT)");
        transaction.commit();
    }

    odb::database& Db() { return database_.Db(); }

    PluginDatabase database_;
};

TEST_P(BulkSqlTest, LoadsRowsWithTheTextCopyMustEscapeAndNulls) {
    const std::vector<std::string> names = {
        "tab\there", "line\nbreak", "back\\slash", "carriage\rreturn", "ÍNDICE ação", "\\N", ""};
    odb::transaction transaction(Db().begin());
    BulkLoader load(Db(), "bulk_t", {"id", "name", "amount"});
    for (std::size_t i = 0; i < names.size(); ++i) {
        const std::string id = std::to_string(i + 1);
        load.Add({id, names[i], i % 2 == 0 ? SqlValue("1.500000000000") : std::nullopt});
    }
    EXPECT_EQ(load.Finish(), names.size());
    const SqlRows rows = SqlSession(Db()).Query("SELECT id, name, amount FROM bulk_t ORDER BY id");
    transaction.commit();

    ASSERT_EQ(rows.size(), names.size());
    for (std::size_t i = 0; i < names.size(); ++i) {
        EXPECT_EQ(rows[i][0], std::to_string(i + 1));
        EXPECT_EQ(rows[i][1], names[i]) << i;  // "\\N" is text, "" is empty text: neither is NULL
        if (i % 2 == 0) {
            EXPECT_EQ(rows[i][2], "1.500000000000");  // decimals as given
        } else {
            EXPECT_EQ(rows[i][2], std::nullopt);
        }
    }
}

TEST_P(BulkSqlTest, ParametersAreNumberedAlikeOnBothBackendsAndCountChanges) {
    odb::transaction transaction(Db().begin());
    SqlSession sql(Db());
    EXPECT_EQ(
        sql.Execute("INSERT INTO bulk_t (id, name, amount) VALUES ($1, $2, $3)", {"1", "a$1", std::nullopt}),
        1u);
    EXPECT_EQ(sql.Execute("INSERT INTO bulk_t (id, name, amount) VALUES (2, '$2 stays', $1)", {"7"}), 1u);
    EXPECT_EQ(sql.Execute("UPDATE bulk_t SET amount = $1 WHERE id >= $2", {"9", "1"}), 2u);
    const SqlRows rows = sql.Query("SELECT name, amount FROM bulk_t WHERE id = $2 OR name = $1 ORDER BY id",
                                   {"$2 stays", "1"});
    EXPECT_EQ(sql.Execute("SELECT count(*) FROM bulk_t"), 0u);  // a query changes nothing
    transaction.commit();

    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0][0], "a$1");
    EXPECT_EQ(rows[1][0], "$2 stays");
    EXPECT_EQ(rows[1][1], "9");
}

TEST_P(BulkSqlTest, AFailedLoadThrowsAsOdbDoesAndLeavesNothing) {
    {
        odb::transaction transaction(Db().begin());
        BulkLoader load(Db(), "bulk_t", {"id", "name"});
        load.Add({"1", "first"});
        EXPECT_THROW(
            {
                // SQLite refuses at the row, PostgreSQL at the end of the COPY.
                load.Add({"1", "the same key"});
                load.Add({"2", "third"});
                load.Finish();
            },
            odb::database_exception);
        transaction.rollback();
    }
    {
        odb::transaction transaction(Db().begin());
        BulkLoader load(Db(), "bulk_t", {"id", "name"});
        EXPECT_THROW(load.Add({"1"}), std::invalid_argument);
        load.Add({"5", "abandoned"});
        // destroyed without Finish(): the load is abandoned
    }
    odb::transaction transaction(Db().begin());
    EXPECT_EQ(SqlSession(Db()).Query("SELECT count(*) FROM bulk_t")[0][0], "0");
    transaction.commit();
}

TEST(BulkSqlQuoting, QuotesIdentifiers) {
    EXPECT_EQ(QuoteIdentifier("series_value_202401"), "\"series_value_202401\"");
    EXPECT_EQ(QuoteIdentifier("a\"b"), "\"a\"\"b\"");
}

INSTANTIATE_TEST_SUITE_P(Backends, BulkSqlTest, ::testing::Values(Backend::kSqlite, Backend::kPostgres),
                         [](const auto& info) { return testing::BackendName(info.param); });

}  // namespace
}  // namespace lastro::sdk
