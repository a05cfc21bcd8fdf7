// The ledger writer's connection and how a batch write tries on it: one connection kept between
// batches (SQLite in WAL keeps a connection's page cache only while no other connection has
// committed, and the pages a batch touches were mostly written by the batch before; its prepared
// statements stay compiled too), every attempt bounded by the batch's deadline, retried only after
// a failure the database may not repeat. Owned by the writer's thread: not thread-safe.
#pragma once

#include "core/storage/pgsql_statements.hpp"

#include <odb/connection.hxx>
#include <odb/database.hxx>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace lastro::billing {

class BatchConnection {
public:
    using Deadline = std::chrono::steady_clock::time_point;

    // `write_timeout`: how long one batch may try (lock waits, retries and replies together).
    BatchConnection(odb::database& db, std::chrono::milliseconds write_timeout)
        : db_(db), write_timeout_(write_timeout) {}

    odb::database& Database() const { return db_; }
    std::chrono::milliseconds WriteTimeout() const { return write_timeout_; }

    // The connection for a batch whose lock waits end at `deadline`, whichever attempt they are
    // in: SQLite's busy timeout is set to what is left before every attempt, PostgreSQL's
    // lock_timeout once per connection. The caller also arms a storage::ReplyDeadline on it,
    // for a server that stops answering altogether. Throws odb::timeout past the deadline.
    odb::connection& Get(Deadline deadline);
    // After a failure: the pool gives a fresh connection next time.
    void Drop() { connection_.reset(); }
    // Changes each time a fresh connection is taken: what was prepared on the last one is gone.
    std::uint64_t Generation() const { return generation_; }

    // Runs `attempt` on the connection (a reply bounded by `deadline`), again after a failure the
    // database may not repeat (busy, deadlock, a lost connection: odb::recoverable) while
    // `may_retry` allows, at most three times, its lock waits and pauses all before `deadline`;
    // never again after any other failure. After a failure the connection is dropped. Returns
    // why the last attempt failed; empty when one succeeded.
    std::string WithRetries(Deadline deadline, const std::function<void(odb::connection&)>& attempt,
                            const std::function<bool()>& may_retry = {});
    // One write of its own (PostgreSQL, outside any transaction), bounded like a batch.
    std::vector<storage::PgRows> WriteAlone(const std::string& sql);

private:
    odb::database& db_;
    std::chrono::milliseconds write_timeout_;
    odb::connection_ptr connection_;
    std::uint64_t generation_ = 0;
};

}  // namespace lastro::billing
