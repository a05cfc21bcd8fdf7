#include "core/runtime/runtime.hpp"

#include "core/catalog/catalog.hpp"
#include "core/runtime/cursor_secret.hpp"
#include "core/storage/billing_migration.hpp"
#include "core/storage/core_model.hxx"
#include "core/storage/database.hpp"
#include "core_model-odb.hxx"

#include <boost/json.hpp>
#include <lastro/sdk/serving/json_text.hpp>
#include <odb/transaction.hxx>

#include <memory>
#include <mutex>
#include <string>

namespace lastro::runtime {
namespace {

// /v1/schema describes the loaded manifests, which do not change while the process runs: its
// text is written once, on the first call (the plugin set is only complete after loading),
// instead of building and writing the whole document on every call.
struct SchemaText {
    std::once_flag once;
    std::string json;
    std::size_t resources = 0;
};

plugins::LoadedPlugin Builtin(std::shared_ptr<const plugins::PluginSet*> slot) {
    plugins::LoadedPlugin builtin;
    builtin.manifest = catalog::CoreManifest();
    auto text = std::make_shared<SchemaText>();
    builtin.handlers["schema.read"] = [slot, text](const sdk::RequestContext&) {
        std::call_once(text->once, [&] {
            boost::json::object doc = catalog::SchemaDocument(**slot);
            text->resources = doc["resources"].as_array().size();
            text->json = sdk::WriteJson(doc);  // the host's own writer: the same bytes as `data`
        });
        sdk::Result result;
        result.meta.row_count = text->resources;
        result.meta.sources.push_back({"lastro", "plugin_manifests"});
        result.data_json = text->json;
        return result;
    };
    return builtin;
}

}  // namespace

Runtime::~Runtime() {
    plugins.reset();
    billing_db.reset();
    db.reset();
}

std::unique_ptr<Runtime> Boot(bool open_database) {
    auto runtime = std::make_unique<Runtime>();
    runtime->config = config::LoadConfig(kDefaultConfigFile);
    auto slot = std::make_shared<const plugins::PluginSet*>(nullptr);
    runtime->plugins = plugins::PluginSet::Load(runtime->config.plugins, Builtin(slot));
    *slot = runtime->plugins.get();
    if (open_database) {
        runtime->db = storage::OpenDatabase(runtime->config.database);
        runtime->billing_db = storage::OpenBillingDatabase(runtime->config.database);
    }
    return runtime;
}

std::vector<storage::MigrationResult> MigrateAll(Runtime& runtime) {
    std::vector<storage::MigrationResult> results;
    // Billing first: core's migration to version 4 drops the tables billing copies its rows from.
    results.push_back(
        storage::MigrateBilling(runtime.Billing(), *runtime.db, runtime.config.database.sqlite_path));
    results.push_back(storage::MigrateSchema(*runtime.db, "core"));
    for (const auto& p : runtime.plugins->Plugins()) {
        // A plugin that owns no table (it reads through another plugin's services) has no schema.
        if (p->plugin && storage::HasSchema(*runtime.db, p->manifest.name)) {
            results.push_back(storage::MigrateSchema(*runtime.db, p->manifest.name));
        }
    }
    EnsureCursorSecrets(*runtime.db, runtime.config.cursors.secret_file, true);
    return results;
}

void RequireMigrated(Runtime& runtime) {
    storage::RequireCurrentSchema(*runtime.db, "core");
    storage::RequireCurrentSchema(runtime.Billing(), "billing");
    for (const auto& p : runtime.plugins->Plugins()) {
        if (p->plugin && storage::HasSchema(*runtime.db, p->manifest.name)) {
            storage::RequireCurrentSchema(*runtime.db, p->manifest.name);
        }
    }
}

}  // namespace lastro::runtime
