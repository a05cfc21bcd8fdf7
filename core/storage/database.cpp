#include "core/storage/database.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include <odb/exceptions.hxx>
#include <odb/pgsql/connection-factory.hxx>
#include <odb/pgsql/database.hxx>
#include <odb/pgsql/exceptions.hxx>
#include <odb/pgsql/transaction-impl.hxx>
#include <odb/sqlite/connection-factory.hxx>
#include <odb/sqlite/database.hxx>
#include <odb/sqlite/exceptions.hxx>

#include <libpq-fe.h>
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <thread>

namespace lastro::storage {
namespace {

// Keeps every connection it opened (min = max): opening a SQLite connection per request would
// dominate a request's cost. ODB 2.4 has no connection configurator; create() is the hook where each new
// pooled connection gets its busy timeout (otherwise SQLITE_BUSY surfaces as odb::timeout at once).
class SqlitePool : public odb::sqlite::connection_pool_factory {
public:
    // cache_mb and mmap_mb as database.sqlite gives them for the data file; billing's file
    // keeps 1 MB and no map.
    SqlitePool(std::size_t max, int busy_timeout_ms, bool sync_full, int cache_mb, int mmap_mb)
        : odb::sqlite::connection_pool_factory(max, max),
          busy_timeout_ms_(busy_timeout_ms),
          sync_full_(sync_full),
          cache_mb_(cache_mb),
          mmap_mb_(mmap_mb) {}

protected:
    pooled_connection_ptr create() override {
        pooled_connection_ptr c = odb::sqlite::connection_pool_factory::create();
        sqlite3_busy_timeout(c->handle(), busy_timeout_ms_);
        // FULL: a commit is on disk when it returns, power loss included. Billing commits in
        // groups (core/billing/ledger_writer.hpp), so this is one sync per group, not per call.
        // NORMAL (WAL): no sync at commit; a commit survives the process, not the machine.
        c->execute(sync_full_ ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL");
        // In WAL mode a connection's page cache is dropped whenever another connection has
        // committed since its last read: billing's file, committed thousands of times a second,
        // gets 1 MB. The data file is written only by ingests, so its pages stay cached between
        // calls, and its memory map saves a read(2) and a copy for every page the cache misses;
        // billing's is not mapped, since every checkpoint that grows a mapped file remaps it.
        c->execute("PRAGMA cache_size=-" + std::to_string(cache_mb_ * 1024));
        c->execute("PRAGMA mmap_size=" + std::to_string(static_cast<std::int64_t>(mmap_mb_) << 20));
        return c;
    }

private:
    int busy_timeout_ms_;
    bool sync_full_;
    int cache_mb_;
    int mmap_mb_;
};

// SQLite counts every allocation under one process-wide mutex unless told not to; with a
// request thread per connection that mutex is where the threads queue. Must precede the first
// connection of the process (later calls fail harmlessly).
void DisableSqliteMemoryStatistics() {
    static std::once_flag once;
    std::call_once(once, [] { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); });
}

// The database holds key hashes, the ledger and the cursor signing secret: a directory this
// creates is 0700 and a new database file 0600, before SQLite opens it, so its write-ahead log
// and shared-memory files (which SQLite gives the database file's mode) are private too. A file
// or directory that exists keeps the mode its owner gave it.
void CreatePrivately(const std::filesystem::path& database) {
    namespace fs = std::filesystem;
    std::vector<fs::path> missing;
    for (fs::path dir = database.parent_path(); !dir.empty() && !fs::exists(dir); dir = dir.parent_path()) {
        missing.push_back(dir);
    }
    for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
        if (::mkdir(it->c_str(), 0700) != 0 && errno != EEXIST) {
            throw StorageError("cannot create " + it->string() + ": " + std::strerror(errno));
        }
    }
    const int fd = ::open(database.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
        ::close(fd);
    } else if (errno != EEXIST) {
        throw StorageError("cannot create " + database.string() + ": " + std::strerror(errno));
    }
}

// libpq waits for a connection without limit unless connect_timeout is set, and a server that is
// frozen lets the kernel accept the connection and then never answers: the pool's connect would
// hold every call that needs a new connection. A conninfo that sets its own keeps it.
std::string WithConnectTimeout(const std::string& conninfo) {
    char* error = nullptr;
    PQconninfoOption* options = PQconninfoParse(conninfo.c_str(), &error);
    if (!options) {
        const std::string why = error ? error : "out of memory";
        PQfreemem(error);
        throw StorageError("database.pgsql.conninfo is not a libpq connection string: " + why);
    }
    std::string rebuilt;
    bool has_timeout = false;
    for (const PQconninfoOption* o = options; o->keyword; ++o) {
        if (!o->val) {
            continue;
        }
        has_timeout = has_timeout || std::string_view(o->keyword) == "connect_timeout";
        rebuilt += rebuilt.empty() ? "" : " ";
        rebuilt += o->keyword;
        rebuilt += "='";
        for (const char* c = o->val; *c; ++c) {
            if (*c == '\\' || *c == '\'') {
                rebuilt += '\\';
            }
            rebuilt += *c;
        }
        rebuilt += '\'';
    }
    PQconninfoFree(options);
    return has_timeout ? conninfo : rebuilt + " connect_timeout=" + std::to_string(kConnectTimeoutSeconds);
}

// Billing's file: its connections' caches are dropped by the ledger writer's commits anyway.
constexpr int kBillingCacheMb = 1;

std::unique_ptr<odb::database> OpenSqlite(const config::DatabaseConfig& config,
                                          const std::filesystem::path& path, std::size_t pool, int cache_mb,
                                          int mmap_mb) {
    DisableSqliteMemoryStatistics();
    CreatePrivately(path);
    try {
        // Private cache: shared cache would turn WAL's concurrent readers into table locks.
        auto db = std::make_unique<odb::sqlite::database>(
            path.string(), SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_PRIVATECACHE, true, "",
            std::unique_ptr<odb::sqlite::connection_factory>(new SqlitePool(
                pool, config.sqlite_busy_timeout_ms, config.sqlite_sync_full, cache_mb, mmap_mb)));
        odb::connection_ptr c(db->connection());
        c->execute("PRAGMA journal_mode=WAL");
        return db;
    } catch (const odb::exception& e) {
        throw StorageError("cannot open SQLite database " + path.string() + ": " + e.what());
    }
}

// 0 is "not configured" (the configuration file resolves it from server.threads).
std::size_t PoolSize(const config::DatabaseConfig& config) {
    return static_cast<std::size_t>(config.pool_size > 0 ? config.pool_size : 8);
}

}  // namespace

std::unique_ptr<odb::database> OpenDatabase(const config::DatabaseConfig& config) {
    const std::size_t pool = PoolSize(config);
    if (config.backend == config::Backend::kSqlite) {
        return OpenSqlite(config, config.sqlite_path, pool, config.sqlite_cache_mb, config.sqlite_mmap_mb);
    }
    try {
        auto db =
            std::make_unique<odb::pgsql::database>(WithConnectTimeout(config.pgsql_conninfo),
                                                   std::unique_ptr<odb::pgsql::connection_factory>(
                                                       new odb::pgsql::connection_pool_factory(pool, pool)));
        odb::connection_ptr c(db->connection());  // fail now, with a message, if unreachable
        return db;
    } catch (const odb::exception& e) {
        throw StorageError(std::string("cannot connect to PostgreSQL: ") + e.what());
    }
}

std::unique_ptr<odb::database> OpenBillingDatabase(const config::DatabaseConfig& config) {
    if (config.backend != config::Backend::kSqlite) {
        return nullptr;
    }
    // As many connections as the data's: every request thread may read a key's usage while
    // the ledger writer holds one.
    return OpenSqlite(config, config.sqlite_billing_path, PoolSize(config), kBillingCacheMb, 0);
}

odb::transaction_impl* BeginWrite(odb::database& db) {
    if (db.id() == odb::id_sqlite) {
        return static_cast<odb::sqlite::database&>(db).begin_immediate();
    }
    return db.begin();
}

odb::transaction_impl* BeginWrite(odb::connection& connection) {
    if (connection.database().id() == odb::id_sqlite) {
        return static_cast<odb::sqlite::connection&>(connection).begin_immediate();
    }
    return connection.begin();
}

namespace {

// odb::connection::invalidate_results is protected (ODB's own transactions are its friends): named
// through a derived class, its address is ours to call. Live results must be invalidated when a
// transaction ends, whatever ended it.
struct ResultsOf : odb::connection {
    static void Invalidate(odb::connection& connection) { (connection.*&ResultsOf::invalidate_results)(); }
};

// A PostgreSQL "transaction" that sends nothing: ODB needs a transaction to run statements, and
// PostgreSQL runs each statement sent outside BEGIN as a transaction of its own.
class AutocommitRead : public odb::pgsql::transaction_impl {
public:
    explicit AutocommitRead(odb::pgsql::connection_ptr connection)
        : odb::pgsql::transaction_impl(std::move(connection)) {}
    void start() override {}
    void commit() override { ResultsOf::Invalidate(connection()); }
    void rollback() override { ResultsOf::Invalidate(connection()); }
};

}  // namespace

odb::transaction_impl* BeginRead(const odb::connection_ptr& connection) {
    if (connection->database().id() == odb::id_pgsql) {
        auto* pgsql = static_cast<odb::pgsql::connection*>(connection.get());
        return new AutocommitRead(odb::pgsql::connection_ptr(odb::details::inc_ref(pgsql)));
    }
    return connection->begin();
}

void BoundLockWait(odb::connection& connection, std::chrono::milliseconds wait) {
    const long long ms = std::max<long long>(1, wait.count());
    if (connection.database().id() == odb::id_sqlite) {
        sqlite3_busy_timeout(static_cast<odb::sqlite::connection&>(connection).handle(),
                             static_cast<int>(ms));
    } else {
        connection.execute("SET lock_timeout = " + std::to_string(ms));
    }
}

void WithWriteTransaction(odb::database& db, const std::function<void()>& work) {
    constexpr int kAttempts = 8;
    for (int attempt = 1;; ++attempt) {
        try {
            odb::transaction t(BeginWrite(db));
            work();
            t.commit();
            return;
        } catch (const odb::recoverable&) {
            if (attempt == kAttempts) {
                throw;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(2 << attempt));
        }
    }
}

bool IsUnavailable(const std::exception& e) {
    if (dynamic_cast<const odb::recoverable*>(&e)) {
        return true;
    }
    if (auto* sqlite = dynamic_cast<const odb::sqlite::database_exception*>(&e)) {
        switch (sqlite->error()) {
            case SQLITE_BUSY:
            case SQLITE_LOCKED:
            case SQLITE_READONLY:
            case SQLITE_IOERR:
            case SQLITE_FULL:
            case SQLITE_CANTOPEN:
            case SQLITE_PROTOCOL:
            case SQLITE_NOTADB:
            case SQLITE_CORRUPT:
                return true;
            default:
                return false;
        }
    }
    if (auto* pgsql = dynamic_cast<const odb::pgsql::database_exception*>(&e)) {
        // No SQLSTATE: libpq failed before the server answered (cannot connect). Classes 08
        // (connection), 53 (insufficient resources: disk full, too many connections), 57
        // (operator intervention: shutdown, cannot connect now), 58 (system/I-O error).
        const std::string& state = pgsql->sqlstate();
        return state.empty() || state.rfind("08", 0) == 0 || state.rfind("53", 0) == 0 ||
               state.rfind("57", 0) == 0 || state.rfind("58", 0) == 0 || state == "25006";
    }
    return false;
}

std::string FormatUtc(std::time_t now, const char* format) {
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buffer[64];
    const std::size_t size = std::strftime(buffer, sizeof buffer, format, &tm);
    return std::string(buffer, size);
}

}  // namespace lastro::storage
