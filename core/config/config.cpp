#include "core/config/config.hpp"

#include "core/config/yaml_reader.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

namespace lastro::config {
namespace {

namespace fs = std::filesystem;

fs::path Anchor(const fs::path& base, const std::string& value) {
    fs::path p(value);
    return p.is_absolute() ? p.lexically_normal() : (base / p).lexically_normal();
}

// "host:port" with a port 1..65535 (0 allowed: the kernel picks one, used by tests).
bool ParseListen(const std::string& text, std::string& host, std::uint16_t& port) {
    auto colon = text.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) {
        return false;
    }
    std::string port_text = text.substr(colon + 1);
    if (port_text.find_first_not_of("0123456789") != std::string::npos || port_text.size() > 5) {
        return false;
    }
    long value = std::stol(port_text);
    if (value > 65535) {
        return false;
    }
    host = text.substr(0, colon);
    port = static_cast<std::uint16_t>(value);
    return true;
}

constexpr int kSqliteMaxMmapMb = 2047;

int PositiveInt(const YamlMap& map, const std::string& key, int fallback, int max) {
    auto value = map.OptionalInteger(key);
    if (!value) {
        return fallback;
    }
    if (*value < 1 || *value > max) {
        map.Get(key).Fail("must be between 1 and " + std::to_string(max));
    }
    return static_cast<int>(*value);
}

void ParseServer(const YamlMap& map, Config& config) {
    ServerConfig& s = config.server;
    if (auto listen = map.Find("listen")) {
        if (!ParseListen(listen->AsString(), s.listen_host, s.listen_port)) {
            listen->Fail("expected host:port, e.g. 127.0.0.1:8080");
        }
    }
    if (auto threads = map.Find("threads"); threads && threads->IsScalar() && threads->AsString() == "auto") {
        s.threads = 0;
    } else {
        s.threads = PositiveInt(map, "threads", s.threads, 256);
    }
    s.max_request_bytes = static_cast<std::size_t>(PositiveInt(map, "max_request_bytes", 16384, 1 << 24));
    if (s.max_request_bytes < 1024) {
        map.Get("max_request_bytes").Fail("must be at least 1024");
    }
    s.header_timeout_ms = PositiveInt(map, "header_timeout_ms", s.header_timeout_ms, 3600000);
    s.body_timeout_ms = PositiveInt(map, "body_timeout_ms", s.body_timeout_ms, 3600000);
    s.keepalive_timeout_ms = PositiveInt(map, "keepalive_timeout_ms", s.keepalive_timeout_ms, 3600000);
    s.shutdown_grace_ms = PositiveInt(map, "shutdown_grace_ms", s.shutdown_grace_ms, 3600000);
    if (auto bytes = map.OptionalInteger("socket_send_buffer_bytes")) {
        if (*bytes != 0 && (*bytes < 4096 || *bytes > (64 << 20))) {
            map.Get("socket_send_buffer_bytes")
                .Fail("must be 0 (the kernel's autotuning) or 4096 to 67108864");
        }
        s.socket_send_buffer_bytes = static_cast<int>(*bytes);
    }
    if (auto cache = map.OptionalInteger("response_cache_mb")) {
        if (*cache < 0 || *cache > 65536) {
            map.Get("response_cache_mb").Fail("must be between 0 (off) and 65536");
        }
        s.response_cache_mb = static_cast<int>(*cache);
    }
    if (auto base = map.OptionalString("base_url")) {
        if (base->rfind("http://", 0) != 0 && base->rfind("https://", 0) != 0) {
            map.Get("base_url").Fail("must start with http:// or https://");
        }
        while (!base->empty() && base->back() == '/') {
            base->pop_back();
        }
        s.base_url = *base;
    }
    if (auto instance = map.OptionalString("instance")) {
        if (instance->empty() || instance->size() > 128 ||
            instance->find_first_of(" \t\r\n") != std::string::npos) {
            map.Get("instance").Fail("must be 1 to 128 characters without spaces");
        }
        s.instance = *instance;
    }
}

void ParseDatabase(const YamlMap& map, Config& config, const fs::path& base) {
    DatabaseConfig& d = config.database;
    std::string backend = map.OptionalString("backend").value_or("sqlite");
    if (backend == "sqlite") {
        d.backend = Backend::kSqlite;
    } else if (backend == "pgsql") {
        d.backend = Backend::kPgsql;
    } else {
        map.Get("backend").Fail("expected sqlite or pgsql, found '" + backend + "'");
    }
    if (map.Find("pool_size")) {
        d.pool_size = PositiveInt(map, "pool_size", d.pool_size, 1024);
        if (d.pool_size < 2) {
            map.Get("pool_size").Fail("must be at least 2 (the ledger writer holds one connection)");
        }
    }
    if (auto sqlite = map.Find("sqlite")) {
        YamlMap s(*sqlite, {"path", "billing_path", "busy_timeout_ms", "synchronous", "cache_mb", "mmap_mb"});
        if (auto sync = s.OptionalString("synchronous")) {
            if (*sync != "full" && *sync != "normal") {
                s.Get("synchronous").Fail("expected full or normal, found '" + *sync + "'");
            }
            d.sqlite_sync_full = *sync == "full";
        }
        if (auto path = s.OptionalString("path")) {
            d.sqlite_path = path->empty() ? fs::path() : fs::path(*path);
        }
        if (auto path = s.OptionalString("billing_path")) {
            d.sqlite_billing_path = path->empty() ? fs::path() : fs::path(*path);
        }
        d.sqlite_busy_timeout_ms = PositiveInt(s, "busy_timeout_ms", d.sqlite_busy_timeout_ms, 600000);
        d.sqlite_cache_mb = PositiveInt(s, "cache_mb", d.sqlite_cache_mb, 65536);
        if (auto mmap = s.OptionalInteger("mmap_mb")) {
            // SQLite as Debian builds it maps at most 2 GiB less 64 KiB (SQLITE_MAX_MMAP_SIZE).
            if (*mmap < 0 || *mmap > kSqliteMaxMmapMb) {
                s.Get("mmap_mb").Fail("must be between 0 (no memory map) and " +
                                      std::to_string(kSqliteMaxMmapMb));
            }
            d.sqlite_mmap_mb = static_cast<int>(*mmap);
        }
    }
    if (auto pgsql = map.Find("pgsql")) {
        YamlMap p(*pgsql, {"conninfo", "reply_timeout_ms"});
        d.pgsql_conninfo = p.OptionalString("conninfo").value_or("");
        d.pgsql_reply_timeout_ms = PositiveInt(p, "reply_timeout_ms", d.pgsql_reply_timeout_ms, 600000);
    }
    if (d.backend == Backend::kPgsql && d.pgsql_conninfo.empty()) {
        map.Get("backend").Fail("backend pgsql needs database.pgsql.conninfo");
    }
    (void)base;
}

}  // namespace

Config ParseConfig(const std::string& text, const fs::path& file) {
    const YAML::Node root = ParseYamlText(text, file.string());
    Config config;
    config.file = file;
    const fs::path base = file.has_parent_path() ? file.parent_path() : fs::path(".");
    YamlNode top(root, file.string(), "");
    if (root.IsNull()) {
        top.Fail("the configuration is empty");
    }
    YamlMap map(top, {"server", "metrics", "sync", "data_dir", "database", "plugins", "credits", "auth",
                      "cursors", "billing", "log"});

    if (auto server = map.Find("server")) {
        ParseServer(
            YamlMap(*server, {"listen", "threads", "max_request_bytes", "header_timeout_ms",
                              "body_timeout_ms", "keepalive_timeout_ms", "shutdown_grace_ms",
                              "socket_send_buffer_bytes", "base_url", "instance", "response_cache_mb"}),
            config);
    }
    if (auto metrics = map.Find("metrics")) {
        YamlMap m(*metrics, {"listen"});
        if (auto listen = m.Find("listen")) {
            const std::string text = listen->AsString();
            if (!text.empty() && !ParseListen(text, config.metrics.listen_host, config.metrics.listen_port)) {
                listen->Fail("expected host:port, e.g. 127.0.0.1:9464, or \"\" for no metrics");
            }
        }
    }
    if (auto sync = map.Find("sync")) {
        YamlMap y(*sync, {"origins", "attempts", "backoff_ms", "timeout_s", "connect_timeout_s"});
        if (auto origins = y.Find("origins")) {
            if (!origins->IsMap()) {
                origins->Fail(
                    "expected a mapping of origin to origin, e.g. {\"https://a.example\": "
                    "\"http://127.0.0.1:8099\"}");
            }
            for (const auto& entry : origins->Raw()) {
                const std::string from = entry.first.IsScalar() ? entry.first.Scalar() : "";
                const std::string to = entry.second.IsScalar() ? entry.second.Scalar() : "";
                for (const std::string& origin : {from, to}) {
                    if (origin.rfind("https://", 0) != 0 && origin.rfind("http://", 0) != 0) {
                        origins->Fail("'" + origin +
                                      "' is not an origin (http://host[:port] or https://...)");
                    }
                }
                config.sync.origins[from] = to;
            }
        }
        config.sync.attempts = PositiveInt(y, "attempts", config.sync.attempts, 20);
        if (auto backoff = y.OptionalInteger("backoff_ms")) {
            if (*backoff < 0 || *backoff > 600000) {
                y.Get("backoff_ms").Fail("must be between 0 and 600000");
            }
            config.sync.backoff_ms = static_cast<int>(*backoff);
        }
        config.sync.timeout_s = PositiveInt(y, "timeout_s", config.sync.timeout_s, 86400);
        config.sync.connect_timeout_s =
            PositiveInt(y, "connect_timeout_s", config.sync.connect_timeout_s, 600);
    }
    config.data_dir = Anchor(base, map.OptionalString("data_dir").value_or("var"));
    if (auto database = map.Find("database")) {
        ParseDatabase(YamlMap(*database, {"backend", "pool_size", "sqlite", "pgsql"}), config, base);
    }
    if (auto plugins = map.Find("plugins")) {
        YamlMap p(*plugins, {"manifest_dirs", "library_dir"});
        for (const std::string& dir : p.Get("manifest_dirs").AsStringList()) {
            config.plugins.manifest_dirs.push_back(Anchor(base, dir));
        }
        if (auto lib = p.OptionalString("library_dir")) {
            config.plugins.library_dir = Anchor(base, *lib);
        }
    }
    if (auto credits = map.Find("credits")) {
        YamlMap c(*credits, {"monthly_allowance", "calls_per_minute"});
        if (auto v = c.OptionalInteger("monthly_allowance")) {
            if (*v < 0) {
                c.Get("monthly_allowance").Fail("must be zero or more");
            }
            config.credits.monthly_allowance = *v;
        }
        if (auto v = c.OptionalInteger("calls_per_minute")) {
            if (*v < 1) {
                c.Get("calls_per_minute").Fail("must be at least 1");
            }
            config.credits.calls_per_minute = *v;
        }
    }
    if (auto auth = map.Find("auth")) {
        YamlMap a(*auth,
                  {"key_cache_ms", "unknown_key_cache_ms", "failed_auth_limit", "failed_auth_window_s"});
        if (auto v = a.OptionalInteger("key_cache_ms")) {
            if (*v < 0 || *v > 3600000) {
                a.Get("key_cache_ms").Fail("must be between 0 (ask the database every call) and 3600000");
            }
            config.auth.key_cache_ms = static_cast<int>(*v);
        }
        if (auto v = a.OptionalInteger("unknown_key_cache_ms")) {
            if (*v < 0 || *v > 3600000) {
                a.Get("unknown_key_cache_ms")
                    .Fail("must be between 0 (ask the database every call) and 3600000");
            }
            config.auth.unknown_key_cache_ms = static_cast<int>(*v);
        }
        if (auto v = a.OptionalInteger("failed_auth_limit")) {
            if (*v < 0 || *v > 1000000) {
                a.Get("failed_auth_limit").Fail("must be between 0 (no limit) and 1000000");
            }
            config.auth.failed_auth_limit = static_cast<int>(*v);
        }
        config.auth.failed_auth_window_s =
            PositiveInt(a, "failed_auth_window_s", config.auth.failed_auth_window_s, 86400);
    }
    if (auto cursors = map.Find("cursors")) {
        YamlMap c(*cursors, {"secret_file"});
        if (auto file = c.OptionalString("secret_file")) {
            if (file->empty()) {
                c.Get("secret_file").Fail("must not be empty");
            }
            config.cursors.secret_file = Anchor(base, *file);
        }
    }
    bool write_timeout_set = false;
    if (auto billing = map.Find("billing")) {
        YamlMap b(*billing, {"stale_reservation_seconds", "write_timeout_ms", "lease_seconds"});
        if (auto lease = b.OptionalInteger("lease_seconds")) {
            if (*lease != 0 && (*lease < 10 || *lease > 3600)) {
                b.Get("lease_seconds").Fail("must be 0 (no leases) or between 10 and 3600");
            }
            config.billing.lease_seconds = static_cast<int>(*lease);
        }
        config.billing.stale_reservation_seconds =
            PositiveInt(b, "stale_reservation_seconds", config.billing.stale_reservation_seconds, 86400);
        if (config.billing.stale_reservation_seconds < 60) {
            b.Get("stale_reservation_seconds").Fail("must be at least 60");
        }
        if (b.Has("write_timeout_ms")) {
            write_timeout_set = true;
            config.billing.write_timeout_ms = PositiveInt(b, "write_timeout_ms", 0, 60000);
            // A call waits for its settlement: its answer must come before the connection's timeout.
            if (config.billing.write_timeout_ms * 2 >= config.server.header_timeout_ms) {
                b.Get("write_timeout_ms")
                    .Fail("must be under half of server.header_timeout_ms (" +
                          std::to_string(config.server.header_timeout_ms) + ")");
            }
        }
    }
    if (!write_timeout_set) {  // the default follows a short header timeout down
        config.billing.write_timeout_ms =
            std::max(1, std::min(config.billing.write_timeout_ms, config.server.header_timeout_ms / 4));
    }
    if (auto log = map.Find("log")) {
        YamlMap l(*log, {"access_log", "level"});
        if (auto access = l.OptionalString("access_log")) {
            config.log.access_log =
                (*access == "stderr" || *access == "off") ? *access : Anchor(base, *access).string();
        }
        if (auto level = l.OptionalString("level")) {
            if (*level != "debug" && *level != "info" && *level != "warn" && *level != "error") {
                l.Get("level").Fail("expected debug, info, warn or error");
            }
            config.log.level = *level;
        }
    }
    return config;
}

int AutoThreads(Backend backend, unsigned cores) {
    if (backend == Backend::kPgsql) {
        return 32;
    }
    return static_cast<int>(std::clamp(2 * cores, 2u, 64u));
}

void ResolveDefaults(Config& config) {
    if (config.server.threads == 0) {
        config.server.threads = AutoThreads(config.database.backend, std::thread::hardware_concurrency());
    }
    if (config.database.pool_size == 0) {
        config.database.pool_size = config.server.threads + 2;
    }
}

void ApplyEnvironment(Config& config) {
    if (const char* listen = std::getenv("LASTRO_LISTEN")) {
        if (!ParseListen(listen, config.server.listen_host, config.server.listen_port)) {
            throw YamlError(std::string("LASTRO_LISTEN: expected host:port, found '") + listen + "'");
        }
    }
    if (const char* dir = std::getenv("LASTRO_DATA_DIR")) {
        if (!*dir) {
            throw YamlError("LASTRO_DATA_DIR: empty");
        }
        config.data_dir = fs::absolute(dir).lexically_normal();
    }
    if (const char* db = std::getenv("LASTRO_DATABASE")) {
        std::string value = db;
        if (value.rfind("sqlite:", 0) == 0 && value.size() > 7) {
            config.database.backend = Backend::kSqlite;
            config.database.sqlite_path = value.substr(7);
            config.database.sqlite_billing_path.clear();  // billing's file goes beside it
        } else if (value.rfind("postgresql://", 0) == 0 || value.rfind("postgres://", 0) == 0) {
            config.database.backend = Backend::kPgsql;
            config.database.pgsql_conninfo = value;
        } else if (value.rfind("pgsql:", 0) == 0 && value.size() > 6) {
            config.database.backend = Backend::kPgsql;
            config.database.pgsql_conninfo = value.substr(6);
        } else {
            throw YamlError(
                "LASTRO_DATABASE: expected sqlite:PATH, postgresql://... or pgsql:CONNINFO, found '" + value +
                "'");
        }
    }
    // The cursor secret too, unless the file names it.
    if (config.cursors.secret_file.empty()) {
        config.cursors.secret_file = config.data_dir / "cursor.key";
    }
    // The SQLite file lives under the data directory unless given as an absolute path.
    fs::path& sqlite = config.database.sqlite_path;
    if (sqlite.empty()) {
        sqlite = config.data_dir / "lastro.db";
    } else if (sqlite.is_relative()) {
        sqlite = (config.data_dir / sqlite).lexically_normal();
    }
    fs::path& billing = config.database.sqlite_billing_path;
    if (billing.empty()) {
        billing = sqlite.parent_path() / (sqlite.stem().string() + "-billing" + sqlite.extension().string());
    } else if (billing.is_relative()) {
        billing = (config.data_dir / billing).lexically_normal();
    }
    if (billing == sqlite) {
        throw YamlError("database.sqlite.billing_path: " + billing.string() +
                        " is the data file itself; billing needs a file of its own");
    }
}

Config LoadConfig(const fs::path& default_file) {
    fs::path file = default_file;
    if (const char* env = std::getenv("LASTRO_CONFIG")) {
        file = env;
    }
    std::ifstream in(file);
    if (!in) {
        throw YamlError(file.string() + ": cannot read the configuration file");
    }
    std::stringstream text;
    text << in.rdbuf();
    Config config = ParseConfig(text.str(), fs::absolute(file).lexically_normal());
    ApplyEnvironment(config);
    ResolveDefaults(config);
    return config;
}

}  // namespace lastro::config
