#include <lastro/sdk/testing/registrations.hpp>

#include <yaml-cpp/yaml.h>

#include <stdexcept>

namespace lastro::sdk::testing {
namespace {

template <typename Map>
std::set<std::string> Keys(const Map& map) {
    std::set<std::string> keys;
    for (const auto& [key, value] : map) {
        keys.insert(key);
    }
    return keys;
}

std::string Text(const YAML::Node& node, const std::string& what, const std::string& file) {
    if (!node || !node.IsScalar() || node.Scalar().empty()) {
        throw std::runtime_error(file + ": " + what + " is missing or not a non-empty string");
    }
    return node.Scalar();
}

// Each difference between the ids the manifest declares and those registered.
void Compare(const std::set<std::string>& declared, const std::set<std::string>& registered,
             const std::string& declared_what, const std::string& registered_what,
             std::vector<std::string>& out) {
    for (const std::string& id : declared) {
        if (!registered.count(id)) {
            out.push_back(declared_what + " '" + id + "' has no " + registered_what);
        }
    }
    for (const std::string& id : registered) {
        if (!declared.count(id)) {
            out.push_back(registered_what + " registered for '" + id +
                          "', which the manifest does not declare as " + declared_what);
        }
    }
}

}  // namespace

ManifestDeclarations ReadManifestDeclarations(const std::filesystem::path& manifest) {
    ManifestDeclarations declared;
    declared.file = manifest.string();
    YAML::Node root;
    try {
        root = YAML::LoadFile(declared.file);
    } catch (const YAML::Exception& e) {
        throw std::runtime_error(declared.file + ": " + e.what());
    }
    if (!root.IsMap()) {
        throw std::runtime_error(declared.file + ": not a YAML mapping");
    }
    declared.plugin = Text(root["name"], "name", declared.file);
    for (const YAML::Node& operation : root["operations"]) {
        declared.operations.insert(Text(operation["id"], "operations[].id", declared.file));
    }
    for (const YAML::Node& dataset : root["datasets"]) {
        const std::string id = Text(dataset["id"], "datasets[].id", declared.file);
        (dataset["derived_from"] ? declared.derived_datasets : declared.datasets).insert(id);
        DeclaredDataset entry{id,
                              dataset["description"] ? dataset["description"].Scalar() : "",
                              {},
                              static_cast<bool>(dataset["derived_from"])};
        for (const auto& property : dataset["properties"]) {
            entry.properties[property.first.Scalar()] = property.second.Scalar();
        }
        declared.declared.push_back(std::move(entry));
        declared.declares_sample = declared.declares_sample || static_cast<bool>(dataset["sample"]);
    }
    return declared;
}

void RecordingRegistrar::AddHandler(const std::string& operation_id, Handler handler) {
    if (!handler) {
        problems_.push_back("handler for '" + operation_id + "' registered without a function");
    }
    if (!handlers_.emplace(operation_id, std::move(handler)).second) {
        problems_.push_back("handler for '" + operation_id + "' registered twice");
    }
}

void RecordingRegistrar::AddIngester(const std::string& dataset_id, std::shared_ptr<Ingester> ingester) {
    if (!ingester) {
        problems_.push_back("ingester for '" + dataset_id + "' registered without an object");
    }
    if (!ingesters_.emplace(dataset_id, std::move(ingester)).second) {
        problems_.push_back("ingester for '" + dataset_id + "' registered twice");
    }
}

void RecordingRegistrar::AddSampleWriter(std::shared_ptr<SampleWriter> writer) {
    if (!writer) {
        problems_.push_back("sample writer registered without an object");
    }
    if (!sample_writers_.empty()) {
        problems_.push_back("a second sample writer registered (one per plugin)");
    }
    sample_writers_.push_back(std::move(writer));
}

void RecordingRegistrar::AddDerivation(const std::string& dataset_id,
                                       std::shared_ptr<Derivation> derivation) {
    if (!derivation) {
        problems_.push_back("derivation for '" + dataset_id + "' registered without an object");
    }
    if (!derivations_.emplace(dataset_id, std::move(derivation)).second) {
        problems_.push_back("derivation for '" + dataset_id + "' registered twice");
    }
}

void RecordingRegistrar::ProvideService(const std::string& name, const std::string& identity,
                                        std::shared_ptr<const Service> service) {
    if (!service) {
        problems_.push_back("service '" + name + "' provided without an implementation");
    }
    if (!services_.emplace(name, std::make_pair(identity, std::move(service))).second) {
        problems_.push_back("service '" + name + "' provided twice");
    }
}

std::set<std::string> RecordingRegistrar::Operations() const {
    return Keys(handlers_);
}
std::set<std::string> RecordingRegistrar::Datasets() const {
    return Keys(ingesters_);
}
std::set<std::string> RecordingRegistrar::DerivedDatasets() const {
    return Keys(derivations_);
}
std::set<std::string> RecordingRegistrar::ServiceNames() const {
    return Keys(services_);
}

::testing::AssertionResult RegistrationsMatch(const RecordingRegistrar& registrar,
                                              const ManifestDeclarations& manifest) {
    std::vector<std::string> problems = registrar.Problems();
    Compare(manifest.operations, registrar.Operations(), "operation", "handler", problems);
    Compare(manifest.datasets, registrar.Datasets(), "dataset read from files", "ingester", problems);
    Compare(manifest.derived_datasets, registrar.DerivedDatasets(), "derived dataset", "derivation",
            problems);
    if (manifest.declares_sample && registrar.SampleWriters().empty()) {
        problems.push_back("a dataset declares sample files, but no sample writer is registered");
    }
    if (!manifest.declares_sample && !registrar.SampleWriters().empty()) {
        problems.push_back("a sample writer is registered, but no dataset declares sample:");
    }
    const std::string prefix = manifest.plugin + ".";
    for (const std::string& name : registrar.ServiceNames()) {
        if (name.rfind(prefix, 0) != 0 || name.size() == prefix.size()) {
            problems.push_back("service '" + name + "' must be named " + prefix + "<service>");
        }
    }
    if (problems.empty()) {
        return ::testing::AssertionSuccess();
    }
    ::testing::AssertionResult failure = ::testing::AssertionFailure();
    failure << "the registrations disagree with " << manifest.file << ":";
    for (const std::string& problem : problems) {
        failure << "\n  " << problem;
    }
    return failure;
}

::testing::AssertionResult RegistrationsMatchManifest(Plugin& plugin, const std::filesystem::path& manifest) {
    ManifestDeclarations declared = ReadManifestDeclarations(manifest);
    RecordingRegistrar registrar(declared.declared);
    plugin.Register(registrar);
    return RegistrationsMatch(registrar, declared);
}

}  // namespace lastro::sdk::testing
