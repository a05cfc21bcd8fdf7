#include "core/sample/sample_set.hpp"

#include <algorithm>
#include <system_error>

namespace lastro::sample {
namespace {

namespace fs = std::filesystem;

std::string Patterns(const plugins::SampleSpec& spec) {
    std::string text;
    for (const std::string& pattern : spec.files) {
        text += (text.empty() ? "" : ", ") + pattern;
    }
    return text;
}

std::string ScaleOption(sdk::SampleScale scale) {
    return scale == sdk::SampleScale::kSample ? "" : " --scale " + std::string(sdk::SampleScaleName(scale));
}

// Every dataset of `plugin` declaring `scale` got a file matching its patterns.
void CheckEveryDatasetWritten(const plugins::LoadedPlugin& plugin, const sdk::SampleReport& report,
                              sdk::SampleScale scale) {
    for (const plugins::DatasetSpec& ds : plugin.manifest.datasets) {
        if (!ds.sample || !ds.sample->Covers(scale)) {
            continue;
        }
        const bool found = std::any_of(report.files.begin(), report.files.end(), [&](const fs::path& file) {
            return ds.sample->Matches(file.filename().string());
        });
        if (!found) {
            throw SampleError(ds.sample->location + ": dataset '" + ds.id +
                              "' declares sample files at scale " + std::string(sdk::SampleScaleName(scale)) +
                              ", but plugin '" + plugin.manifest.name + "' wrote none matching " +
                              Patterns(*ds.sample));
        }
    }
}

// The request for `plugin`'s writer: `request` with the universes published by the plugins it
// requires (those written before it, in load order).
sdk::SampleRequest RequestFor(const plugins::LoadedPlugin& plugin, const sdk::SampleRequest& request,
                              const std::vector<PluginSample>& written) {
    sdk::SampleRequest own = request;
    own.universes.clear();
    for (const PluginSample& sample : written) {
        const bool required =
            std::any_of(plugin.manifest.requires_plugins.begin(), plugin.manifest.requires_plugins.end(),
                        [&](const plugins::RequireSpec& r) { return r.plugin == sample.plugin; });
        if (required && sample.report.universe) {
            own.universes.push_back(sample.report.universe);
        }
    }
    return own;
}

// A published universe is named "<plugin>.<universe>".
void CheckUniverse(const PluginSample& sample) {
    if (!sample.report.universe) {
        return;
    }
    const std::string prefix = sample.plugin + ".";
    const std::string& name = sample.report.universe->Name();
    if (name.rfind(prefix, 0) != 0 || name.size() == prefix.size()) {
        throw SampleError("plugin '" + sample.plugin + "' publishes sample universe '" + name +
                          "', which must be named " + prefix + "<universe>");
    }
}

}  // namespace

std::vector<PluginSample> WriteSamples(const plugins::PluginSet& plugins, const sdk::SampleRequest& request) {
    std::error_code error;
    fs::create_directories(request.out_dir, error);
    if (error) {
        throw SampleError("cannot create directory " + request.out_dir.string() + ": " + error.message());
    }
    std::vector<PluginSample> written;
    for (const auto& p : plugins.Plugins()) {
        if (!p->sample_writer) {
            continue;
        }
        PluginSample sample{p->manifest.name, {}};
        try {
            sample.report = p->sample_writer->Write(RequestFor(*p, request, written));
        } catch (const sdk::SampleUniverseError& e) {
            throw SampleError("plugin '" + sample.plugin + "': " + e.what());
        }
        CheckUniverse(sample);
        for (const fs::path& file : sample.report.files) {
            if (!fs::is_regular_file(file, error)) {
                throw SampleError("plugin '" + sample.plugin + "' reports " + file.string() +
                                  ", which is not a file it wrote");
            }
        }
        CheckEveryDatasetWritten(*p, sample.report, request.scale);
        written.push_back(std::move(sample));
    }
    if (written.empty()) {
        throw SampleError("no loaded plugin writes sample data (no dataset declares sample:)");
    }
    return written;
}

std::vector<SampleInput> FindSampleInputs(const plugins::PluginSet& plugins, const fs::path& dir,
                                          sdk::SampleScale scale) {
    std::error_code error;
    if (!fs::is_directory(dir, error)) {
        throw SampleError(dir.string() + ": not a directory (write one with `lastro sample --out " +
                          dir.string() + ScaleOption(scale) + "`)");
    }
    std::vector<fs::path> names;
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (entry.is_regular_file()) {
            names.push_back(entry.path().filename());
        }
    }
    std::sort(names.begin(), names.end());

    std::vector<SampleInput> inputs;
    for (const auto& p : plugins.Plugins()) {
        for (const plugins::DatasetSpec& ds : p->manifest.datasets) {
            if (!ds.sample || !ds.sample->Covers(scale)) {
                continue;
            }
            SampleInput input{p->manifest.name, ds.id, {}};
            for (const fs::path& name : names) {
                if (ds.sample->Matches(name.string())) {
                    input.files.push_back(dir / name);
                }
            }
            if (input.files.empty()) {
                throw SampleError(dir.string() + " has no file for dataset '" + ds.id + "' (" +
                                  Patterns(*ds.sample) + "): write the sample with `lastro sample --out " +
                                  dir.string() + ScaleOption(scale) + "`");
            }
            inputs.push_back(std::move(input));
        }
    }
    if (inputs.empty()) {
        throw SampleError("no loaded plugin declares sample files at scale " +
                          std::string(sdk::SampleScaleName(scale)));
    }
    return inputs;
}

}  // namespace lastro::sample
