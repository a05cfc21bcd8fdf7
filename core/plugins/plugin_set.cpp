#include "core/plugins/plugin_set.hpp"

#include "core/config/yaml_reader.hpp"

#include <boost/dll/import.hpp>
#include <boost/dll/shared_library.hpp>

#include <algorithm>
#include <filesystem>
#include <functional>
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
    std::vector<sdk::DeclaredDataset> DeclaredDatasets() const override {
        std::vector<sdk::DeclaredDataset> declared;
        for (const DatasetSpec& dataset : target_.manifest.datasets) {
            declared.push_back({dataset.id, dataset.description, dataset.properties, dataset.Derived()});
        }
        return declared;
    }
    void AddHandler(const std::string& operation_id, sdk::Handler handler) override {
        if (!target_.handlers.emplace(operation_id, std::move(handler)).second) {
            errors_.push_back("handler for '" + operation_id + "' registered twice");
        }
    }
    void AddIngester(const std::string& dataset_id, std::shared_ptr<sdk::Ingester> ingester) override {
        if (!target_.ingesters.emplace(dataset_id, std::move(ingester)).second) {
            errors_.push_back("ingester for '" + dataset_id + "' registered twice");
        }
    }
    void AddSampleWriter(std::shared_ptr<sdk::SampleWriter> writer) override {
        if (target_.sample_writer) {
            errors_.push_back("a second sample writer registered (one per plugin)");
        }
        target_.sample_writer = std::move(writer);
    }
    void AddDerivation(const std::string& dataset_id, std::shared_ptr<sdk::Derivation> derivation) override {
        if (!target_.derivations.emplace(dataset_id, std::move(derivation)).second) {
            errors_.push_back("derivation for '" + dataset_id + "' registered twice");
        }
    }
    void ProvideService(const std::string& name, const std::string& identity,
                        std::shared_ptr<const sdk::Service> service) override {
        const std::string prefix = target_.manifest.name + ".";
        if (name.rfind(prefix, 0) != 0 || name.size() == prefix.size()) {
            errors_.push_back("service '" + name + "' must be named " + prefix + "<service>");
        } else if (!service) {
            errors_.push_back("service '" + name + "' provided without an implementation");
        } else if (!services_
                        .emplace(name, ProvidedService{target_.manifest.name, identity, std::move(service)})
                        .second) {
            errors_.push_back("service '" + name + "' provided twice");
        }
    }
    const std::vector<std::string>& Errors() const { return errors_; }
    std::map<std::string, ProvidedService>& Services() { return services_; }

private:
    LoadedPlugin& target_;
    std::vector<std::string> errors_;
    std::map<std::string, ProvidedService> services_;
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

// Handlers match operations, and ingesters (datasets read from files) or derivations (derived
// datasets) match datasets, one to one.
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
        if (ds.Derived() && !p.derivations.count(ds.id)) {
            throw PluginError(ds.location + ": derived dataset '" + ds.id + "' has no derivation in " + lib);
        }
        if (!ds.Derived() && !p.ingesters.count(ds.id)) {
            throw PluginError(ds.location + ": dataset '" + ds.id + "' has no ingester in " + lib);
        }
    }
    const auto check_declared = [&](const std::string& id, bool derived, const char* what) {
        auto it = std::find_if(m.datasets.begin(), m.datasets.end(),
                               [&](const DatasetSpec& ds) { return ds.id == id; });
        if (it == m.datasets.end()) {
            throw PluginError(m.file.string() + ": " + lib + " registers " + what + " for '" + id +
                              "', which the manifest does not declare");
        }
        if (it->Derived() != derived) {
            throw PluginError(it->location + ": " + lib + " registers " + what + " for '" + id +
                              "', which the manifest declares " +
                              (derived ? "read from files (no derived_from)" : "derived"));
        }
    };
    for (const auto& [id, ingester] : p.ingesters) {
        check_declared(id, false, "an ingester");
    }
    for (const auto& [id, derivation] : p.derivations) {
        check_declared(id, true, "a derivation");
    }
    CheckSampleWriter(p, lib);
}

std::string Names(const std::vector<RequireSpec>& requires_plugins) {
    std::string names;
    for (const RequireSpec& r : requires_plugins) {
        names += (names.empty() ? "" : ", ") + r.plugin;
    }
    return names.empty() ? "none" : names;
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

std::vector<Manifest> OrderByDependencies(std::vector<Manifest> manifests) {
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < manifests.size(); ++i) {
        index.emplace(manifests[i].name, i);
    }
    // Each requirement is there, in its range.
    for (const Manifest& m : manifests) {
        for (const RequireSpec& r : m.requires_plugins) {
            auto it = index.find(r.plugin);
            if (it == index.end()) {
                throw PluginError(r.location + ": plugin '" + m.name + "' requires plugin '" + r.plugin +
                                  "' (" + r.versions.Text() +
                                  "), which is not installed (no manifest names it)");
            }
            const Manifest& provider = manifests[it->second];
            if (!r.versions.Contains(*Version::Parse(provider.version))) {
                throw PluginError(r.location + ": plugin '" + m.name + "' requires plugin '" + r.plugin +
                                  "' " + r.versions.Text() + ", but " + provider.file.string() +
                                  " is version " + provider.version);
            }
        }
    }
    // Depth first: a plugin after those it requires; a plugin met again on its own path is a cycle.
    enum class Mark { kNone, kOnPath, kDone };
    std::vector<Mark> marks(manifests.size(), Mark::kNone);
    std::vector<std::size_t> order;
    std::vector<std::size_t> path;
    std::function<void(std::size_t)> visit = [&](std::size_t i) {
        if (marks[i] == Mark::kDone) {
            return;
        }
        if (marks[i] == Mark::kOnPath) {
            std::string cycle;
            auto from = std::find(path.begin(), path.end(), i);
            for (auto it = from; it != path.end(); ++it) {
                cycle += manifests[*it].name + " (" + manifests[*it].file.string() + ") -> ";
            }
            throw PluginError("plugin dependency cycle: " + cycle + manifests[i].name);
        }
        marks[i] = Mark::kOnPath;
        path.push_back(i);
        for (const RequireSpec& r : manifests[i].requires_plugins) {
            visit(index.at(r.plugin));
        }
        path.pop_back();
        marks[i] = Mark::kDone;
        order.push_back(i);
    };
    for (std::size_t i = 0; i < manifests.size(); ++i) {
        visit(i);
    }
    // A derived dataset reads only its own plugin's datasets or those of the plugins it requires.
    std::map<std::string, std::string> owner;  // dataset -> plugin
    for (const Manifest& m : manifests) {
        for (const DatasetSpec& ds : m.datasets) {
            owner.emplace(ds.id, m.name);
        }
    }
    for (const Manifest& m : manifests) {
        for (const DatasetSpec& ds : m.datasets) {
            for (const std::string& source : ds.derived_from) {
                auto it = owner.find(source);
                if (it == owner.end()) {
                    throw PluginError(ds.location + ": dataset '" + ds.id + "' is derived from '" + source +
                                      "', which no installed plugin declares");
                }
                const bool allowed =
                    it->second == m.name ||
                    std::any_of(m.requires_plugins.begin(), m.requires_plugins.end(),
                                [&](const RequireSpec& r) { return r.plugin == it->second; });
                if (!allowed) {
                    throw PluginError(ds.location + ": dataset '" + ds.id + "' is derived from '" + source +
                                      "' of plugin '" + it->second + "', which '" + m.name +
                                      "' does not require (requires: " + Names(m.requires_plugins) + ")");
                }
            }
        }
    }
    std::vector<Manifest> ordered;
    ordered.reserve(manifests.size());
    for (std::size_t i : order) {
        ordered.push_back(std::move(manifests[i]));
    }
    return ordered;
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
    std::vector<const Manifest*> all;
    for (const Manifest& m : manifests) {
        all.push_back(&m);
    }
    CheckUnique(all);
    return OrderByDependencies(std::move(manifests));
}

std::unique_ptr<PluginSet> PluginSet::Load(const config::PluginsConfig& config, LoadedPlugin builtin) {
    auto set = std::make_unique<PluginSet>();
    std::vector<Manifest> manifests = ReadManifests(config);
    std::vector<const Manifest*> all{&builtin.manifest};
    for (const Manifest& m : manifests) {
        all.push_back(&m);
    }
    CheckUnique(all);
    builtin.services = std::make_unique<PluginServices>(*set, builtin.manifest.name);
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
        if (!lib.has(sdk::kAbiIdentitySymbol)) {
            throw PluginError(where + ": missing symbol " + sdk::kAbiIdentitySymbol +
                              " (built without LASTRO_PLUGIN, or against an SDK older than ABI identities)");
        }
        const char* identity = lib.get<const char*()>(sdk::kAbiIdentitySymbol)();
        if (!identity || std::string_view(identity) != sdk::kAbiIdentity) {
            throw PluginError(where + ": ABI mismatch: the library was built against SDK ABI " +
                              (identity ? identity : "(none)") + ", this host speaks SDK ABI " +
                              sdk::kAbiIdentity + "; rebuild the plugin against this host's SDK headers");
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
        if (!registrar.Errors().empty()) {
            throw PluginError(where + ": " + registrar.Errors().front());
        }
        CheckRegistrations(*loaded, path.filename().string());
        for (auto& [name, provided] : registrar.Services()) {
            set->services_.emplace(name, std::move(provided));
        }
        loaded->services = std::make_unique<PluginServices>(*set, loaded->manifest.name);
        set->plugins_.push_back(std::move(loaded));
    }
    return set;
}

PluginSet::~PluginSet() {
    StopAll();
}

const LoadedPlugin* PluginSet::Find(const std::string& name) const {
    for (const auto& p : plugins_) {
        if (p->manifest.name == name) {
            return p.get();
        }
    }
    return nullptr;
}

const LoadedPlugin* PluginSet::ForDataset(const std::string& dataset) const {
    for (const auto& p : plugins_) {
        if (p->ingesters.count(dataset) || p->derivations.count(dataset)) {
            return p.get();
        }
    }
    return nullptr;
}

const DatasetSpec* PluginSet::Dataset(const std::string& dataset) const {
    for (const auto& p : plugins_) {
        for (const DatasetSpec& ds : p->manifest.datasets) {
            if (ds.id == dataset) {
                return &ds;
            }
        }
    }
    return nullptr;
}

std::vector<DerivationStep> PluginSet::DerivedFrom(const std::string& source) const {
    std::vector<DerivationStep> steps;
    for (const auto& p : plugins_) {
        for (const DatasetSpec& ds : p->manifest.datasets) {
            if (std::find(ds.derived_from.begin(), ds.derived_from.end(), source) != ds.derived_from.end()) {
                steps.push_back({p.get(), &ds, source});
            }
        }
    }
    return steps;
}

const ProvidedService* PluginSet::Service(const std::string& name) const {
    auto it = services_.find(name);
    return it == services_.end() ? nullptr : &it->second;
}

void PluginSet::StartAll() {
    for (auto& p : plugins_) {
        if (p->plugin && !p->started) {
            try {
                p->plugin->Start(sdk::StartContext{p->manifest.name, *p->services});
            } catch (const std::exception& e) {
                throw PluginError(p->manifest.file.string() + ": plugin '" + p->manifest.name +
                                  "' failed to start: " + e.what());
            }
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

const sdk::Service& PluginServices::Find(std::string_view name, std::string_view identity) const {
    const LoadedPlugin* self = set_.Find(plugin_);
    const ProvidedService* provided = set_.Service(std::string(name));
    const bool required =
        provided && self &&
        std::any_of(self->manifest.requires_plugins.begin(), self->manifest.requires_plugins.end(),
                    [&](const RequireSpec& r) { return r.plugin == provided->plugin; });
    if (!provided || !required) {
        throw sdk::ServiceError("plugin '" + plugin_ + "' asked for service '" + std::string(name) +
                                "', which none of the plugins it requires provides (requires: " +
                                (self ? Names(self->manifest.requires_plugins) : "none") + ")");
    }
    if (provided->identity != identity) {
        throw sdk::ServiceError("service '" + std::string(name) + "' of plugin '" + provided->plugin +
                                "' has interface identity " + provided->identity + ", but plugin '" +
                                plugin_ + "' was built against " + std::string(identity) +
                                "; rebuild it against the installed " + provided->plugin + " headers");
    }
    return *provided->service;
}

}  // namespace lastro::plugins
