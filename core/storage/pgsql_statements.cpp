#include "core/storage/pgsql_statements.hpp"

#include <odb/pgsql/connection.hxx>
#include <odb/pgsql/error.hxx>
#include <odb/transaction.hxx>

#include <libpq-fe.h>

#include <memory>
#include <string_view>

namespace lastro::storage {
namespace {

struct ClearResult {
    void operator()(PGresult* result) const { PQclear(result); }
};
using Result = std::unique_ptr<PGresult, ClearResult>;

PgRows RowsOf(PGresult* result) {
    PgRows rows;
    const int columns = PQnfields(result);
    for (int r = 0; r < PQntuples(result); ++r) {
        auto& row = rows.emplace_back();
        for (int c = 0; c < columns; ++c) {
            if (PQgetisnull(result, r, c)) {
                row.emplace_back(std::nullopt);
            } else {
                row.emplace_back(std::string(PQgetvalue(result, r, c),
                                             static_cast<std::size_t>(PQgetlength(result, r, c))));
            }
        }
    }
    return rows;
}

}  // namespace

std::vector<PgRows> RunPgStatements(const std::string& statements) {
    return RunPgStatementsOn(odb::transaction::current().connection(), statements);
}

std::vector<PgRows> RunPgStatementsOn(odb::connection& on, const std::string& statements) {
    auto& connection = static_cast<odb::pgsql::connection&>(on);
    PGconn* handle = connection.handle();
    if (PQsendQuery(handle, statements.c_str()) == 0) {
        odb::pgsql::translate_error(connection, nullptr);  // throws
    }
    // Every result is read before any error is thrown: the connection stays usable (for the
    // rollback) only once the server has said all it had to say.
    std::vector<Result> results;
    while (PGresult* result = PQgetResult(handle)) {
        results.emplace_back(result);
    }
    std::vector<PgRows> out;
    for (const Result& result : results) {
        if (!odb::pgsql::is_good_result(result.get())) {
            odb::pgsql::translate_error(connection, result.get());  // throws
        }
        PgRows rows = RowsOf(result.get());
        out.push_back(std::move(rows));
    }
    return out;
}

PgRows RunPgStatementAlone(odb::database& db, const std::string& name, const std::string& statement) {
    odb::connection_ptr pooled(db.connection());
    return RunPgStatementAlone(*pooled, name, statement);
}

PgRows RunPgStatementAlone(odb::connection& on, const std::string& name, const std::string& statement) {
    auto& connection = static_cast<odb::pgsql::connection&>(on);
    PGconn* handle = connection.handle();
    Result result(PQexecPrepared(handle, name.c_str(), 0, nullptr, nullptr, nullptr, 0));
    const char* state = result ? PQresultErrorField(result.get(), PG_DIAG_SQLSTATE) : nullptr;
    if (state && std::string_view(state) == "26000") {  // not prepared on this connection yet
        Result prepared(PQprepare(handle, name.c_str(), statement.c_str(), 0, nullptr));
        if (!odb::pgsql::is_good_result(prepared.get())) {
            odb::pgsql::translate_error(connection, prepared.get());  // throws
        }
        result.reset(PQexecPrepared(handle, name.c_str(), 0, nullptr, nullptr, nullptr, 0));
    }
    if (!odb::pgsql::is_good_result(result.get())) {
        odb::pgsql::translate_error(connection, result.get());  // throws; marks a lost connection
    }
    return RowsOf(result.get());
}

void PreparePg(odb::connection& on, const std::string& name, const std::string& statement) {
    auto& connection = static_cast<odb::pgsql::connection&>(on);
    Result prepared(PQprepare(connection.handle(), name.c_str(), statement.c_str(), 0, nullptr));
    const char* state = prepared ? PQresultErrorField(prepared.get(), PG_DIAG_SQLSTATE) : nullptr;
    if (state && std::string_view(state) == "42P05") {  // duplicate_prepared_statement
        return;
    }
    if (!odb::pgsql::is_good_result(prepared.get())) {
        odb::pgsql::translate_error(connection, prepared.get());  // throws
    }
}

PgRows RunPgPrepared(odb::connection& on, const std::string& name,
                     const std::vector<std::optional<std::string>>& params) {
    auto& connection = static_cast<odb::pgsql::connection&>(on);
    std::vector<const char*> values;
    values.reserve(params.size());
    for (const auto& p : params) {
        values.push_back(p ? p->c_str() : nullptr);
    }
    Result result(PQexecPrepared(connection.handle(), name.c_str(), static_cast<int>(values.size()),
                                 values.data(), nullptr, nullptr, 0));
    if (!odb::pgsql::is_good_result(result.get())) {
        odb::pgsql::translate_error(connection, result.get());  // throws; marks a lost connection
    }
    return RowsOf(result.get());
}

std::string PgArray(const std::vector<std::optional<std::string>>& elements) {
    std::string array = "{";
    for (const auto& e : elements) {
        if (array.size() > 1) {
            array += ',';
        }
        if (!e) {
            array += "NULL";
            continue;
        }
        array += '"';
        for (char c : *e) {
            if (c == '"' || c == '\\') {
                array += '\\';
            }
            array += c;
        }
        array += '"';
    }
    return array + "}";
}

std::string SqlText(const std::string& text) {
    std::string literal = "'";
    for (char c : text) {
        literal += c;
        if (c == '\'') {
            literal += '\'';
        }
    }
    literal += '\'';
    return literal;
}

}  // namespace lastro::storage
