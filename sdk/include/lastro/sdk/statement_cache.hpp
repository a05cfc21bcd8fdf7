// ODB 2.4 keeps, per connection, the statements of every persistent class and view it has run,
// and drops them all when the database's schema version sequence has moved (a migration step sets
// a version) the next time it looks up an object's statements, never a view's. Two things go
// wrong with statements that outlive their version:
// - a view's statements made after the version moved, before an object's lookup, are dropped
//   by that lookup, under a result still being read;
// - a query cached by name (sdk::CachedQuery) keeps pointing at the statements it was prepared
//   with, dropped or not.
// These two calls let the SDK keep both from happening; a plugin does not call them.
#pragma once

#include <odb/connection.hxx>

namespace lastro::sdk {

// Makes the connection's statement cache drop what an older schema version left, now rather
// than at some later lookup. Inside a transaction, on SQLite or PostgreSQL.
void CatchUpStatementCache(odb::connection& connection);

// Removes the query cached under `name` (and its parameters) from the connection; none cached
// under it is not an error.
void ForgetCachedQuery(odb::connection& connection, const char* name);

}  // namespace lastro::sdk
