#include "core/billing/batch_connection.hpp"

#include "core/storage/database.hpp"
#include "core/storage/reply_deadline.hpp"

#include <odb/exceptions.hxx>

#include <algorithm>
#include <thread>

namespace lastro::billing {
namespace {

constexpr int kAttempts = 3;  // per batch, on busy/deadlock/lost connection

// Sleeps before another attempt, never past `deadline`.
void PauseBefore(int attempt, BatchConnection::Deadline deadline) {
    const auto pause = std::min<std::chrono::steady_clock::duration>(
        std::chrono::milliseconds(1 << attempt), deadline - std::chrono::steady_clock::now());
    if (pause.count() > 0) {
        std::this_thread::sleep_for(pause);
    }
}

}  // namespace

odb::connection& BatchConnection::Get(Deadline deadline) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
        throw odb::timeout();
    }
    const bool fresh = !connection_;
    if (fresh) {
        connection_ = db_.connection();
        ++generation_;
    }
    if (fresh || db_.id() == odb::id_sqlite) {
        // On PostgreSQL a statement, the connection's first: bounded like the batch.
        storage::ReplyDeadline bound(*connection_, deadline);
        storage::BoundLockWait(*connection_, db_.id() == odb::id_sqlite ? left : write_timeout_);
    }
    return *connection_;
}

std::string BatchConnection::WithRetries(Deadline deadline,
                                         const std::function<void(odb::connection&)>& attempt,
                                         const std::function<bool()>& may_retry) {
    std::string failure;
    for (int n = 1; n <= kAttempts; ++n) {
        try {
            odb::connection& connection = Get(deadline);
            storage::ReplyDeadline bound(connection, deadline);
            attempt(connection);
            return "";
        } catch (const odb::recoverable& e) {
            Drop();  // a lost connection is not reused; the pool gives a new one
            failure = e.what();
            if (n == kAttempts || (may_retry && !may_retry())) {
                break;
            }
            PauseBefore(n, deadline);
        } catch (const std::exception& e) {
            Drop();
            failure = e.what();
            break;
        }
    }
    return failure;
}

std::vector<storage::PgRows> BatchConnection::WriteAlone(const std::string& sql) {
    const auto deadline = std::chrono::steady_clock::now() + write_timeout_;
    odb::connection& connection = Get(deadline);
    storage::ReplyDeadline bound(connection, deadline);
    return storage::RunPgStatementsOn(connection, sql);
}

}  // namespace lastro::billing
