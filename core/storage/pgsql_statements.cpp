#include "core/storage/pgsql_statements.hpp"

#include <odb/pgsql/connection.hxx>
#include <odb/pgsql/error.hxx>
#include <odb/transaction.hxx>

#include <libpq-fe.h>

#include <memory>

namespace lastro::storage {
namespace {

struct ClearResult {
    void operator()(PGresult* result) const { PQclear(result); }
};
using Result = std::unique_ptr<PGresult, ClearResult>;

}  // namespace

std::vector<PgRows> RunPgStatements(const std::string& statements) {
    auto& connection = static_cast<odb::pgsql::connection&>(odb::transaction::current().connection());
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
        PgRows rows;
        const int columns = PQnfields(result.get());
        for (int r = 0; r < PQntuples(result.get()); ++r) {
            auto& row = rows.emplace_back();
            for (int c = 0; c < columns; ++c) {
                if (PQgetisnull(result.get(), r, c)) {
                    row.emplace_back(std::nullopt);
                } else {
                    row.emplace_back(std::string(PQgetvalue(result.get(), r, c),
                                                 static_cast<std::size_t>(PQgetlength(result.get(), r, c))));
                }
            }
        }
        out.push_back(std::move(rows));
    }
    return out;
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
