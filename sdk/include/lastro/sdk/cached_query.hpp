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
#pragma once

#include <odb/database.hxx>
#include <odb/prepared-query.hxx>
#include <odb/result.hxx>

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

template <typename T, typename P, typename Make>
Prepared<T, P> CachedQuery(odb::database& db, const char* name, Make make) {
    P* params = nullptr;
    odb::prepared_query<T> query = db.lookup_query<T>(name, params);
    if (!query) {
        auto owned = std::make_unique<P>();
        params = owned.get();
        query = db.prepare_query<T>(name, make(*params));
        db.cache_query(query, std::move(owned));
    }
    return Prepared<T, P>{query, *params};
}

}  // namespace lastro::sdk
