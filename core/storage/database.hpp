// Opens the databases of the process: SQLite (WAL, busy timeout, private-cache pool) by
// default, a data file and billing's file; PostgreSQL when configured, one database for both
// (docs/storage.md).
#pragma once

#include "core/config/config.hpp"

#include <odb/connection.hxx>
#include <odb/database.hxx>
#include <odb/transaction.hxx>

#include <chrono>
#include <functional>
#include <memory>
#include <stdexcept>

namespace lastro::storage {

class StorageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Opens the database. On PostgreSQL a conninfo without connect_timeout gets this one (libpq's
// minimum): making a connection to a server that never answers then fails instead of waiting.
inline constexpr int kConnectTimeoutSeconds = 2;
std::unique_ptr<odb::database> OpenDatabase(const config::DatabaseConfig& config);

// Billing's database where it is not the data's: on SQLite its own file
// (database.sqlite.billing_path), so that an ingest's write lock on the data file never holds
// a billed call. Null on PostgreSQL, where schema "billing" is in the one database.
std::unique_ptr<odb::database> OpenBillingDatabase(const config::DatabaseConfig& config);

// Begins a write transaction. On SQLite it takes the write lock up front (BEGIN IMMEDIATE)
// so that a read-then-write transaction can never deadlock against another writer.
odb::transaction_impl* BeginWrite(odb::database& db);
// The same on a connection the caller holds (the ledger writer keeps one: docs/performance.md).
odb::transaction_impl* BeginWrite(odb::connection& connection);

// Begins the transaction a read-only call runs in, on `connection`. On SQLite a deferred BEGIN:
// in WAL mode its first read fixes one snapshot for the whole call. On PostgreSQL nothing is
// sent: each statement runs as its own transaction (autocommit), which is what a READ COMMITTED
// transaction gives a reader anyway (every statement sees the newest committed data), less the
// two round trips of BEGIN and COMMIT, a quarter of a simple lookup's (docs/performance.md,
// "PostgreSQL: round trips per call"). Only for calls that write nothing.
odb::transaction_impl* BeginRead(const odb::connection_ptr& connection);

// Makes `connection` give up on a lock after `wait` (odb::timeout, a recoverable error): on SQLite
// its busy timeout (a plain setting, no I/O: cheap to set before every transaction); on
// PostgreSQL its lock_timeout (a round trip: set it once per connection).
void BoundLockWait(odb::connection& connection, std::chrono::milliseconds wait);

// Runs `work` in a write transaction, retrying on odb::recoverable (busy, deadlock, lost
// connection) a bounded number of times.
void WithWriteTransaction(odb::database& db, const std::function<void()>& work);

// True when `e` says the database is away rather than the query wrong: connection lost or
// refused, busy beyond the timeout, read-only, full, I/O error (answered 503, not 500).
bool IsUnavailable(const std::exception& e);

// `now` in UTC through strftime's `format` ("%Y-%m" gives "2026-11").
std::string FormatUtc(std::time_t now, const char* format);
// "2026-11-22T01:02:03Z" for `now`.
inline std::string Rfc3339(std::time_t now) {
    return FormatUtc(now, "%Y-%m-%dT%H:%M:%SZ");
}

}  // namespace lastro::storage
