// A check that a plugin registers what its manifest declares, as the host checks it when it
// loads the plugin (docs/plugins.md): one handler per operation, one ingester per dataset read
// from files, one derivation per derived dataset, nothing undeclared, a sample writer exactly
// when some dataset declares `sample:`, and services named <plugin>.<service>. A unit test then
// fails where the host would refuse the plugin at start-up.
#pragma once

#include <lastro/sdk/plugin.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace lastro::sdk::testing {

// What Register() must match, read from a manifest.
struct ManifestDeclarations {
    std::string file;
    std::string plugin;                      // name:
    std::set<std::string> operations;        // operations[].id
    std::set<std::string> datasets;          // datasets read from files
    std::set<std::string> derived_datasets;  // datasets with derived_from:
    bool declares_sample = false;            // some dataset declares sample:
    std::vector<DeclaredDataset> declared;   // every dataset, as Registrar::DeclaredDatasets() gives it
};

// Throws std::runtime_error naming the file when it cannot be read or lacks a name or an id.
ManifestDeclarations ReadManifestDeclarations(const std::filesystem::path& manifest);

// Records what a plugin registers, and what it registered wrongly (twice, or without an object).
class RecordingRegistrar : public Registrar {
public:
    // `declared`: what DeclaredDatasets() answers (ManifestDeclarations::declared).
    explicit RecordingRegistrar(std::vector<DeclaredDataset> declared = {})
        : declared_(std::move(declared)) {}
    std::vector<DeclaredDataset> DeclaredDatasets() const override { return declared_; }
    void AddHandler(const std::string& operation_id, Handler handler) override;
    void AddIngester(const std::string& dataset_id, std::shared_ptr<Ingester> ingester) override;
    void AddSampleWriter(std::shared_ptr<SampleWriter> writer) override;
    void AddDerivation(const std::string& dataset_id, std::shared_ptr<Derivation> derivation) override;
    void ProvideService(const std::string& name, const std::string& identity,
                        std::shared_ptr<const Service> service) override;

    const std::map<std::string, Handler>& Handlers() const { return handlers_; }
    const std::map<std::string, std::shared_ptr<Ingester>>& Ingesters() const { return ingesters_; }
    const std::map<std::string, std::shared_ptr<Derivation>>& Derivations() const { return derivations_; }
    const std::vector<std::shared_ptr<SampleWriter>>& SampleWriters() const { return sample_writers_; }
    // name -> (identity, implementation)
    const std::map<std::string, std::pair<std::string, std::shared_ptr<const Service>>>& Services() const {
        return services_;
    }
    std::set<std::string> Operations() const;
    std::set<std::string> Datasets() const;  // with an ingester
    std::set<std::string> DerivedDatasets() const;
    std::set<std::string> ServiceNames() const;
    // "handler for 'x' registered twice", "ingester for 'y' registered without an object", ...
    const std::vector<std::string>& Problems() const { return problems_; }

private:
    std::vector<DeclaredDataset> declared_;
    std::map<std::string, Handler> handlers_;
    std::map<std::string, std::shared_ptr<Ingester>> ingesters_;
    std::map<std::string, std::shared_ptr<Derivation>> derivations_;
    std::vector<std::shared_ptr<SampleWriter>> sample_writers_;
    std::map<std::string, std::pair<std::string, std::shared_ptr<const Service>>> services_;
    std::vector<std::string> problems_;
};

// What `registrar` recorded agrees with `manifest`; the failure lists every disagreement.
::testing::AssertionResult RegistrationsMatch(const RecordingRegistrar& registrar,
                                              const ManifestDeclarations& manifest);

// Registers `plugin` with a RecordingRegistrar and checks it against the manifest file.
::testing::AssertionResult RegistrationsMatchManifest(Plugin& plugin, const std::filesystem::path& manifest);

}  // namespace lastro::sdk::testing
