#include <lastro/sdk/schema_sql.hpp>

#include <algorithm>
#include <mutex>
#include <tuple>

namespace lastro::sdk {
namespace {

struct Entry {
    const SchemaSql* owner;
    std::string schema;
    unsigned long long version;
    odb::database_id backend;
    std::vector<std::string> statements;
};

// Plugins register at load (static initialization of their library); lastro reads at migrate.
struct Registry {
    std::mutex mutex;
    std::vector<Entry> entries;
};

Registry& Entries() {
    static Registry registry;
    return registry;
}

}  // namespace

SchemaSql::SchemaSql(std::string schema, unsigned long long version, odb::database_id backend,
                     std::vector<std::string> statements) {
    Registry& registry = Entries();
    std::lock_guard lock(registry.mutex);
    registry.entries.push_back({this, std::move(schema), version, backend, std::move(statements)});
}

SchemaSql::~SchemaSql() {
    Registry& registry = Entries();
    std::lock_guard lock(registry.mutex);
    std::erase_if(registry.entries, [this](const Entry& entry) { return entry.owner == this; });
}

std::size_t RunSchemaSql(odb::database& db, const std::string& schema, unsigned long long from,
                         unsigned long long to) {
    std::vector<Entry> selected;
    {
        Registry& registry = Entries();
        std::lock_guard lock(registry.mutex);
        for (const Entry& entry : registry.entries) {
            if (entry.schema == schema && entry.backend == db.id() && entry.version > from &&
                entry.version <= to) {
                selected.push_back(entry);
            }
        }
    }
    std::stable_sort(selected.begin(), selected.end(),
                     [](const Entry& a, const Entry& b) { return a.version < b.version; });
    std::size_t ran = 0;
    for (const Entry& entry : selected) {
        for (const std::string& statement : entry.statements) {
            db.execute(statement);
            ++ran;
        }
    }
    return ran;
}

}  // namespace lastro::sdk
