#include "core/config/config.hpp"

#include "core/config/yaml_reader.hpp"

#include <gtest/gtest.h>

#include <thread>

#include <cstdlib>

namespace lastro::config {
namespace {

std::string Error(const std::string& text) {
    try {
        ParseConfig(text, "/etc/lastro/lastro.yaml");
    } catch (const YamlError& e) {
        return e.what();
    }
    return "(valid)";
}

TEST(ConfigTest, ReadsEveryKeyAndAnchorsRelativePaths) {
    Config c = ParseConfig(
        "server: {listen: '0.0.0.0:9000', threads: 4, base_url: 'https://api.example/'}\n"
        "data_dir: ../var\nplugins: {manifest_dirs: [plugins.d]}\n"
        "credits: {monthly_allowance: 500, calls_per_minute: 10}\n",
        "/etc/lastro/lastro.yaml");
    EXPECT_EQ(c.server.listen_host, "0.0.0.0");
    EXPECT_EQ(c.server.listen_port, 9000);
    EXPECT_EQ(c.server.threads, 4);
    EXPECT_EQ(c.server.base_url, "https://api.example");
    EXPECT_EQ(c.data_dir, "/etc/var");
    EXPECT_EQ(c.plugins.manifest_dirs.at(0), "/etc/lastro/plugins.d");
    EXPECT_EQ(c.credits.monthly_allowance, 500);
}

TEST(ConfigTest, MetricsAreOffUnlessGivenAListenAddress) {
    EXPECT_TRUE(ParseConfig("server: {threads: 2}\n", "/etc/lastro/lastro.yaml").metrics.listen_host.empty());
    EXPECT_TRUE(
        ParseConfig("metrics: {listen: ''}\n", "/etc/lastro/lastro.yaml").metrics.listen_host.empty());
    const Config c = ParseConfig("metrics: {listen: '127.0.0.1:9464'}\n", "/etc/lastro/lastro.yaml");
    EXPECT_EQ(c.metrics.listen_host, "127.0.0.1");
    EXPECT_EQ(c.metrics.listen_port, 9464);
    EXPECT_EQ(
        Error("metrics: {listen: 9464}\n"),
        "/etc/lastro/lastro.yaml:1:19: metrics.listen: expected host:port, e.g. 127.0.0.1:9464, or \"\" for "
        "no metrics");
    EXPECT_EQ(Error("metrics: {port: 1}\n"),
              "/etc/lastro/lastro.yaml:1:11: metrics.port: unknown key (known keys: listen)");
}

TEST(ConfigTest, RejectsUnknownKeysWithTheirLine) {
    EXPECT_EQ(
        Error("server:\n  listen: 127.0.0.1:1\n  thread: 2\n"),
        "/etc/lastro/lastro.yaml:3:3: server.thread: unknown key (known keys: base_url, body_timeout_ms, "
        "header_timeout_ms, instance, keepalive_timeout_ms, listen, max_request_bytes, response_cache_mb, "
        "shutdown_grace_ms, socket_send_buffer_bytes, threads)");
}

TEST(ConfigTest, RejectsWrongTypesAndValues) {
    EXPECT_EQ(Error("server: {threads: many}\n"),
              "/etc/lastro/lastro.yaml:1:19: server.threads: expected an integer, found 'many'");
    EXPECT_EQ(Error("server: {listen: nowhere}\n"),
              "/etc/lastro/lastro.yaml:1:18: server.listen: expected host:port, e.g. 127.0.0.1:8080");
    EXPECT_EQ(Error("database: {backend: mysql}\n"),
              "/etc/lastro/lastro.yaml:1:21: database.backend: expected sqlite or pgsql, found 'mysql'");
    EXPECT_EQ(Error("database: {pgsql: {reply_timeout_ms: 0}}\n"),
              "/etc/lastro/lastro.yaml:1:38: database.pgsql.reply_timeout_ms: must be between 1 and 600000");
    EXPECT_EQ(Error("credits: {calls_per_minute: 0}\n"),
              "/etc/lastro/lastro.yaml:1:29: credits.calls_per_minute: must be at least 1");
    EXPECT_NE(Error("server: {listen: [1}\n").find("malformed YAML"), std::string::npos);
    EXPECT_EQ(Error("server: {socket_send_buffer_bytes: 100}\n"),
              "/etc/lastro/lastro.yaml:1:36: server.socket_send_buffer_bytes: must be 0 (the kernel's "
              "autotuning) or 4096 to 67108864");
    EXPECT_EQ(ParseConfig("server: {socket_send_buffer_bytes: 65536}\n", "/etc/lastro/lastro.yaml")
                  .server.socket_send_buffer_bytes,
              65536);
    EXPECT_NE(
        Error("log: {level: info}\nlog: {level: debug}\n").find("2:1: log: duplicate key (first at line 1)"),
        std::string::npos);
}

TEST(ConfigTest, BillingAndAuthenticationKeys) {
    Config defaults = ParseConfig("data_dir: var\n", "/etc/lastro/lastro.yaml");
    EXPECT_EQ(defaults.server.threads, 0);  // auto
    ResolveDefaults(defaults);
    EXPECT_EQ(defaults.server.threads, AutoThreads(Backend::kSqlite, std::thread::hardware_concurrency()));
    EXPECT_EQ(defaults.database.pool_size, defaults.server.threads + 2);
    EXPECT_TRUE(defaults.database.sqlite_sync_full);
    EXPECT_EQ(defaults.server.instance, "");  // resolved by lastrod at start
    EXPECT_EQ(defaults.auth.key_cache_ms, 5000);
    EXPECT_EQ(defaults.billing.stale_reservation_seconds, 600);
    EXPECT_EQ(defaults.billing.write_timeout_ms, 2000);
    EXPECT_EQ(defaults.server.response_cache_mb, 32);
    EXPECT_EQ(defaults.database.pgsql_reply_timeout_ms, 5000);
    EXPECT_EQ(defaults.database.sqlite_cache_mb, 64);
    EXPECT_EQ(defaults.database.sqlite_mmap_mb, 2047);

    Config c = ParseConfig(
        "server: {threads: 4, instance: api-2, response_cache_mb: 0}\n"
        "database: {sqlite: {synchronous: normal, cache_mb: 8, mmap_mb: 0}}\n"
        "auth: {key_cache_ms: 0}\nbilling: {stale_reservation_seconds: 120}\n",
        "/etc/lastro/lastro.yaml");
    ResolveDefaults(c);
    EXPECT_EQ(c.server.instance, "api-2");
    EXPECT_EQ(c.server.response_cache_mb, 0);
    EXPECT_EQ(c.database.pool_size, 6);
    EXPECT_FALSE(c.database.sqlite_sync_full);
    EXPECT_EQ(c.database.sqlite_cache_mb, 8);
    EXPECT_EQ(c.database.sqlite_mmap_mb, 0);
    EXPECT_EQ(c.auth.key_cache_ms, 0);
    EXPECT_EQ(c.billing.stale_reservation_seconds, 120);

    EXPECT_EQ(Error("server: {instance: 'a b'}\n"),
              "/etc/lastro/lastro.yaml:1:20: server.instance: must be 1 to 128 characters without spaces");
    EXPECT_EQ(
        Error("database: {pool_size: 1}\n"),
        "/etc/lastro/lastro.yaml:1:23: database.pool_size: must be at least 2 (the ledger writer holds one "
        "connection)");
    EXPECT_EQ(
        Error("database: {sqlite: {synchronous: off}}\n"),
        "/etc/lastro/lastro.yaml:1:34: database.sqlite.synchronous: expected full or normal, found 'off'");
    EXPECT_EQ(
        Error("database: {sqlite: {mmap_mb: 4096}}\n"),
        "/etc/lastro/lastro.yaml:1:30: database.sqlite.mmap_mb: must be between 0 (no memory map) and 2047");
    EXPECT_EQ(Error("database: {sqlite: {cache_mb: 0}}\n"),
              "/etc/lastro/lastro.yaml:1:31: database.sqlite.cache_mb: must be between 1 and 65536");
    EXPECT_EQ(
        Error("auth: {key_cache_ms: -1}\n"),
        "/etc/lastro/lastro.yaml:1:22: auth.key_cache_ms: must be between 0 (ask the database every call) "
        "and 3600000");
    EXPECT_EQ(Error("server: {threads: some}\n"),
              "/etc/lastro/lastro.yaml:1:19: server.threads: expected an integer, found 'some'");
    EXPECT_EQ(ParseConfig("server: {threads: auto}\n", "/etc/lastro/lastro.yaml").server.threads, 0);
    EXPECT_EQ(Error("server: {response_cache_mb: -1}\n"),
              "/etc/lastro/lastro.yaml:1:29: server.response_cache_mb: must be between 0 (off) and 65536");
    EXPECT_EQ(Error("billing: {write_timeout_ms: 5000}\n"),
              "/etc/lastro/lastro.yaml:1:29: billing.write_timeout_ms: must be under half of "
              "server.header_timeout_ms (10000)");
    EXPECT_EQ(Error("billing: {stale_reservation_seconds: 30}\n"),
              "/etc/lastro/lastro.yaml:1:38: billing.stale_reservation_seconds: must be at least 60");
}

TEST(ConfigTest, FailedAuthenticationsAndTheCursorSecretFile) {
    Config defaults = ParseConfig("data_dir: /srv/lastro\n", "/etc/lastro/lastro.yaml");
    EXPECT_EQ(defaults.auth.unknown_key_cache_ms, 60000);
    EXPECT_EQ(defaults.auth.failed_auth_limit, 30);
    EXPECT_EQ(defaults.auth.failed_auth_window_s, 60);
    ApplyEnvironment(defaults);
    EXPECT_EQ(defaults.cursors.secret_file, "/srv/lastro/cursor.key");

    Config c = ParseConfig(
        "auth: {unknown_key_cache_ms: 0, failed_auth_limit: 0, failed_auth_window_s: 600}\n"
        "cursors: {secret_file: secrets/cursor.key}\n",
        "/etc/lastro/lastro.yaml");
    EXPECT_EQ(c.auth.unknown_key_cache_ms, 0);
    EXPECT_EQ(c.auth.failed_auth_limit, 0);
    EXPECT_EQ(c.auth.failed_auth_window_s, 600);
    EXPECT_EQ(c.cursors.secret_file, "/etc/lastro/secrets/cursor.key");

    EXPECT_EQ(
        Error("auth: {failed_auth_limit: -1}\n"),
        "/etc/lastro/lastro.yaml:1:27: auth.failed_auth_limit: must be between 0 (no limit) and 1000000");
    EXPECT_EQ(Error("auth: {failed_auth_window_s: 0}\n"),
              "/etc/lastro/lastro.yaml:1:30: auth.failed_auth_window_s: must be between 1 and 86400");
    EXPECT_EQ(Error("cursors: {secret_file: ''}\n"),
              "/etc/lastro/lastro.yaml:1:24: cursors.secret_file: must not be empty");
}

TEST(ConfigTest, AutomaticThreadsFollowTheBackend) {
    EXPECT_EQ(AutoThreads(Backend::kSqlite, 1), 2);
    EXPECT_EQ(AutoThreads(Backend::kSqlite, 2), 4);
    EXPECT_EQ(AutoThreads(Backend::kSqlite, 0), 2);  // unknown core count
    EXPECT_EQ(AutoThreads(Backend::kSqlite, 128), 64);
    EXPECT_EQ(AutoThreads(Backend::kPgsql, 2), 32);
}

TEST(ConfigTest, EnvironmentOverridesTheFile) {
    Config c = ParseConfig("data_dir: /srv/lastro\n", "/etc/lastro/lastro.yaml");
    setenv("LASTRO_LISTEN", "127.0.0.1:0", 1);
    setenv("LASTRO_DATABASE", "postgresql://u@127.0.0.1:5/db", 1);
    ApplyEnvironment(c);
    unsetenv("LASTRO_LISTEN");
    unsetenv("LASTRO_DATABASE");
    EXPECT_EQ(c.server.listen_port, 0);
    EXPECT_EQ(c.database.backend, Backend::kPgsql);
    EXPECT_EQ(c.database.pgsql_conninfo, "postgresql://u@127.0.0.1:5/db");

    Config d = ParseConfig("data_dir: /srv/lastro\n", "/etc/lastro/lastro.yaml");
    ApplyEnvironment(d);
    EXPECT_EQ(d.database.sqlite_path, "/srv/lastro/lastro.db");
    EXPECT_EQ(d.database.sqlite_billing_path, "/srv/lastro/lastro-billing.db");

    // Billing's file: beside the data file by default, even one LASTRO_DATABASE names; a
    // relative billing_path is under data_dir; the data file itself is refused.
    setenv("LASTRO_DATABASE", "sqlite:/tmp/copy/x.sqlite", 1);
    Config moved = ParseConfig("data_dir: /srv/lastro\ndatabase:\n  sqlite:\n    billing_path: b.db\n",
                               "/etc/lastro/lastro.yaml");
    ApplyEnvironment(moved);
    unsetenv("LASTRO_DATABASE");
    EXPECT_EQ(moved.database.sqlite_path, "/tmp/copy/x.sqlite");
    EXPECT_EQ(moved.database.sqlite_billing_path, "/tmp/copy/x-billing.sqlite");
    Config own = ParseConfig("data_dir: /srv/lastro\ndatabase:\n  sqlite:\n    billing_path: ledger/b.db\n",
                             "/etc/lastro/lastro.yaml");
    ApplyEnvironment(own);
    EXPECT_EQ(own.database.sqlite_billing_path, "/srv/lastro/ledger/b.db");
    Config same = ParseConfig("data_dir: /srv/lastro\ndatabase:\n  sqlite:\n    billing_path: lastro.db\n",
                              "/etc/lastro/lastro.yaml");
    try {
        ApplyEnvironment(same);
        ADD_FAILURE() << "billing_path naming the data file was accepted";
    } catch (const YamlError& e) {
        EXPECT_NE(std::string(e.what()).find("database.sqlite.billing_path"), std::string::npos) << e.what();
    }

    setenv("LASTRO_DATABASE", "mysql://x", 1);
    EXPECT_THROW(ApplyEnvironment(d), YamlError);
    unsetenv("LASTRO_DATABASE");
}

}  // namespace
}  // namespace lastro::config
