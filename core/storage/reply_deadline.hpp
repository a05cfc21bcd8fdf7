// Bounds how long a PostgreSQL connection waits for the server's reply. Once libpq has sent a
// statement it waits without limit: a server that is frozen (SIGSTOP, a hung disk, a stalled
// virtual machine) or cut off after its kernel acknowledged the request never answers, and
// neither TCP keepalives nor tcp_user_timeout fire while the server's kernel still acknowledges.
//
// While a ReplyDeadline lives, one watchdog thread shuts the connection's socket down when the
// deadline passes: the blocked libpq call returns, ODB throws odb::connection_lost (a
// recoverable error: the call is answered 503, unbilled), and the connection is marked failed
// so that the pool replaces it. Nothing happens on SQLite, whose waits are local and bounded by
// its busy timeout. docs/operations.md, "Faults".
#pragma once

#include <odb/connection.hxx>

#include <chrono>
#include <cstdint>

namespace lastro::storage {

class ReplyDeadline {
public:
    ReplyDeadline(odb::connection& connection, std::chrono::steady_clock::time_point deadline);
    ~ReplyDeadline();
    ReplyDeadline(const ReplyDeadline&) = delete;
    ReplyDeadline& operator=(const ReplyDeadline&) = delete;

    // True once the watchdog has cut the connection.
    bool Expired() const;

private:
    odb::connection* connection_ = nullptr;  // null on SQLite
    std::uint64_t ticket_ = 0;
};

}  // namespace lastro::storage
