// A Lastro deployment for end-to-end tests: a temporary directory with a configuration file
// that loads the plugins of chosen manifest directories, a database of its own (a SQLite file,
// or a database of the shared PostgreSQL cluster) migrated and loaded with the plugins' sample
// through the real `lastro` CLI, and a real `lastrod` on a free port of 127.0.0.1.
// docs/testing.md describes it.
#pragma once

#include <lastro/sdk/testing/backend.hpp>
#include <lastro/sdk/testing/http_client.hpp>
#include <lastro/sdk/testing/process.hpp>
#include <lastro/sdk/testing/shared_resources.hpp>

#include <boost/json/object.hpp>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lastro::sdk::testing {

// What every deployment's configuration says (tests compare /pricing with it).
inline constexpr std::int64_t kMonthlyAllowance = 5000;
inline constexpr std::int64_t kCallsPerMinute = 600;
// How long a lastrod trusts what it read about a key (a revocation takes effect within it).
inline constexpr int kKeyCacheMs = 1000;
inline constexpr const char* kBaseUrl = "https://api.lastro.test";

class Lastrod {
public:
    // Starts lastrod with LASTRO_CONFIG=config (and `env`, NAME=VALUE each: a test clock through
    // libfaketime's LD_PRELOAD, say) and waits (bounded) for
    // "lastrod <version>: listening on http://127.0.0.1:PORT"; throws with its output otherwise.
    static std::unique_ptr<Lastrod> Start(const std::filesystem::path& config,
                                          const std::vector<std::string>& env = {});

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

struct DeploymentOptions {
    // plugins.manifest_dirs: the plugins `lastro` and `lastrod` load.
    std::vector<std::filesystem::path> plugin_dirs{};
    // The plugins whose sample writers write the sample (SharedResources::SampleDir); empty:
    // plugin_dirs. A test plugin without a sample writer can share its host plugins' sample.
    std::vector<std::filesystem::path> sample_plugin_dirs{};
    // The database starts with the sample ingested: a copy of SharedResources::LoadedDatabase,
    // where `lastro ingest --sample` loaded it once for these plugins. false: no data.
    bool ingest_sample = true;
    // Where the SQLite file goes (default: Dir()), e.g. a file system a test controls;
    // PostgreSQL deployments ignore it.
    std::filesystem::path sqlite_dir{};
};

class Deployment {
public:
    // Throws std::runtime_error, with the failing command's output, when any step fails.
    Deployment(Backend backend, const std::string& label, DeploymentOptions options);
    ~Deployment();
    Deployment(const Deployment&) = delete;
    Deployment& operator=(const Deployment&) = delete;

    Backend GetBackend() const { return backend_; }
    const std::filesystem::path& Dir() const { return dir_; }
    const std::filesystem::path& ConfigFile() const { return config_file_; }
    const std::filesystem::path& AccessLog() const { return access_log_; }
    const DeploymentOptions& Options() const { return options_; }
    // The sample of this deployment's plugins (DeploymentOptions::sample_plugin_dirs).
    const std::filesystem::path& SampleDir() const;
    // Names of the sample's files starting with `prefix` and ending in `extension`, sorted;
    // throws when there is none.
    std::vector<std::string> SampleFiles(const std::string& prefix, const std::string& extension) const;
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

    // Every item of a cursor-paginated operation: `path`?<query> (query without limit and
    // cursor), read in pages of `limit` with a key of its own. Throws on any unexpected answer.
    std::vector<boost::json::object> AllItems(const std::string& path, const std::string& query = "",
                                              int limit = 100);

private:
    Backend backend_;
    DeploymentOptions options_;
    std::filesystem::path dir_;
    std::filesystem::path config_file_;
    std::filesystem::path access_log_;
    std::string instance_;
    std::string database_yaml_;
    std::unique_ptr<Lastrod> server_;
    std::unique_ptr<HttpClient> http_;
    std::optional<std::string> paging_key_;
    int key_counter_ = 0;
};

}  // namespace lastro::sdk::testing
