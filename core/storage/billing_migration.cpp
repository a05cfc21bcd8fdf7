#include "core/storage/billing_migration.hpp"

#include "core/storage/database.hpp"
#include "core/storage/pgsql_statements.hpp"  // SqlText: the same quoting in SQLite

#include <odb/connection.hxx>
#include <odb/schema-catalog.hxx>
#include <odb/transaction.hxx>

#include <string>

namespace lastro::storage {
namespace {

// Copies core's billing rows (read through `from`, "" or "legacy.") into billing's tables.
// Core 1 had neither the ledger's instance column nor the per-minute windows (core 2 added both).
void CopyCoreRows(odb::connection& c, const std::string& from, unsigned long long core) {
    c.execute(
        "INSERT INTO billing_credit_usage (key_month, key_id, month, reserved, charged) "
        "SELECT key_month, key_id, month, reserved, charged FROM " +
        from + "core_credit_usage");
    c.execute(
        "INSERT INTO billing_ledger (request_id, key_id, operation, price, month, state, status, "
        "reserved_at, settled_at, instance) "
        "SELECT request_id, key_id, operation, price, month, state, status, reserved_at, settled_at, " +
        std::string(core >= 2 ? "instance" : "NULL") + " FROM " + from + "core_ledger");
    if (core >= 2) {
        c.execute(
            "INSERT INTO billing_rate_window (key_minute, key_id, minute, calls) "
            "SELECT key_minute, key_id, minute, calls FROM " +
            from + "core_rate_window");
    }
}

}  // namespace

MigrationResult MigrateBilling(odb::database& billing, odb::database& data,
                               const std::filesystem::path& data_file) {
    const unsigned long long core = StoredSchemaVersion(data, "core");
    if (StoredSchemaVersion(billing, "billing") != 0 || core == 0 || core >= kCoreWithoutBilling) {
        return MigrateSchema(billing, "billing");
    }
    const bool apart = &billing != &data;  // SQLite: billing's own file
    odb::connection_ptr c(billing.connection());
    if (apart) {
        // Outside any transaction (SQLite refuses ATTACH in one); detached on every way out.
        c->execute("ATTACH DATABASE " + SqlText(data_file.string()) + " AS legacy");
    }
    struct Detach {
        odb::connection* c;
        ~Detach() {
            if (c) {
                try {
                    c->execute("DETACH DATABASE legacy");
                } catch (...) {
                }
            }
        }
    } detach{apart ? c.get() : nullptr};
    odb::transaction t(BeginWrite(*c));
    odb::schema_catalog::create_schema(billing, "billing", false);
    CopyCoreRows(*c, apart ? "legacy." : "", core);
    t.commit();
    return MigrationResult{"billing", 0, odb::schema_catalog::current_version(billing, "billing")};
}

}  // namespace lastro::storage
