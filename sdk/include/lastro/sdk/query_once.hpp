// A view query run once on PostgreSQL in one round trip, planned for its values.
//
// `db.query<V>(q)` prepares a named statement, executes it and deallocates it: three round trips,
// each a wake-up of a PostgreSQL backend (docs/performance.md). A statement whose best plan
// depends on its values (a text search through a trigram index or along the key order, by how
// many rows match) must not be prepared once and reused, since PostgreSQL's generic plan would
// choose without them. This sends it unnamed, with its values, in one message (libpq's
// PQexecParams): planned for those values, in one round trip. The rows come back as text, in the
// order of the view's columns.
//
//   for (const auto& row : sdk::QueryOnceAsText<FundListPageRow>(db, query)) { ... row[0] ... }
//
// The caller includes its model's PostgreSQL header (`<model>-odb-pgsql.hxx`), which defines the
// view's statement.
//
// PostgreSQL only (throws std::logic_error on another database): on SQLite, prepare per
// connection (<lastro/sdk/cached_query.hpp>). Runs on the current transaction's connection;
// database errors are thrown as ODB throws them.
#pragma once

#include <boost/config.hpp>
#include <odb/database.hxx>
#include <odb/pgsql/query.hxx>
#include <odb/query.hxx>

#include <optional>
#include <string>
#include <vector>

namespace lastro::sdk {

// Each row's values as PostgreSQL prints them, nullopt for NULL.
using TextRows = std::vector<std::vector<std::optional<std::string>>>;

// The statement `query` (its text and its parameters) run once on the current transaction's
// PostgreSQL connection.
BOOST_SYMBOL_VISIBLE TextRows RunOnceAsText(odb::database& db, const odb::pgsql::query_base& query);

template <typename V>
TextRows QueryOnceAsText(odb::database& db, const odb::query<V>& query) {
    using Traits = odb::access::view_traits_impl<V, odb::id_pgsql>;
    return RunOnceAsText(db, Traits::query_statement(typename Traits::query_base_type(query)));
}

}  // namespace lastro::sdk
