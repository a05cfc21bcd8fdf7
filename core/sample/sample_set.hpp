// The plugins' sample data (docs/sample-data.md): `lastro sample` runs every loaded plugin's
// sample writer, and `lastro ingest --sample` finds each dataset's files in a sample directory,
// both from the manifests' `sample:` declarations. The host knows no dataset of its own here.
#pragma once

#include "core/plugins/plugin_set.hpp"

#include <lastro/sdk/sample.hpp>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace lastro::sample {

class SampleError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct PluginSample {
    std::string plugin;
    sdk::SampleReport report;
};

// Creates request.out_dir, runs each plugin's sample writer in load order (each after the plugins
// it requires), passing each the universes published by the plugins it requires
// (SampleRequest::universes), then checks that every dataset declaring request.scale got at
// least one file matching its patterns. Throws SampleError naming the dataset and its manifest
// line, naming the plugin when its writer cannot find a universe it reads (or reads one built
// from another header) or publishes one not named "<plugin>.<universe>", or when no plugin
// writes samples.
std::vector<PluginSample> WriteSamples(const plugins::PluginSet& plugins, const sdk::SampleRequest& request);

struct SampleInput {
    std::string plugin;
    std::string dataset;
    std::vector<std::filesystem::path> files;  // in `dir`, sorted by name
};

// The datasets declaring `scale`, in ingest order (plugins in load order, datasets in manifest
// order), each with its files in `dir`. Throws SampleError when `dir` is not a directory or a
// dataset has no file there.
std::vector<SampleInput> FindSampleInputs(const plugins::PluginSet& plugins, const std::filesystem::path& dir,
                                          sdk::SampleScale scale);

}  // namespace lastro::sample
