#include <lastro/sdk/testing/shared_resources.hpp>

#include "command_text.hpp"

#include <lastro/sdk/testing/temp_dir.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <system_error>

namespace lastro::sdk::testing {
namespace {

namespace fs = std::filesystem;

// Whatever happened, at the end of the run the cluster is stopped and the temporary files are
// deleted. Registered by this file, which every user of SharedResources links.
class SharedResourcesEnvironment : public ::testing::Environment {
public:
    void TearDown() override { SharedResources::Get().Release(); }
};

[[maybe_unused]] ::testing::Environment* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new SharedResourcesEnvironment);

}  // namespace

fs::path BinaryPath(const std::string& name) {
    const char* dir = std::getenv("LASTRO_E2E_BIN_DIR");
    return (dir && *dir ? fs::path(dir) : fs::path(LASTRO_TESTING_BIN_DIR)) / name;
}

SharedResources& SharedResources::Get() {
    static SharedResources shared;
    return shared;
}

const fs::path& SharedResources::TempRoot() {
    if (root_.empty()) {
        root_ = MakeTempDir("lastro-e2e-");
    }
    return root_;
}

const fs::path& SharedResources::SampleDir(const std::vector<fs::path>& plugin_dirs) {
    auto found = samples_.find(plugin_dirs);
    if (found != samples_.end()) {
        return found->second;
    }
    // `lastro sample` runs the sample writers of the plugins its configuration loads.
    const std::string name = samples_.empty() ? "sample" : "sample-" + std::to_string(samples_.size() + 1);
    const fs::path config = TempRoot() / (name + ".yaml");
    WriteFile(config, "plugins:\n  manifest_dirs: [" + QuotedList(plugin_dirs) + "]\n");
    const fs::path dir = TempRoot() / name;
    CommandOptions options;
    options.env = {"LASTRO_CONFIG=" + config.string()};
    Require(RunCommand({BinaryPath("lastro").string(), "sample", "--out", dir.string()}, options),
            "lastro sample");
    return samples_.emplace(plugin_dirs, dir).first->second;
}

const std::string& SharedResources::LoadedDatabase(Backend backend, const std::vector<fs::path>& plugin_dirs,
                                                   const std::vector<fs::path>& sample_plugin_dirs) {
    const LoadedKey key{backend, plugin_dirs, sample_plugin_dirs};
    if (auto found = loaded_.find(key); found != loaded_.end()) {
        return found->second;
    }
    const std::string number = std::to_string(loaded_.size() + 1);
    const fs::path dir = TempRoot() / ("loaded-" + number + "-" + BackendName(backend));
    fs::create_directories(dir);
    const std::string database =
        backend == Backend::kSqlite ? (dir / "lastro.db").string() : "lastro_loaded_" + number;
    const std::string where = backend == Backend::kSqlite ? database : Postgres().CreateDatabase(database);
    const fs::path config = dir / "lastro.yaml";
    WriteFile(config, "data_dir: " + Quote((dir / "var").string()) + "\n" + DatabaseYaml(backend, where) +
                          "plugins:\n  manifest_dirs: [" + QuotedList(plugin_dirs) + "]\n");
    CommandOptions options;
    options.env = {"LASTRO_CONFIG=" + config.string()};
    Require(RunCommand({BinaryPath("lastro").string(), "db", "migrate"}, options), "lastro db migrate");
    Require(RunCommand(
                {BinaryPath("lastro").string(), "ingest", "--sample", SampleDir(sample_plugin_dirs).string()},
                options),
            "lastro ingest --sample");
    return loaded_.emplace(key, database).first->second;
}

PostgresCluster& SharedResources::Postgres() {
    if (postgres_error_) {
        throw std::runtime_error(*postgres_error_);
    }
    if (!postgres_) {
        try {
            postgres_ = PostgresCluster::Start();
        } catch (const std::exception& e) {
            postgres_error_ = std::string("PostgreSQL could not be started: ") + e.what();
            throw std::runtime_error(*postgres_error_);
        }
    }
    return *postgres_;
}

void SharedResources::Release() {
    postgres_.reset();  // fast shutdown, then its directory is deleted
    loaded_.clear();
    if (!root_.empty()) {
        const char* keep = std::getenv("LASTRO_E2E_KEEP");
        if (keep && *keep && std::string(keep) != "0") {
            std::fprintf(stderr, "e2e: kept %s (LASTRO_E2E_KEEP)\n", root_.c_str());
        } else {
            std::error_code ignored;
            fs::remove_all(root_, ignored);
        }
        root_.clear();
        samples_.clear();
    }
}

}  // namespace lastro::sdk::testing
