#include "core/runtime/runtime.hpp"

#include "core/catalog/catalog.hpp"
#include "core/storage/core_model.hxx"
#include "core/storage/database.hpp"
#include "core_model-odb.hxx"

#include <openssl/rand.h>
#include <boost/json.hpp>
#include <odb/transaction.hxx>

#include <memory>

namespace lastro::runtime {
namespace {

constexpr const char* kCursorSecretSetting = "cursor_secret";

plugins::LoadedPlugin Builtin(std::shared_ptr<const plugins::PluginSet*> slot) {
    plugins::LoadedPlugin builtin;
    builtin.manifest = catalog::CoreManifest();
    builtin.handlers["schema.read"] = [slot](const sdk::RequestContext&) {
        sdk::Result result;
        boost::json::object doc = catalog::SchemaDocument(**slot);
        result.meta.row_count = doc["resources"].as_array().size();
        result.meta.sources.push_back({"lastro", "plugin_manifests"});
        result.data = std::move(doc);
        return result;
    };
    return builtin;
}

}  // namespace

Runtime::~Runtime() {
    plugins.reset();
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
    }
    return runtime;
}

std::vector<storage::MigrationResult> MigrateAll(Runtime& runtime) {
    std::vector<storage::MigrationResult> results;
    results.push_back(storage::MigrateSchema(*runtime.db, "core"));
    for (const auto& p : runtime.plugins->Plugins()) {
        // A plugin that owns no table (it reads through another plugin's services) has no schema.
        if (p->plugin && storage::HasSchema(*runtime.db, p->manifest.name)) {
            results.push_back(storage::MigrateSchema(*runtime.db, p->manifest.name));
        }
    }
    storage::WithWriteTransaction(*runtime.db, [&] {
        std::unique_ptr<storage::Setting> existing(runtime.db->find<storage::Setting>(kCursorSecretSetting));
        if (!existing) {
            unsigned char random[32];
            if (RAND_bytes(random, sizeof random) != 1) {
                throw storage::StorageError("the system's random number generator failed");
            }
            storage::Setting secret{kCursorSecretSetting, std::string()};
            static const char* kHex = "0123456789abcdef";
            for (unsigned char b : random) {
                secret.value.push_back(kHex[b >> 4]);
                secret.value.push_back(kHex[b & 0x0F]);
            }
            runtime.db->persist(secret);
        }
    });
    return results;
}

void RequireMigrated(Runtime& runtime) {
    storage::RequireCurrentSchema(*runtime.db, "core");
    for (const auto& p : runtime.plugins->Plugins()) {
        if (p->plugin && storage::HasSchema(*runtime.db, p->manifest.name)) {
            storage::RequireCurrentSchema(*runtime.db, p->manifest.name);
        }
    }
}

std::string CursorSecret(odb::database& db) {
    odb::transaction t(db.begin());
    std::unique_ptr<storage::Setting> secret(db.find<storage::Setting>(kCursorSecretSetting));
    t.commit();
    if (!secret) {
        throw storage::StorageError("the database has no cursor secret: run `lastro db migrate`");
    }
    return secret->value;
}

}  // namespace lastro::runtime
