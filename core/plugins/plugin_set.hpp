// Loads plugins (docs/plugins.md): manifests first, validated strictly; then each library with
// Boost.DLL (rtld_now), its ABI number, its factory, and the one-to-one check of handlers,
// ingesters and the sample writer against the manifest. Libraries stay loaded for the life of the process.
#pragma once

#include "core/config/config.hpp"
#include "core/plugins/manifest.hpp"

#include <lastro/sdk/plugin.hpp>

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace lastro::plugins {

class PluginError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct LoadedPlugin {
    Manifest manifest;
    std::unique_ptr<sdk::Plugin> plugin;  // null for the host's built-in operations
    std::map<std::string, sdk::Handler> handlers;
    std::map<std::string, std::shared_ptr<sdk::Ingester>> ingesters;
    std::shared_ptr<sdk::SampleWriter> sample_writer;  // when the datasets declare `sample:`
    bool started = false;
};

class PluginSet {
public:
    // `builtin` is the host's own manifest with its handlers (schema.read); it takes part in
    // the uniqueness checks like any plugin. Throws PluginError naming file and line.
    static std::unique_ptr<PluginSet> Load(const config::PluginsConfig& config, LoadedPlugin builtin);
    // Reads and validates manifests only (no library is opened): `lastro plugins --check`.
    static std::vector<Manifest> ReadManifests(const config::PluginsConfig& config);

    ~PluginSet();

    const std::vector<std::unique_ptr<LoadedPlugin>>& Plugins() const { return plugins_; }
    const LoadedPlugin* ForDataset(const std::string& dataset) const;
    void StartAll();
    void StopAll() noexcept;  // reverse order of start

private:
    std::vector<std::unique_ptr<LoadedPlugin>> plugins_;
};

// Cross-plugin checks: operation ids, paths and dataset ids are unique; throws PluginError.
void CheckUnique(const std::vector<const Manifest*>& manifests);

}  // namespace lastro::plugins
