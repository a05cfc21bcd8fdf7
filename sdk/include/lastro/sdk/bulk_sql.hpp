// Plain SQL and bulk loads on the current transaction's connection, SQLite or PostgreSQL, for
// datasets of millions of rows that an ODB object per row would make slow (the funds' daily
// reports: ~570,000 rows a month, ~100 million in the whole history). docs/storage.md,
// "Bulk SQL".
//
//   sdk::SqlSession sql(db);
//   sql.Execute("CREATE TEMP TABLE stage (cnpj TEXT, day INTEGER, quota TEXT)");
//   sdk::BulkLoader load(db, "stage", {"cnpj", "day", "quota"});
//   load.Add({"12345678000190", "20240102", std::nullopt});   // text values; nullopt is NULL
//   load.Finish();
//   sql.Query("SELECT count(*) FROM stage WHERE day >= $1", {"20240101"});
//
// Statements take parameters as $1, $2... on both backends (the SQLite text is given ?1, ?2...),
// bound as text: write SQL both backends read alike, and say a type where PostgreSQL cannot
// infer one ($1::integer). Errors are thrown as ODB throws them (odb::database_exception), so the
// host's transaction handling sees a failed statement like any other.
#pragma once

#include <boost/config.hpp>

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace odb {
class database;
}

namespace lastro::sdk {

enum class SqlBackend { kSqlite, kPostgres };

// Each row's values as the database prints them, nullopt for NULL.
using SqlRows = std::vector<std::vector<std::optional<std::string>>>;
using SqlValue = std::optional<std::string_view>;

class BOOST_SYMBOL_VISIBLE SqlSession {
public:
    // On the connection of the transaction current on this thread (std::logic_error without one).
    explicit SqlSession(odb::database& db);

    SqlBackend Backend() const { return backend_; }
    bool IsPostgres() const { return backend_ == SqlBackend::kPostgres; }

    // Runs one statement; returns the rows it changed (INSERT, UPDATE, DELETE), else 0.
    std::uint64_t Execute(std::string_view sql, std::initializer_list<SqlValue> params = {});
    std::uint64_t Execute(std::string_view sql, std::span<const SqlValue> params);
    // Runs one statement and returns its rows.
    SqlRows Query(std::string_view sql, std::initializer_list<SqlValue> params = {});
    SqlRows Query(std::string_view sql, std::span<const SqlValue> params);

private:
    odb::database& db_;
    SqlBackend backend_;
};

// Appends rows to one table: a prepared INSERT reused row after row on SQLite, COPY FROM STDIN
// on PostgreSQL. Nothing else may run on the connection until Finish(); a loader destroyed
// without Finish() abandons the load (on PostgreSQL the COPY fails, and so does the transaction).
class BOOST_SYMBOL_VISIBLE BulkLoader {
public:
    BulkLoader(odb::database& db, std::string_view table, std::vector<std::string> columns);
    ~BulkLoader();
    BulkLoader(const BulkLoader&) = delete;
    BulkLoader& operator=(const BulkLoader&) = delete;

    // One row, its values in the order of the columns (std::invalid_argument on another count).
    void Add(std::span<const SqlValue> values);
    void Add(std::initializer_list<SqlValue> values) {
        Add(std::span<const SqlValue>(values.begin(), values.size()));
    }
    // Ends the load; returns the rows added.
    std::uint64_t Finish();

    class Backend;  // SQLite's or PostgreSQL's, in bulk_sql.cpp

private:
    std::unique_ptr<Backend> backend_;
    std::size_t columns_ = 0;
    std::uint64_t rows_ = 0;
};

// `text` quoted as an SQL identifier ("name"), for table names a plugin builds (partitions).
BOOST_SYMBOL_VISIBLE std::string QuoteIdentifier(std::string_view text);

}  // namespace lastro::sdk
