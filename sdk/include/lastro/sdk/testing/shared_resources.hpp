// What every test of one process shares: a temporary root, the sample files (written once per
// set of plugins) and a throwaway PostgreSQL cluster (started on first use). A GoogleTest
// Environment releases them at the end of the run, whatever happened (docs/testing.md).
#pragma once

#include <lastro/sdk/testing/backend.hpp>
#include <lastro/sdk/testing/postgres_cluster.hpp>

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace lastro::sdk::testing {

// Where the programs under test are: $LASTRO_E2E_BIN_DIR/<name>, else the directory the kit was
// built for (the build's bin/; an installed SDK names its own).
std::filesystem::path BinaryPath(const std::string& name);

class SharedResources {
public:
    static SharedResources& Get();

    // $TMPDIR/lastro-e2e-XXXXXX, made on first use.
    const std::filesystem::path& TempRoot();
    // The directory `lastro sample --out` wrote with the plugins of `plugin_dirs` loaded (their
    // sample writers), written on first use for each set of directories.
    const std::filesystem::path& SampleDir(const std::vector<std::filesystem::path>& plugin_dirs);
    // A database migrated and loaded with the sample of `sample_plugin_dirs` by the plugins of
    // `plugin_dirs`, through the CLI (`lastro db migrate`, `lastro ingest --sample`), made once per
    // backend and set of plugins: on SQLite the file, on PostgreSQL the name of a database of the
    // cluster. Deployments start from a copy of it rather than ingest the same files again.
    const std::string& LoadedDatabase(Backend backend, const std::vector<std::filesystem::path>& plugin_dirs,
                                      const std::vector<std::filesystem::path>& sample_plugin_dirs);
    // The cluster; throws (every time, with the first reason) when it could not start.
    PostgresCluster& Postgres();
    // Stops the cluster and deletes the temporary root (kept when LASTRO_E2E_KEEP is set).
    void Release();

private:
    std::filesystem::path root_;
    std::map<std::vector<std::filesystem::path>, std::filesystem::path> samples_;
    using LoadedKey =
        std::tuple<Backend, std::vector<std::filesystem::path>, std::vector<std::filesystem::path>>;
    std::map<LoadedKey, std::string> loaded_;
    std::unique_ptr<PostgresCluster> postgres_;
    std::optional<std::string> postgres_error_;
};

}  // namespace lastro::sdk::testing
