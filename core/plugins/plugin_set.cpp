#include "core/plugins/plugin_set.hpp"

#include "core/config/yaml_reader.hpp"

#include <boost/dll/import.hpp>
#include <boost/dll/shared_library.hpp>

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <set>

namespace lastro::plugins {
namespace {

namespace fs = std::filesystem;
namespace dll = boost::dll;

// Libraries are never unloaded: objects, exceptions and std::function targets created by a
// plugin point into its code, and ODB registers static tables at load time (docs/plugins.md).
std::vector<dll::shared_library>& KeptLibraries() {
    static auto* libraries = new std::vector<dll::shared_library>();
    return *libraries;
}

class CollectingRegistrar : public sdk::Registrar {
public:
    explicit CollectingRegistrar(LoadedPlugin& target) : target_(target) {}
    void AddHandler(const std::string& operation_id, sdk::Handler handler) override {
        if (!target_.handlers.emplace(operation_id, std::move(handler)).second) {
            duplicates_.push_back("handler for '" + operation_id + "' registered twice");
        }
    }
    void AddIngester(const std::string& dataset_id, std::shared_ptr<sdk::Ingester> ingester) override {
        if (!target_.ingesters.emplace(dataset_id, std::move(ingester)).second) {
            duplicates_.push_back("ingester for '" + dataset_id + "' registered twice");
        }
    }
    void AddSampleWriter(std::shared_ptr<sdk::SampleWriter> writer) override {
        if (target_.sample_writer) {
            duplicates_.push_back("a second sample writer registered (one per plugin)");
        }
        target_.sample_writer = std::move(writer);
    }
    const std::vector<std::string>& Duplicates() const { return duplicates_; }

private:
    LoadedPlugin& target_;
    std::vector<std::string> duplicates_;
};

fs::path LibraryPath(const Manifest& m, const config::PluginsConfig& config) {
    fs::path lib(m.library);
    if (lib.is_absolute()) {
        return lib;
    }
    if (config.library_dir && fs::exists(*config.library_dir / lib)) {
        return *config.library_dir / lib;
    }
    return m.file.parent_path() / lib;
}

std::vector<fs::path> ManifestFiles(const config::PluginsConfig& config) {
    std::vector<fs::path> files;
    for (const fs::path& dir : config.manifest_dirs) {
        std::error_code ec;
        if (!fs::is_directory(dir, ec)) {
            throw PluginError(dir.string() + ": plugin manifest directory does not exist");
        }
        std::vector<fs::path> here;
        for (const auto& entry : fs::directory_iterator(dir)) {
            if (entry.is_regular_file() && entry.path().extension() == ".yaml") {
                here.push_back(entry.path());
            }
        }
        std::sort(here.begin(), here.end());
        files.insert(files.end(), here.begin(), here.end());
    }
    return files;
}

// A sample writer exactly when some dataset declares `sample:`.
void CheckSampleWriter(const LoadedPlugin& p, const std::string& lib) {
    const Manifest& m = p.manifest;
    const auto declared = std::find_if(m.datasets.begin(), m.datasets.end(),
                                       [](const DatasetSpec& ds) { return ds.sample.has_value(); });
    if (declared != m.datasets.end() && !p.sample_writer) {
        throw PluginError(declared->sample->location + ": dataset '" + declared->id +
                          "' declares sample files, but " + lib + " registers no sample writer");
    }
    if (declared == m.datasets.end() && p.sample_writer) {
        throw PluginError(m.file.string() + ": " + lib +
                          " registers a sample writer, but no dataset of the manifest declares sample:");
    }
}

// Handlers match operations and ingesters match datasets, one to one.
void CheckRegistrations(const LoadedPlugin& p, const std::string& lib) {
    const Manifest& m = p.manifest;
    for (const OperationSpec& op : m.operations) {
        if (!p.handlers.count(op.id)) {
            throw PluginError(op.location + ": operation '" + op.id + "' has no handler in " + lib);
        }
    }
    for (const auto& [id, handler] : p.handlers) {
        bool declared = std::any_of(m.operations.begin(), m.operations.end(),
                                    [&](const OperationSpec& op) { return op.id == id; });
        if (!declared) {
            throw PluginError(m.file.string() + ": " + lib + " registers a handler for '" + id +
                              "', which the manifest does not declare");
        }
    }
    for (const DatasetSpec& ds : m.datasets) {
        if (!p.ingesters.count(ds.id)) {
            throw PluginError(ds.location + ": dataset '" + ds.id + "' has no ingester in " + lib);
        }
    }
    for (const auto& [id, ingester] : p.ingesters) {
        bool declared = std::any_of(m.datasets.begin(), m.datasets.end(),
                                    [&](const DatasetSpec& ds) { return ds.id == id; });
        if (!declared) {
            throw PluginError(m.file.string() + ": " + lib + " registers an ingester for '" + id +
                              "', which the manifest does not declare");
        }
    }
    CheckSampleWriter(p, lib);
}

}  // namespace

void CheckUnique(const std::vector<const Manifest*>& manifests) {
    std::map<std::string, std::string> ids, paths, datasets, names;
    for (const Manifest* m : manifests) {
        if (auto [it, ok] = names.emplace(m->name, m->file.string()); !ok) {
            throw PluginError(m->file.string() + ": plugin name '" + m->name + "' is also used by " +
                              it->second);
        }
        for (const OperationSpec& op : m->operations) {
            if (auto [it, ok] = ids.emplace(op.id, op.location); !ok) {
                throw PluginError(op.location + ": operation id '" + op.id + "' is also declared at " +
                                  it->second);
            }
            if (auto [it, ok] = paths.emplace(op.path, op.location); !ok) {
                throw PluginError(op.location + ": path '" + op.path + "' is also declared at " + it->second);
            }
        }
        for (const DatasetSpec& ds : m->datasets) {
            if (auto [it, ok] = datasets.emplace(ds.id, ds.location); !ok) {
                throw PluginError(ds.location + ": dataset '" + ds.id + "' is also declared at " +
                                  it->second);
            }
        }
    }
}

std::vector<Manifest> PluginSet::ReadManifests(const config::PluginsConfig& config) {
    std::vector<Manifest> manifests;
    try {
        for (const fs::path& file : ManifestFiles(config)) {
            manifests.push_back(LoadManifest(file));
        }
    } catch (const config::YamlError& e) {
        throw PluginError(e.what());
    }
    return manifests;
}

std::unique_ptr<PluginSet> PluginSet::Load(const config::PluginsConfig& config, LoadedPlugin builtin) {
    auto set = std::make_unique<PluginSet>();
    std::vector<Manifest> manifests = ReadManifests(config);
    std::vector<const Manifest*> all{&builtin.manifest};
    for (const Manifest& m : manifests) {
        all.push_back(&m);
    }
    CheckUnique(all);
    set->plugins_.push_back(std::make_unique<LoadedPlugin>(std::move(builtin)));

    for (Manifest& m : manifests) {
        const fs::path path = LibraryPath(m, config);
        const std::string where = m.file.string() + ": " + path.string();
        if (!fs::exists(path)) {
            throw PluginError(where + ": library not found");
        }
        dll::shared_library lib;
        try {
            lib.load(path, dll::load_mode::rtld_now | dll::load_mode::rtld_local);
        } catch (const std::exception& e) {
            throw PluginError(where + ": cannot load the library: " + e.what());
        }
        if (!lib.has("lastro_plugin_abi")) {
            throw PluginError(where +
                              ": missing symbol lastro_plugin_abi (was it built with LASTRO_PLUGIN?)");
        }
        const int abi = lib.get<int()>("lastro_plugin_abi")();
        if (abi != sdk::kAbiVersion || m.sdk != sdk::kAbiVersion) {
            throw PluginError(where + ": ABI mismatch: the library reports SDK " + std::to_string(abi) +
                              ", the manifest declares " + std::to_string(m.sdk) + ", this host speaks " +
                              std::to_string(sdk::kAbiVersion));
        }
        if (!lib.has("lastro_create_plugin")) {
            throw PluginError(where + ": missing factory symbol lastro_create_plugin");
        }
        auto factory = lib.get_alias<sdk::PluginFactory>("lastro_create_plugin");
        KeptLibraries().push_back(lib);

        auto loaded = std::make_unique<LoadedPlugin>();
        loaded->manifest = std::move(m);
        loaded->plugin = factory();
        if (!loaded->plugin) {
            throw PluginError(where + ": the factory returned no plugin");
        }
        CollectingRegistrar registrar(*loaded);
        loaded->plugin->Register(registrar);
        if (!registrar.Duplicates().empty()) {
            throw PluginError(where + ": " + registrar.Duplicates().front());
        }
        CheckRegistrations(*loaded, path.filename().string());
        set->plugins_.push_back(std::move(loaded));
    }
    return set;
}

PluginSet::~PluginSet() {
    StopAll();
}

const LoadedPlugin* PluginSet::ForDataset(const std::string& dataset) const {
    for (const auto& p : plugins_) {
        if (p->ingesters.count(dataset)) {
            return p.get();
        }
    }
    return nullptr;
}

void PluginSet::StartAll() {
    for (auto& p : plugins_) {
        if (p->plugin && !p->started) {
            p->plugin->Start();
        }
        p->started = true;
    }
}

void PluginSet::StopAll() noexcept {
    for (auto it = plugins_.rbegin(); it != plugins_.rend(); ++it) {
        if ((*it)->started && (*it)->plugin) {
            (*it)->plugin->Stop();
        }
        (*it)->started = false;
    }
}

}  // namespace lastro::plugins
