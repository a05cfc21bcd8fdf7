// The plugin interface. A plugin is a shared library plus a YAML manifest (docs/plugins.md).
// The library exports lastro_plugin_abi() and one factory through LASTRO_PLUGIN(Class); the
// host checks the ABI, creates the plugin, and asks it to register one handler per manifest
// operation and one ingester per manifest dataset.
#pragma once

#include <lastro/sdk/abi.hpp>
#include <lastro/sdk/params.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/result.hpp>

#include <boost/config.hpp>
#include <boost/dll/alias.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <ctime>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
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

class BOOST_SYMBOL_VISIBLE Registrar {
public:
    virtual ~Registrar() = default;
    virtual void AddHandler(const std::string& operation_id, Handler handler) = 0;
    virtual void AddIngester(const std::string& dataset_id, std::shared_ptr<Ingester> ingester) = 0;
};

class BOOST_SYMBOL_VISIBLE Plugin {
public:
    virtual ~Plugin() = default;
    // Called once after loading; the host refuses the plugin unless the registered handlers
    // and ingesters match the manifest's operations and datasets one to one.
    virtual void Register(Registrar& registrar) = 0;
    // Lifecycle: Start after every plugin registered and the database is migrated; Stop in
    // reverse order after the server stopped accepting and drained its requests.
    virtual void Start() {}
    virtual void Stop() noexcept {}
};

using PluginFactory = std::unique_ptr<Plugin>();

}  // namespace lastro::sdk

// Exports the ABI number and the factory of `PluginClass`. Use once per plugin library.
#define LASTRO_PLUGIN(PluginClass)                           \
    extern "C" BOOST_SYMBOL_EXPORT int lastro_plugin_abi() { \
        return ::lastro::sdk::kAbiVersion;                   \
    }                                                        \
    namespace lastro_plugin_export {                         \
    inline std::unique_ptr<::lastro::sdk::Plugin> Create() { \
        return std::make_unique<PluginClass>();              \
    }                                                        \
    }                                                        \
    BOOST_DLL_ALIAS(lastro_plugin_export::Create, lastro_create_plugin)
