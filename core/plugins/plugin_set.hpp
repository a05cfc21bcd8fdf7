// Loads plugins (docs/plugins.md): manifests first, validated strictly and ordered by their
// `requires:` (a missing plugin, a version out of range or a cycle is refused before any
// library is opened); then each library with Boost.DLL (rtld_now), its ABI identity, its
// factory, and the one-to-one check of handlers, ingesters, derivations and the sample writer
// against the manifest. Plugins start in dependency order and stop in reverse. Libraries stay loaded for
// the life of the process.
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

struct ProvidedService {
    std::string plugin;    // the provider
    std::string identity;  // of the header that declares the interface
    std::shared_ptr<const sdk::Service> service;
};

class PluginSet;

// The services one plugin may use: those of the plugins its manifest requires.
class PluginServices : public sdk::Services {
public:
    PluginServices(const PluginSet& set, std::string plugin) : set_(set), plugin_(std::move(plugin)) {}
    const sdk::Service& Find(std::string_view name, std::string_view identity) const override;

private:
    const PluginSet& set_;
    std::string plugin_;
};

struct LoadedPlugin {
    Manifest manifest;
    std::unique_ptr<sdk::Plugin> plugin;  // null for the host's built-in operations
    std::map<std::string, sdk::Handler> handlers;
    std::map<std::string, std::shared_ptr<sdk::Ingester>> ingesters;
    std::map<std::string, std::shared_ptr<sdk::Derivation>> derivations;
    std::unique_ptr<PluginServices> services;
    std::shared_ptr<sdk::SampleWriter> sample_writer;  // when the datasets declare `sample:`
    bool started = false;
};

// A derivation to run after a dataset's ingest: `dataset` of `plugin`, computed from `source`.
struct DerivationStep {
    const LoadedPlugin* plugin;
    const DatasetSpec* dataset;
    std::string source;
};

class PluginSet {
public:
    // `builtin` is the host's own manifest with its handlers (schema.read); it takes part in
    // the uniqueness checks like any plugin. Throws PluginError naming file and line.
    static std::unique_ptr<PluginSet> Load(const config::PluginsConfig& config, LoadedPlugin builtin);
    // Reads and validates manifests, in dependency order; no library is opened.
    static std::vector<Manifest> ReadManifests(const config::PluginsConfig& config);

    ~PluginSet();

    // In dependency order: the built-in operations first, then each plugin after those it requires.
    const std::vector<std::unique_ptr<LoadedPlugin>>& Plugins() const { return plugins_; }
    const LoadedPlugin* Find(const std::string& name) const;
    // The plugin whose ingester or derivation makes `dataset`, or null.
    const LoadedPlugin* ForDataset(const std::string& dataset) const;
    const DatasetSpec* Dataset(const std::string& dataset) const;
    // The datasets computed from `source`, directly, in load order.
    std::vector<DerivationStep> DerivedFrom(const std::string& source) const;
    const ProvidedService* Service(const std::string& name) const;
    const std::map<std::string, ProvidedService>& Services() const { return services_; }

    void StartAll();
    void StopAll() noexcept;  // reverse order of start

private:
    std::vector<std::unique_ptr<LoadedPlugin>> plugins_;
    std::map<std::string, ProvidedService> services_;
};

// Cross-plugin checks: plugin names, operation ids, paths and dataset ids are unique; throws PluginError.
void CheckUnique(const std::vector<const Manifest*>& manifests);

// Orders manifests so that each comes after the plugins it requires (otherwise in the given
// order), and checks that every derived dataset's source belongs to the plugin itself or to a
// plugin it requires. Throws PluginError naming the plugin and its file for a missing plugin,
// a version outside the range, a cycle, or a source it may not read.
std::vector<Manifest> OrderByDependencies(std::vector<Manifest> manifests);

}  // namespace lastro::plugins
