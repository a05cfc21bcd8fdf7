#include <lastro/sdk/bulk_sql.hpp>

#include "pg_result_rows.hpp"

#include <odb/database.hxx>
#include <odb/pgsql/connection.hxx>
#include <odb/pgsql/error.hxx>
#include <odb/sqlite/connection.hxx>
#include <odb/sqlite/error.hxx>
#include <odb/tracer.hxx>
#include <odb/transaction.hxx>

#include <libpq-fe.h>
#include <sqlite3.h>

#include <stdexcept>
#include <utility>

namespace lastro::sdk {

namespace {

odb::connection& CurrentConnection() {
    if (!odb::transaction::has_current()) {
        throw std::logic_error("SQL runs inside a transaction");
    }
    return odb::transaction::current().connection();
}

// PostgreSQL's $1, $2... as SQLite's ?1, ?2... (outside quoted text).
std::string ForSqlite(std::string_view sql) {
    std::string text(sql);
    char quote = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quote != 0) {
            quote = c == quote ? 0 : quote;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '$' && i + 1 < text.size() && text[i + 1] >= '0' && text[i + 1] <= '9') {
            text[i] = '?';
        }
    }
    return text;
}

// ---- SQLite ----

struct SqliteStatement {
    SqliteStatement(odb::sqlite::connection& connection, std::string_view sql) : connection(connection) {
        const std::string text = ForSqlite(sql);
        const int code = sqlite3_prepare_v2(connection.handle(), text.c_str(),
                                            static_cast<int>(text.size() + 1), &statement, nullptr);
        if (code != SQLITE_OK) {
            odb::sqlite::translate_error(code, connection);
        }
    }
    ~SqliteStatement() { sqlite3_finalize(statement); }
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;

    // The views must outlive the next Step().
    void Bind(std::span<const SqlValue> params) {
        for (std::size_t i = 0; i < params.size(); ++i) {
            const int index = static_cast<int>(i + 1);
            const int code = params[i] ? sqlite3_bind_text(statement, index, params[i]->data(),
                                                           static_cast<int>(params[i]->size()), SQLITE_STATIC)
                                       : sqlite3_bind_null(statement, index);
            if (code != SQLITE_OK) {
                odb::sqlite::translate_error(code, connection);
            }
        }
    }
    // True while a row is ready.
    bool Step() {
        const int code = sqlite3_step(statement);
        if (code == SQLITE_ROW) {
            return true;
        }
        if (code != SQLITE_DONE) {
            odb::sqlite::translate_error(code, connection);
        }
        return false;
    }
    void Reset() { sqlite3_reset(statement); }

    odb::sqlite::connection& connection;
    sqlite3_stmt* statement = nullptr;
};

SqlRows SqliteRun(odb::sqlite::connection& connection, std::string_view sql, std::span<const SqlValue> params,
                  std::uint64_t* changed) {
    SqliteStatement statement(connection, sql);
    statement.Bind(params);
    SqlRows rows;
    while (statement.Step()) {
        const int columns = sqlite3_column_count(statement.statement);
        auto& row = rows.emplace_back();
        row.reserve(static_cast<std::size_t>(columns));
        for (int c = 0; c < columns; ++c) {
            if (sqlite3_column_type(statement.statement, c) == SQLITE_NULL) {
                row.emplace_back(std::nullopt);
            } else {
                const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(statement.statement, c));
                row.emplace_back(std::string(
                    text, static_cast<std::size_t>(sqlite3_column_bytes(statement.statement, c))));
            }
        }
    }
    if (changed != nullptr) {
        *changed = sqlite3_stmt_readonly(statement.statement)
                       ? 0
                       : static_cast<std::uint64_t>(sqlite3_changes64(connection.handle()));
    }
    return rows;
}

// ---- PostgreSQL ----

using PgResult = std::unique_ptr<PGresult, decltype(&PQclear)>;

SqlRows PgRun(odb::pgsql::connection& connection, std::string_view sql, std::span<const SqlValue> params,
              std::uint64_t* changed) {
    // libpq wants NUL-terminated text; reserved, so the pointers taken stay valid.
    std::vector<std::string> texts;
    texts.reserve(params.size());
    std::vector<const char*> values;
    std::vector<int> lengths;
    for (const SqlValue& param : params) {
        if (param) {
            values.push_back(texts.emplace_back(*param).c_str());
            lengths.push_back(static_cast<int>(param->size()));
        } else {
            values.push_back(nullptr);
            lengths.push_back(0);
        }
    }
    const std::string text(sql);
    PgResult result(PQexecParams(connection.handle(), text.c_str(), static_cast<int>(params.size()), nullptr,
                                 values.data(), lengths.data(), nullptr, 0),
                    &PQclear);
    if (!odb::pgsql::is_good_result(result.get())) {
        odb::pgsql::translate_error(connection, result.get());
    }
    SqlRows rows = detail::PgResultRows(result.get());
    if (changed != nullptr) {
        // "SELECT 3" counts rows read, not changed.
        const std::string_view status = PQcmdStatus(result.get());
        const char* tuples = PQcmdTuples(result.get());
        *changed =
            !status.starts_with("SELECT") && tuples != nullptr && *tuples != '\0' ? std::stoull(tuples) : 0;
    }
    return rows;
}

SqlRows Run(odb::database& db, std::string_view sql, std::span<const SqlValue> params,
            std::uint64_t* changed) {
    odb::connection& connection = CurrentConnection();
    // The transaction's tracer sees these statements as it sees ODB's own (the test kit's
    // QueryPlanCheck explains every SELECT a handler runs).
    if (odb::tracer* tracer = connection.transaction_tracer()) {
        tracer->execute(connection, std::string(sql).c_str());
    }
    if (db.id() == odb::id_pgsql) {
        return PgRun(static_cast<odb::pgsql::connection&>(connection), sql, params, changed);
    }
    return SqliteRun(static_cast<odb::sqlite::connection&>(connection), sql, params, changed);
}

std::string ColumnList(const std::vector<std::string>& columns) {
    std::string list;
    for (const std::string& column : columns) {
        list += list.empty() ? "" : ", ";
        list += QuoteIdentifier(column);
    }
    return list;
}

}  // namespace

std::string QuoteIdentifier(std::string_view text) {
    std::string quoted = "\"";
    for (const char c : text) {
        quoted += c;
        if (c == '"') {
            quoted += '"';
        }
    }
    return quoted + "\"";
}

SqlSession::SqlSession(odb::database& db)
    : db_(db), backend_(db.id() == odb::id_pgsql ? SqlBackend::kPostgres : SqlBackend::kSqlite) {
    CurrentConnection();
    if (db.id() != odb::id_pgsql && db.id() != odb::id_sqlite) {
        throw std::logic_error("SqlSession runs on SQLite or PostgreSQL");
    }
}

std::uint64_t SqlSession::Execute(std::string_view sql, std::initializer_list<SqlValue> params) {
    return Execute(sql, std::span<const SqlValue>(params.begin(), params.size()));
}

std::uint64_t SqlSession::Execute(std::string_view sql, std::span<const SqlValue> params) {
    std::uint64_t changed = 0;
    Run(db_, sql, params, &changed);
    return changed;
}

SqlRows SqlSession::Query(std::string_view sql, std::initializer_list<SqlValue> params) {
    return Query(sql, std::span<const SqlValue>(params.begin(), params.size()));
}

SqlRows SqlSession::Query(std::string_view sql, std::span<const SqlValue> params) {
    return Run(db_, sql, params, nullptr);
}

// ---- BulkLoader ----

class BulkLoader::Backend {
public:
    virtual ~Backend() = default;
    virtual void Add(std::span<const SqlValue> values) = 0;
    virtual void Finish() = 0;
};

namespace {

class SqliteLoader : public BulkLoader::Backend {
public:
    SqliteLoader(odb::sqlite::connection& connection, std::string_view table,
                 const std::vector<std::string>& columns)
        : statement_(connection, Insert(table, columns)) {}

    void Add(std::span<const SqlValue> values) override {
        statement_.Bind(values);
        statement_.Step();
        statement_.Reset();
    }
    void Finish() override {}

private:
    static std::string Insert(std::string_view table, const std::vector<std::string>& columns) {
        std::string sql = "INSERT INTO " + QuoteIdentifier(table) + " (" + ColumnList(columns) + ") VALUES (";
        for (std::size_t i = 0; i < columns.size(); ++i) {
            sql += (i == 0 ? "?" : ", ?") + std::to_string(i + 1);
        }
        return sql + ")";
    }

    SqliteStatement statement_;
};

// COPY's text format: tab-separated, \N for NULL, backslash escapes.
class PgLoader : public BulkLoader::Backend {
public:
    PgLoader(odb::pgsql::connection& connection, std::string_view table,
             const std::vector<std::string>& columns)
        : connection_(connection) {
        const std::string sql =
            "COPY " + QuoteIdentifier(table) + " (" + ColumnList(columns) + ") FROM STDIN";
        PgResult result(PQexec(connection_.handle(), sql.c_str()), &PQclear);
        if (PQresultStatus(result.get()) != PGRES_COPY_IN) {
            odb::pgsql::translate_error(connection_, result.get());
        }
        open_ = true;
        buffer_.reserve(kFlushBytes + 4096);
    }
    ~PgLoader() override {
        if (open_) {  // abandoned: end the COPY with an error so the connection is usable again
            PQputCopyEnd(connection_.handle(), "load abandoned");
            while (PGresult* result = PQgetResult(connection_.handle())) {
                PQclear(result);
            }
        }
    }

    void Add(std::span<const SqlValue> values) override {
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (i > 0) {
                buffer_ += '\t';
            }
            if (!values[i]) {
                buffer_ += "\\N";
                continue;
            }
            for (const char c : *values[i]) {
                switch (c) {
                    case '\\':
                        buffer_ += "\\\\";
                        break;
                    case '\t':
                        buffer_ += "\\t";
                        break;
                    case '\n':
                        buffer_ += "\\n";
                        break;
                    case '\r':
                        buffer_ += "\\r";
                        break;
                    default:
                        buffer_ += c;
                }
            }
        }
        buffer_ += '\n';
        if (buffer_.size() >= kFlushBytes) {
            Flush();
        }
    }

    void Finish() override {
        Flush();
        open_ = false;
        if (PQputCopyEnd(connection_.handle(), nullptr) != 1) {
            throw std::runtime_error(std::string("COPY could not end: ") +
                                     PQerrorMessage(connection_.handle()));
        }
        // The COPY's result, then nothing: a failure (a constraint, a bad value) is thrown.
        PgResult result(PQgetResult(connection_.handle()), &PQclear);
        while (PGresult* more = PQgetResult(connection_.handle())) {
            PQclear(more);
        }
        if (!odb::pgsql::is_good_result(result.get())) {
            odb::pgsql::translate_error(connection_, result.get());
        }
    }

private:
    static constexpr std::size_t kFlushBytes = 256 * 1024;

    void Flush() {
        if (!buffer_.empty() &&
            PQputCopyData(connection_.handle(), buffer_.data(), static_cast<int>(buffer_.size())) != 1) {
            throw std::runtime_error(std::string("COPY could not send rows: ") +
                                     PQerrorMessage(connection_.handle()));
        }
        buffer_.clear();
    }

    odb::pgsql::connection& connection_;
    std::string buffer_;
    bool open_ = false;
};

}  // namespace

BulkLoader::BulkLoader(odb::database& db, std::string_view table, std::vector<std::string> columns)
    : columns_(columns.size()) {
    if (columns.empty()) {
        throw std::invalid_argument("BulkLoader needs columns");
    }
    odb::connection& connection = CurrentConnection();
    if (db.id() == odb::id_pgsql) {
        backend_ =
            std::make_unique<PgLoader>(static_cast<odb::pgsql::connection&>(connection), table, columns);
    } else {
        backend_ =
            std::make_unique<SqliteLoader>(static_cast<odb::sqlite::connection&>(connection), table, columns);
    }
}

BulkLoader::~BulkLoader() = default;

void BulkLoader::Add(std::span<const SqlValue> values) {
    if (values.size() != columns_) {
        throw std::invalid_argument("BulkLoader::Add: " + std::to_string(values.size()) + " values for " +
                                    std::to_string(columns_) + " columns");
    }
    backend_->Add(values);
    ++rows_;
}

std::uint64_t BulkLoader::Finish() {
    backend_->Finish();
    return rows_;
}

}  // namespace lastro::sdk
