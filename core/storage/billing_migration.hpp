// Schema "billing" (billing_model.hxx), and the one-time move of billing's rows out of schema
// "core", which held them up to its version 3 (core 4 drops those tables).
#pragma once

#include "core/storage/migration.hpp"

#include <odb/database.hxx>

#include <filesystem>

namespace lastro::storage {

// The core version whose migration drops core_credit_usage, core_ledger and core_rate_window.
inline constexpr unsigned long long kCoreWithoutBilling = 4;

// Creates or migrates schema "billing" in `billing`. The first time, on a database whose core
// schema still holds billing's tables, it copies their rows in the same transaction that creates
// the schema, so that a failed run leaves no billing schema and the next run copies again; core's
// own migration, run after this, then drops them. `data` is the database core is in (the same
// object as `billing` on PostgreSQL); on SQLite, `data_file` is its file, attached to read from.
// Must run before MigrateSchema(data, "core").
MigrationResult MigrateBilling(odb::database& billing, odb::database& data,
                               const std::filesystem::path& data_file);

}  // namespace lastro::storage
