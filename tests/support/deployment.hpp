// A Lastro deployment for one fixture and one backend: a temporary directory with a
// configuration file, a fresh database (a SQLite file, or a database of the suite's
// PostgreSQL cluster) migrated and loaded with the sample registry through the real `lastro`
// CLI, and a real `lastrod` on a free port of 127.0.0.1. docs/testing.md describes it.
#pragma once

#include "support/http_client.hpp"
#include "support/postgres_cluster.hpp"
#include "support/process.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace lastro::e2e {

enum class Backend { kSqlite, kPostgres };

std::string BackendName(Backend backend);
// For GoogleTest's messages ("sqlite" rather than the bytes of the enum).
void PrintTo(Backend backend, std::ostream* os);

// What every deployment's configuration says (the tests compare /pricing with it).
inline constexpr std::int64_t kMonthlyAllowance = 5000;
inline constexpr std::int64_t kCallsPerMinute = 600;
// How long a lastrod trusts what it read about a key (a revocation takes effect within it).
inline constexpr int kKeyCacheMs = 1000;
inline constexpr const char* kBaseUrl = "https://api.lastro.test";
inline constexpr const char* kRegistryDataset = "cvm.registro_fundo_classe";

// Resources shared by every deployment of the test process: the temporary root, the sample
// files (generated once) and the PostgreSQL cluster (started on first use). Release() stops
// and deletes them; the suite's Environment calls it at the end, whatever happened.
class SharedResources {
public:
    static SharedResources& Get();

    const std::filesystem::path& TempRoot();
    // The directory `lastro sample --out` wrote.
    const std::filesystem::path& SampleDir();
    // The cluster; throws (every time, with the first reason) when it could not start.
    PostgresCluster& Postgres();
    void Release();

private:
    std::filesystem::path root_;
    std::filesystem::path sample_;
    std::unique_ptr<PostgresCluster> postgres_;
    std::optional<std::string> postgres_error_;
};

std::filesystem::path BinaryPath(const std::string& name);  // LASTRO_BINARY_DIR/bin/<name>
// Names of the sample's files starting with `prefix` and ending in `extension`, sorted.
std::vector<std::string> SampleFiles(const std::string& prefix, const std::string& extension);

// A running lastrod.
class Lastrod {
public:
    // Starts lastrod with LASTRO_CONFIG=config and waits (bounded) for
    // "lastrod <version>: listening on http://127.0.0.1:PORT"; throws with its output otherwise.
    static std::unique_ptr<Lastrod> Start(const std::filesystem::path& config);

    std::uint16_t Port() const { return port_; }
    const std::string& Version() const { return version_; }
    ChildProcess& Process() { return *process_; }
    // SIGTERM, then the exit code within `timeout` (nullopt: still running).
    std::optional<int> Terminate(std::chrono::milliseconds timeout);
    // SIGKILL (a crash: nothing is drained or flushed), then the exit code once reaped.
    std::optional<int> Kill();

private:
    std::unique_ptr<ChildProcess> process_;
    std::uint16_t port_ = 0;
    std::string version_;
};

struct KeySpec {
    std::optional<std::int64_t> credits;
    std::optional<std::int64_t> rate;
    std::string scopes;  // comma-separated; empty: every scope
    std::string name;    // empty: a unique name
};

struct CreatedKey {
    std::string secret;   // what `lastro keys create` printed
    std::int64_t id = 0;  // what `lastro keys usage` and `lastro ledger --key` take
};

class Deployment {
public:
    // Throws std::runtime_error, with the failing command's output, when any step fails.
    // `sqlite_dir`: where the SQLite file goes (default: Dir()), e.g. a file system a test
    // controls; PostgreSQL deployments ignore it. `extra_plugin_dirs`: manifest directories
    // loaded besides the build's plugins (plugins only tests load).
    Deployment(Backend backend, const std::string& label, const std::filesystem::path& sqlite_dir = {},
               const std::vector<std::filesystem::path>& extra_plugin_dirs = {});
    ~Deployment();
    Deployment(const Deployment&) = delete;
    Deployment& operator=(const Deployment&) = delete;

    Backend GetBackend() const { return backend_; }
    const std::filesystem::path& Dir() const { return dir_; }
    const std::filesystem::path& ConfigFile() const { return config_file_; }
    const std::filesystem::path& AccessLog() const { return access_log_; }
    std::filesystem::path SampleZip() const;
    // Ingests every dataset of the sample through `lastro ingest --sample`, in the order the
    // manifests give. Throws with the CLI's output on failure.
    void IngestSample() const;

    // server.instance of the deployment's own lastrod: "e2e-<label>-<backend>".
    const std::string& Instance() const { return instance_; }
    // The configuration text of this deployment, with another access log file and, when
    // given, another server.instance.
    std::string ConfigText(const std::filesystem::path& access_log, const std::string& instance = "") const;
    // Writes ConfigText(access_log, instance) (plus `extra` appended) to Dir()/name and returns
    // its path. Without `instance`, "<Instance()>-<name without extension>": a lastrod refunds
    // its instance's open reservations when it starts, so two processes never share a name
    // unless a test asks for it.
    std::filesystem::path WriteConfig(const std::string& name, const std::filesystem::path& access_log,
                                      const std::string& extra = "", const std::string& instance = "") const;

    // Runs `lastro ARGS...` against this deployment's configuration.
    CommandResult Lastro(const std::vector<std::string>& args) const;
    // `lastro keys create`; returns the key (stdout). Throws when the CLI fails.
    std::string CreateKey(const KeySpec& spec = {}) { return CreateKeyWithId(spec).secret; }
    // The same, with the id the CLI reports on stderr ("created key N (name)").
    CreatedKey CreateKeyWithId(const KeySpec& spec = {});
    // A key with plenty of credits and calls per minute, for tests that do not count them.
    std::string RoomyKey() { return CreateKey({1000000, 100000, "", ""}); }

    Lastrod& Server() { return *server_; }

    // One lastrod serves a SQLite database (it holds the database's serving lock): a test that
    // runs a lastrod of its own on this deployment sets the deployment's own aside until the
    // returned guard ends, which starts it again (on a new port; Http() follows). On
    // PostgreSQL, where instances share the database, the guard does nothing.
    class ServerAside {
    public:
        explicit ServerAside(Deployment* d) : d_(d) {}
        ServerAside(ServerAside&& other) noexcept : d_(std::exchange(other.d_, nullptr)) {}
        ServerAside(const ServerAside&) = delete;
        ServerAside& operator=(const ServerAside&) = delete;
        ServerAside& operator=(ServerAside&&) = delete;
        ~ServerAside();

    private:
        Deployment* d_;
    };
    [[nodiscard]] ServerAside SetServerAsideOnSqlite();
    HttpClient& Http() { return *http_; }
    HttpResponse Get(const std::string& target, const std::optional<std::string>& key = std::nullopt) {
        return http_->Get(target, key);
    }

    // Every item of /v1/fundos?<query> (query without limit and cursor), read in pages of
    // `limit`. Throws on any unexpected answer.
    std::vector<boost::json::object> AllFunds(const std::string& query = "", int limit = 100);

private:
    Backend backend_;
    std::filesystem::path dir_;
    std::filesystem::path config_file_;
    std::filesystem::path access_log_;
    std::string instance_;
    std::string database_yaml_;
    std::vector<std::filesystem::path> plugin_dirs_;
    std::unique_ptr<Lastrod> server_;
    std::unique_ptr<HttpClient> http_;
    std::optional<std::string> funds_key_;
    int key_counter_ = 0;
};

}  // namespace lastro::e2e
