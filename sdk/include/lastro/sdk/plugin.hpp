// The plugin interface. A plugin is a shared library plus a YAML manifest (docs/plugins.md).
// The library exports its ABI identity and one factory through LASTRO_PLUGIN(Class); the
// host checks the identity (abi.hpp), creates the plugin, and asks it to register one handler
// per manifest operation, one ingester per dataset read from files, one derivation per derived
// dataset and, when its datasets declare `sample:`, one sample writer.
#pragma once

#include <lastro/sdk/abi.hpp>
#include <lastro/sdk/params.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/result.hpp>
#include <lastro/sdk/sample.hpp>
#include <lastro/sdk/services.hpp>

#include <boost/config.hpp>
#include <boost/dll/alias.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <ctime>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace odb {
class database;
}

namespace lastro::sdk {

// A recorded data release of one dataset (core table data_release).
struct BOOST_SYMBOL_VISIBLE Release {
    std::string dataset;               // "cvm.registro_fundo_classe"
    std::string label;                 // what meta.data_release shows
    std::optional<std::string> as_of;  // what meta.as_of shows, when the data says
    std::string ingested_at;           // RFC 3339 UTC
};

// Services the host offers to handlers and ingesters.
class BOOST_SYMBOL_VISIBLE Host {
public:
    virtual ~Host() = default;
    // The latest release of `dataset`, read inside the caller's transaction.
    virtual std::optional<Release> LatestRelease(const std::string& dataset) const = 0;
    // Data a handler reads that changes only with an ingest, kept between calls at this call's
    // release generation (use sdk::Remembered, <lastro/sdk/serving/remembered.hpp>): what was
    // kept under `key` at it, or nullptr when nothing was or this call cannot use kept data.
    // The defaults keep nothing.
    virtual std::shared_ptr<const void> Recall(std::string_view key) const;
    // Keeps `value` under `key` at this call's generation, when calls can use it.
    virtual void Keep(std::string_view key, std::shared_ptr<const void> value) const;
};

// Everything a handler gets. The host has opened a read transaction on `db` around the call.
struct BOOST_SYMBOL_VISIBLE RequestContext {
    const std::string& operation_id;
    const std::string& request_id;
    const Params& params;
    odb::database& db;
    const Host& host;
    // The decoded position of the `cursor` parameter (see Meta::next_position), if any.
    const std::optional<boost::json::value>& cursor_position;
};

using Handler = std::function<Result(const RequestContext&)>;

// Progress of an ingest, shown by `lastro ingest` on a terminal.
class BOOST_SYMBOL_VISIBLE IngestProgress {
public:
    virtual ~IngestProgress() = default;
    virtual void Stage(const std::string& what) = 0;  // e.g. "registro_fundo.csv"
    virtual void Rows(std::size_t rows_read) = 0;
};

struct BOOST_SYMBOL_VISIBLE IngestSummary {
    std::size_t rows_read = 0;
    std::size_t inserted = 0;
    std::size_t updated = 0;
    std::size_t unchanged = 0;
    std::size_t removed = 0;  // rows a full snapshot no longer carries
    std::size_t rejected = 0;
    // "registro_fundo.csv line 12: invalid CNPJ_Fundo '…'" — the first few, for the summary
    // (sdk::RejectionLog, <lastro/sdk/ingest/rejections.hpp>).
    std::vector<std::string> rejections;
    // The release to record: label shown as meta.data_release and the data's own date.
    std::string release_label;
    std::optional<std::string> as_of;
    // The periods whose data this ingest changed ("2026-08", or "2026" for yearly data), in
    // order; the host rebuilds exactly those periods of the datasets derived from this one.
    // nullopt when the ingester cannot tell: derived datasets are then rebuilt whole.
    std::optional<std::vector<std::string>> periods;
};

// The host runs an ingester inside one write transaction on `db`: the ingest succeeds whole
// and records its release, or throws (IngestError for bad input) and leaves the database as it
// was.
struct BOOST_SYMBOL_VISIBLE IngestContext {
    const std::string& dataset;
    const std::vector<std::filesystem::path>& inputs;
    odb::database& db;
    IngestProgress& progress;
    std::time_t now;  // the ingest's clock, so one ingest labels everything alike
};

class BOOST_SYMBOL_VISIBLE Ingester {
public:
    virtual ~Ingester() = default;
    virtual IngestSummary Run(const IngestContext& context) = 0;
};

// A dataset of this plugin computed from another plugin's dataset (manifest `derived_from:`).
// The host runs it inside the write transaction of the source's ingest, after the source's
// ingester, so readers see the source and its derivation change together or not at all.
struct BOOST_SYMBOL_VISIBLE DerivationContext {
    const std::string& dataset;  // the derived dataset
    const std::string& source;   // the dataset whose ingest triggered this run
    // The source periods to rebuild (IngestSummary::periods); nullopt: every period.
    const std::optional<std::vector<std::string>>& periods;
    odb::database& db;
    const Services& services;  // of the plugins this one requires
    IngestProgress& progress;
    std::time_t now;
};

class BOOST_SYMBOL_VISIBLE Derivation {
public:
    virtual ~Derivation() = default;
    // Rebuilds `periods` of the derived dataset; returns what it did, with `periods` set to the
    // derived periods it changed (datasets derived from this one are rebuilt in turn).
    virtual IngestSummary Run(const DerivationContext& context) = 0;
};

// A dataset as the plugin's own manifest declares it, for a plugin whose datasets are manifest
// entries rather than code (the series plugin: one dataset per SGS series, each described by its
// `properties:`).
struct BOOST_SYMBOL_VISIBLE DeclaredDataset {
    std::string id;  // "bcb.sgs.11"
    std::string description;
    std::map<std::string, std::string> properties;  // `properties:`, each value as written
    bool derived = false;                           // declares derived_from:
};

class BOOST_SYMBOL_VISIBLE Registrar {
public:
    virtual ~Registrar() = default;
    // The datasets of the registering plugin's manifest, in manifest order.
    virtual std::vector<DeclaredDataset> DeclaredDatasets() const = 0;
    virtual void AddHandler(const std::string& operation_id, Handler handler) = 0;
    virtual void AddIngester(const std::string& dataset_id, std::shared_ptr<Ingester> ingester) = 0;
    // At most one per plugin, registered exactly when some dataset of the manifest declares
    // `sample:` (docs/plugins.md).
    virtual void AddSampleWriter(std::shared_ptr<SampleWriter> writer) = 0;
    virtual void AddDerivation(const std::string& dataset_id, std::shared_ptr<Derivation> derivation) = 0;
    // Offers `service` to the plugins that require this one, under `name` (prefixed with this
    // plugin's name) and the identity of the header that declares it (services.hpp).
    virtual void ProvideService(const std::string& name, const std::string& identity,
                                std::shared_ptr<const Service> service) = 0;

    template <class T>
    void Provide(std::shared_ptr<const T> service) {
        constexpr auto name = CopyConstant<T::kServiceName.size()>(T::kServiceName);
        constexpr auto identity = CopyConstant<T::kServiceIdentity.size()>(T::kServiceIdentity);
        ProvideService(std::string(name.View()), std::string(identity.View()), std::move(service));
    }
};

// What a plugin gets when it starts.
struct BOOST_SYMBOL_VISIBLE StartContext {
    const std::string& plugin;  // its name in the manifest
    const Services& services;   // of the plugins it requires; valid until Stop returns
};

class BOOST_SYMBOL_VISIBLE Plugin {
public:
    virtual ~Plugin() = default;
    // Called once after loading; the host refuses the plugin unless the registered handlers,
    // ingesters and derivations match the manifest's operations and datasets one to one, and a
    // sample writer is registered exactly when the datasets declare `sample:`.
    virtual void Register(Registrar& registrar) = 0;
    // Lifecycle: Start after every plugin registered, in dependency order (a plugin starts
    // after the plugins it requires); Stop in reverse order after the server stopped accepting
    // and drained its requests.
    virtual void Start(const StartContext& context) { (void)context; }
    virtual void Stop() noexcept {}
};

using PluginFactory = std::unique_ptr<Plugin>();

}  // namespace lastro::sdk

// Exports the ABI identity and the factory of `PluginClass`. Use once per plugin library.
#define LASTRO_PLUGIN(PluginClass)                                            \
    extern "C" BOOST_SYMBOL_EXPORT const char* lastro_plugin_abi_identity() { \
        return LASTRO_SDK_ABI_IDENTITY;                                       \
    }                                                                         \
    namespace lastro_plugin_export {                                          \
    inline std::unique_ptr<::lastro::sdk::Plugin> Create() {                  \
        return std::make_unique<PluginClass>();                               \
    }                                                                         \
    }                                                                         \
    BOOST_DLL_ALIAS(lastro_plugin_export::Create, lastro_create_plugin)
