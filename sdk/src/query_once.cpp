#include <lastro/sdk/query_once.hpp>

#include "pg_result_rows.hpp"

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
    return detail::PgResultRows(result.get());
}

}  // namespace lastro::sdk
