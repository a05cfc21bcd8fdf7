// Several SQL statements sent to PostgreSQL in one round trip, on the connection of the
// current ODB transaction, where they run in order inside that transaction. ODB sends one
// statement per round trip and runs only SELECT through a view; the credit ledger's batches
// (billing/credit_ledger.cpp) lock, read and write all their rows in two round trips with
// this, whatever the number of calls in the batch (docs/performance.md).
#pragma once

#include <odb/connection.hxx>
#include <odb/database.hxx>

#include <optional>
#include <string>
#include <vector>

namespace lastro::storage {

// One statement's rows (none for a statement that returns none), each value as PostgreSQL's
// text, nullopt for NULL.
using PgRows = std::vector<std::vector<std::optional<std::string>>>;

// Runs `statements` (separated by semicolons) and returns one PgRows per statement, in order.
// Must run inside an ODB transaction on PostgreSQL. Errors are thrown as ODB throws them
// (odb::deadlock, odb::connection_lost, odb::pgsql::database_exception), so that callers
// retry and report them as they do ODB's own.
std::vector<PgRows> RunPgStatements(const std::string& statements);
// The same on `connection` with no transaction open: PostgreSQL runs the statements of one
// message as one transaction of their own, committed (or rolled back whole) before it answers,
// so a write of several statements costs one round trip where BEGIN ... COMMIT costs three.
std::vector<PgRows> RunPgStatementsOn(odb::connection& connection, const std::string& statements);

// One statement without parameters on a pooled connection of `db`, outside any transaction
// (autocommit): one round trip where an ODB query takes three (BEGIN, the query, COMMIT).
// Prepared under `name` on each connection the first time it runs there, so PostgreSQL parses
// and plans it once per connection. For a single read that shares no snapshot with another
// (the response cache's newest release id).
PgRows RunPgStatementAlone(odb::database& db, const std::string& name, const std::string& statement);
// The same on `connection`, a PostgreSQL connection with no transaction open.
PgRows RunPgStatementAlone(odb::connection& connection, const std::string& name,
                           const std::string& statement);

// Prepares `statement` under `name` on `connection` (no transaction open: a statement already
// prepared there is not an error), so that PostgreSQL parses and plans it once per connection.
void PreparePg(odb::connection& connection, const std::string& name, const std::string& statement);
// Runs the statement prepared under `name` with `params` (text; nullopt for NULL): inside the
// connection's transaction if one is open, else as a transaction of its own (one round trip).
PgRows RunPgPrepared(odb::connection& connection, const std::string& name,
                     const std::vector<std::optional<std::string>>& params);
// `elements` as a PostgreSQL array literal ('{"a","b",NULL}'), for one parameter that carries a
// whole batch's column (`unnest($1::text[])`).
std::string PgArray(const std::vector<std::optional<std::string>>& elements);

// `text` as an SQL string literal: quotes doubled (PostgreSQL's standard_conforming_strings,
// on by default since 9.1, makes backslashes plain characters).
std::string SqlText(const std::string& text);

}  // namespace lastro::storage
