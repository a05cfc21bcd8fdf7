// What the parts above storage need to know of the database they read, as properties rather than
// backend names, so that nothing above storage asks which backend it is:
//   SQLite: one lastrod owns the file (storage::ServingLock); a read transaction is one snapshot
//           of the whole database; replies come from this process, bounded by the busy timeout.
//   PostgreSQL: several instances share it; each statement of a read-committed transaction may
//           see a newer commit; every statement is a round trip to a server that may stop
//           answering.
#pragma once

#include <odb/database.hxx>

#include <chrono>

namespace lastro::storage {

// One process owns the database: nobody else writes its rows while it serves.
inline bool OwnedByOneProcess(const odb::database& db) {
    return db.id() == odb::id_sqlite;
}

// A read transaction sees one snapshot: what it reads is all of the newest release it sees.
inline bool SnapshotPerTransaction(const odb::database& db) {
    return db.id() == odb::id_sqlite;
}

// Every statement is a round trip to another process: a statement outside a transaction costs one,
// a transaction three (BEGIN, the statement, COMMIT).
inline bool StatementsAreRoundTrips(const odb::database& db) {
    return db.id() == odb::id_pgsql;
}

// How long a call's reads wait for a reply: `configured` where the server may stop answering;
// zero (unbounded here, bounded by the busy timeout) where replies come from this process.
inline std::chrono::milliseconds ReplyTimeout(const odb::database& db, std::chrono::milliseconds configured) {
    return db.id() == odb::id_pgsql ? configured : std::chrono::milliseconds::zero();
}

}  // namespace lastro::storage
