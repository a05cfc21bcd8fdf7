// The server configuration (etc/lastro.yaml, docs/configuration.md). Loaded and validated at
// start: an unknown key, a wrong type or a bad value stops the start with "file:line: message".
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lastro::config {

struct ServerConfig {
    std::string listen_host = "127.0.0.1";
    std::uint16_t listen_port = 8080;
    // Pistache's request threads; 0 is "auto" (AutoThreads). On SQLite no request thread
    // waits (admission is in memory, answers leave from the ledger writer), so about two per
    // core serve best; on PostgreSQL a thread waits for each database round trip
    // (docs/performance.md).
    int threads = 0;
    std::size_t max_request_bytes = 16384;
    int header_timeout_ms = 10000;
    int body_timeout_ms = 30000;
    int keepalive_timeout_ms = 15000;
    int shutdown_grace_ms = 10000;
    // The kernel's send buffer of each connection (SO_SNDBUF), in bytes; 0 leaves it to the
    // kernel's autotuning (up to net.ipv4.tcp_wmem's maximum, 4 MB by default). An answer is
    // charged once the kernel took it whole (docs/billing.md): a smaller buffer bounds what a
    // client that stops reading costs in kernel memory, and what it is charged without reading.
    int socket_send_buffer_bytes = 0;
    std::string base_url = "http://127.0.0.1:8080";
    // Names this process in the credit ledger; unique and stable per instance. Empty: the
    // host name and listening port ("db1:8080"), resolved at start.
    std::string instance;
    // Handler answers kept in memory until the next ingest (docs/performance.md); 0 turns the
    // cache off.
    int response_cache_mb = 32;
};

enum class Backend { kSqlite, kPgsql };

struct DatabaseConfig {
    Backend backend = Backend::kSqlite;
    std::filesystem::path sqlite_path;  // absolute after loading
    // Billing's own file (ledger, usage, call windows): an ingest holds the data file's write
    // lock for seconds, which must never hold a billed call (docs/storage.md). Absolute after
    // loading; by default beside the data file ("lastro.db": "lastro-billing.db").
    std::filesystem::path sqlite_billing_path;
    int sqlite_busy_timeout_ms = 5000;
    // true (synchronous: full, the default): a commit is on disk when it returns, power loss
    // included. false (normal): it survives a crash of the process, not of the machine; no
    // disk sync at commit (docs/billing.md, docs/performance.md).
    bool sqlite_sync_full = true;
    // How each connection reads the data file (not billing's): its own page cache, and the
    // first mmap_mb of the file through a memory map shared by every connection, so a page
    // the operating system holds is read in place instead of copied in by a read(2) call.
    // 0 maps nothing (docs/performance.md, "SQLite: the data file read in place").
    int sqlite_cache_mb = 64;
    int sqlite_mmap_mb = 2047;
    int pool_size = 0;           // 0: server.threads + 2 (every request thread, the ledger writer, one spare)
    std::string pgsql_conninfo;  // libpq connection string or URI
    // How long one call's reads (its key, the newest release, the handler's transaction) may
    // wait for PostgreSQL before the call is answered 503: a server that stops answering
    // (frozen, cut off) otherwise holds the call forever (storage/reply_deadline.hpp).
    int pgsql_reply_timeout_ms = 5000;
};

struct PluginsConfig {
    std::vector<std::filesystem::path> manifest_dirs;
    std::optional<std::filesystem::path> library_dir;
};

struct CreditsConfig {
    std::int64_t monthly_allowance = 10000;
    std::int64_t calls_per_minute = 60;
};

struct AuthConfig {
    // How long an instance trusts what it read about a key: a revocation takes effect within it.
    int key_cache_ms = 5000;
    // How long an instance remembers a key hash the key table did not accept (unknown or
    // revoked), apart from the valid ones so that a flood of made-up keys never evicts them.
    int unknown_key_cache_ms = 60000;
    // Failed authentications (401s) one client address may make per window before its calls
    // are answered 429 (keys this instance has seen valid still pass); 0 turns it off.
    int failed_auth_limit = 30;
    int failed_auth_window_s = 60;
};

// The secrets that sign pagination cursors live in a file of their own, readable by the service
// user only (docs/operations.md, "Cursor secret").
struct CursorsConfig {
    std::filesystem::path secret_file;  // absolute after loading; default <data_dir>/cursor.key
};

struct BillingConfig {
    // An open reservation older than this is refunded by any instance (its own is gone).
    int stale_reservation_seconds = 600;
    // How long one batch of the credit ledger may try to reach the database before its calls
    // are answered 503, unbilled (docs/billing.md, "The database away").
    int write_timeout_ms = 2000;
    // PostgreSQL: an instance leases credits and per-minute tokens for this long (the
    // database's clock) and decides admission in memory against them; 0: the database decides
    // every admission (docs/billing.md, "Several instances").
    int lease_seconds = 30;
};

struct LogConfig {
    std::string access_log = "stderr";  // "stderr", "off" or a file path
    std::string level = "info";
};

// GET /metrics in Prometheus' text format, on a listen address of its own so that it is never
// exposed where the API is (docs/operations.md). Off when listen_host is empty.
struct MetricsConfig {
    std::string listen_host;
    std::uint16_t listen_port = 0;  // 0: a port the kernel picks (lastrod prints it)
};

// `lastro sync` (docs/sync.md): how it fetches the files the manifests' `sync:` name.
struct SyncConfig {
    // Origin replacements: a URL starting with a key is fetched from the value instead (a
    // mirror, a caching proxy, a test server).
    std::map<std::string, std::string> origins;
    int attempts = 4;       // per file; retried on network errors, 403, 404, 429 and 5xx
    int backoff_ms = 2000;  // before the second attempt, doubled each time (Retry-After honoured)
    int timeout_s = 600;    // a whole transfer
    int connect_timeout_s = 20;
};

struct Config {
    std::filesystem::path file;
    ServerConfig server;
    MetricsConfig metrics;
    SyncConfig sync;
    std::filesystem::path data_dir;
    DatabaseConfig database;
    PluginsConfig plugins;
    CreditsConfig credits;
    AuthConfig auth;
    CursorsConfig cursors;
    BillingConfig billing;
    LogConfig log;
};

// Reads the file named by LASTRO_CONFIG (else `default_file`), validates it, applies the
// environment overrides LASTRO_LISTEN, LASTRO_DATA_DIR and LASTRO_DATABASE, then
// ResolveDefaults. Relative paths in
// the file are relative to the file's directory. Throws YamlError with a located message.
Config LoadConfig(const std::filesystem::path& default_file);

// Parses and validates configuration text; `file` names it in messages and anchors relative
// paths. Does not read the environment.
Config ParseConfig(const std::string& text, const std::filesystem::path& file);

// server.threads when it is "auto": on SQLite two per core (2 to 64), on PostgreSQL 32.
int AutoThreads(Backend backend, unsigned cores);

// Gives "auto" server.threads and database.pool_size their values, once the environment has
// had its say on the backend. LoadConfig applies it; ParseConfig does not.
void ResolveDefaults(Config& config);

// Applies LASTRO_LISTEN ("host:port"), LASTRO_DATA_DIR and LASTRO_DATABASE
// ("sqlite:PATH", "postgresql://..." or "pgsql:CONNINFO"); throws YamlError naming the variable.
void ApplyEnvironment(Config& config);

}  // namespace lastro::config
