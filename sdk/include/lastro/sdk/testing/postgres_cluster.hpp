// A throwaway PostgreSQL cluster for tests: initdb into a fresh temporary
// directory, one postmaster on a free TCP port of 127.0.0.1 (its socket directory inside the
// temporary directory), fsync off. Run as the `postgres` user when the suite runs as root
// (initdb refuses root). Stop() shuts it down fast (SIGINT, as `pg_ctl stop -m fast`) and
// deletes the directory; the destructor calls it. docs/testing.md describes it.
#pragma once

#include <lastro/sdk/testing/process.hpp>

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lastro::sdk::testing {

class PostgresCluster {
public:
    // The directory of initdb, postgres and createdb: $LASTRO_E2E_PG_BINDIR, else
    // /usr/lib/postgresql/17/bin.
    static std::filesystem::path BinDir();

    // Throws std::runtime_error, with what PostgreSQL said, when the binaries are missing or
    // the cluster does not start.
    static std::unique_ptr<PostgresCluster> Start();
    ~PostgresCluster();
    PostgresCluster(const PostgresCluster&) = delete;
    PostgresCluster& operator=(const PostgresCluster&) = delete;

    // Creates database `name`, a copy of database `from` when given, and returns its URI
    // (postgresql://postgres@127.0.0.1:PORT/name).
    std::string CreateDatabase(const std::string& name, const std::string& from = "");
    // The key=value conninfo of database `name` (host=127.0.0.1 port=PORT user=postgres dbname=name),
    // the form to which libpq options can be appended.
    std::string Conninfo(const std::string& name) const;
    std::uint16_t Port() const { return port_; }
    // The end of the server's log (its stderr), for failure messages.
    std::string LogTail(std::size_t bytes = 4000) const;
    void Stop();

    // Pause() shuts the postmaster down (fast) and keeps the data; Resume() starts it again on
    // the same directory and port, so every conninfo stays valid. Prefer PausedPostgres, which
    // always resumes. Resume() throws, with the server's output, when it does not come back.
    void Pause();
    void Resume();
    bool Running() const { return postmaster_ != nullptr; }
    // The postmaster and every process under it (backends, background workers); empty when
    // it is not running.
    std::vector<pid_t> ServerProcesses() const;

private:
    PostgresCluster() = default;
    // Starts the postmaster on port_; returns its output when it did not become ready.
    std::string StartPostmaster();
    void ShutDownPostmaster();

    std::filesystem::path bin_dir_;
    std::filesystem::path dir_;
    std::optional<RunAs> run_as_;
    std::uint16_t port_ = 0;
    std::unique_ptr<ChildProcess> postmaster_;
    std::string earlier_log_;  // output of the postmasters before a Pause()
};

// The shared cluster is down while this lives: a test that takes the database away cannot
// leave it away for the tests after it, whatever it asserts or throws.
class PausedPostgres {
public:
    explicit PausedPostgres(PostgresCluster& cluster);
    ~PausedPostgres();  // resumes (a failure to is reported as a test failure)
    PausedPostgres(const PausedPostgres&) = delete;
    PausedPostgres& operator=(const PausedPostgres&) = delete;

    // Resumes now (once); throws when PostgreSQL does not come back.
    void Resume();

private:
    PostgresCluster& cluster_;
    bool resumed_ = false;
};

// The shared cluster is frozen while this lives: every server process is stopped (SIGSTOP)
// and continued (SIGCONT) at the end. Unlike a shutdown, connections stay open and the
// kernel still accepts and acknowledges; nothing answers (a hung server or disk).
class FrozenPostgres {
public:
    explicit FrozenPostgres(PostgresCluster& cluster);
    ~FrozenPostgres();  // thaws
    FrozenPostgres(const FrozenPostgres&) = delete;
    FrozenPostgres& operator=(const FrozenPostgres&) = delete;

    void Thaw();  // now (once)

private:
    std::vector<pid_t> frozen_;
};

// A TCP port of 127.0.0.1 that was free a moment ago.
std::uint16_t FreePort();

}  // namespace lastro::sdk::testing
