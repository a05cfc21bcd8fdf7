// Queries prepared once per database connection and reused by every later call on it.
//
// `db.query<T>(q)` parses and plans its SQL on every call; on a hot endpoint that parsing is
// most of the handler's time (docs/performance.md). A cached query is prepared the first time
// a connection runs it and kept by ODB in that connection under a name; later calls only bind
// their values and step. Its parameters live in a struct P owned by the cache: the query refers
// to P's members with `odb::query<T>::_ref(p.member)`, and each call sets them before executing.
//
//   struct ByCnpj { std::string cnpj; };
//   auto q = sdk::CachedQuery<Fund, ByCnpj>(db, "funds.fund_by_cnpj", [](const ByCnpj& p) {
//       return FundQuery::cnpj == FundQuery::_ref(p.cnpj);
//   });
//   q.params.cnpj = cnpj;
//   for (const Fund& fund : q.Execute()) { ... }
//
// Rules: the name is a string literal (ODB keeps the pointer; sdk::KeyListName's names live as
// long), unique per query across every plugin (prefix it with the plugin's name); the query text
// is fixed (no in_range, no values spliced into text; lists of keys and parameters inside native
// text: <lastro/sdk/query_params.hpp>); consume or drop one result before executing the same query
// again on the same connection. Must run inside a transaction (the connection is the transaction's).
// Persistent classes must be compiled with ODB's --generate-prepared (cmake/LastroOdb.cmake).
//
// A cached query lives as long as the schema version it was prepared under. ODB drops a
// connection's statements when a schema version changes (each step of a migration) but keeps the
// queries cached by name, which would then read and write the dropped statements' buffers; so a
// query prepared under an older version is forgotten and prepared again (statement_cache.hpp).
#pragma once

#include <lastro/sdk/statement_cache.hpp>

#include <odb/database.hxx>
#include <odb/prepared-query.hxx>
#include <odb/result.hxx>
#include <odb/transaction.hxx>

#include <memory>

namespace lastro::sdk {

template <typename T, typename P>
struct Prepared {
    odb::prepared_query<T> query;
    P& params;

    odb::result<T> Execute() { return query.execute(false); }
    // The first row into `out`; false when there is none.
    bool ExecuteOne(T& out) { return query.execute_one(out); }
};

// What ODB keeps beside a cached query: its parameters and the schema version sequence
// (odb::database::schema_version_sequence) it was prepared under.
template <typename P>
struct CachedParams {
    P params;
    unsigned int schema_sequence = 0;
};

template <typename T, typename P, typename Make>
Prepared<T, P> CachedQuery(odb::database& db, const char* name, Make make) {
    odb::connection& connection = odb::transaction::current().connection();
    const unsigned int sequence = db.schema_version_sequence();
    CachedParams<P>* cached = nullptr;
    bool stale = false;
    {
        // A cached prepared_query does not own its query: it must be gone before the cache forgets it.
        odb::prepared_query<T> found = connection.lookup_query<T>(name, cached);
        if (found && cached->schema_sequence == sequence) {
            return Prepared<T, P>{found, cached->params};
        }
        stale = static_cast<bool>(found);
    }
    if (stale) {
        ForgetCachedQuery(connection, name);
    }
    // The statements the query binds to must belong to the current version: statements made
    // since the version moved but before ODB noticed would be dropped later.
    CatchUpStatementCache(connection);
    auto owned = std::make_unique<CachedParams<P>>();
    owned->schema_sequence = sequence;
    cached = owned.get();
    odb::prepared_query<T> query = connection.prepare_query<T>(name, make(cached->params));
    connection.cache_query(query, std::move(owned));
    return Prepared<T, P>{query, cached->params};
}

}  // namespace lastro::sdk
