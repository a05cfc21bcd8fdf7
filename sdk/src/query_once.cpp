#include <lastro/sdk/query_once.hpp>

#include <odb/pgsql/connection.hxx>
#include <odb/pgsql/error.hxx>
#include <odb/transaction.hxx>

#include <libpq-fe.h>

#include <memory>
#include <stdexcept>

namespace lastro::sdk {

TextRows RunOnceAsText(odb::database& db, const odb::pgsql::query_base& query) {
    if (db.id() != odb::id_pgsql) {
        throw std::logic_error("QueryOnceAsText runs on PostgreSQL only");
    }
    auto& connection = static_cast<odb::pgsql::connection&>(odb::transaction::current().connection());
    query.init_parameters();  // the values of parameters bound by reference
    const odb::pgsql::native_binding& values = query.parameters_binding();
    const std::string text = query.clause();
    const std::unique_ptr<PGresult, decltype(&PQclear)> result(
        PQexecParams(connection.handle(), text.c_str(), static_cast<int>(query.parameter_count()),
                     query.parameter_types(), values.values, values.lengths, values.formats, 0),
        &PQclear);
    if (!odb::pgsql::is_good_result(result.get())) {
        odb::pgsql::translate_error(connection, result.get());  // throws; marks a lost connection
    }
    TextRows rows;
    const int columns = PQnfields(result.get());
    rows.reserve(static_cast<std::size_t>(PQntuples(result.get())));
    for (int r = 0; r < PQntuples(result.get()); ++r) {
        auto& row = rows.emplace_back();
        row.reserve(static_cast<std::size_t>(columns));
        for (int c = 0; c < columns; ++c) {
            if (PQgetisnull(result.get(), r, c)) {
                row.emplace_back(std::nullopt);
            } else {
                row.emplace_back(std::string(PQgetvalue(result.get(), r, c),
                                             static_cast<std::size_t>(PQgetlength(result.get(), r, c))));
            }
        }
    }
    return rows;
}

}  // namespace lastro::sdk
