// The discovery documents, generated from the loaded manifests and the configuration, never
// typed by hand: /health, /pricing and the data of /v1/schema.
#pragma once

#include "core/config/config.hpp"
#include "core/plugins/plugin_set.hpp"

#include <boost/json/object.hpp>

#include <ctime>

namespace lastro::catalog {

inline constexpr const char* kContractVersion = "1.15.0";
inline constexpr const char* kPolicyVersion = "2026-11-30-free-not-modified";
inline constexpr int kIncludedPagesWindowSeconds = 15 * 60;

struct PolicyVersion {
    const char* version;
    const char* effective_from;  // YYYY-MM-DD
};
// Every credit policy this server has published, oldest first; the last one is in force.
// 2026-11-28: a charged answer that lastrod could not hand whole to the kernel is refunded; a
// later page asked again with the same cursor within the window is stated free.
// 2026-11-30: a 304 (If-None-Match named the answer's ETag) is refunded: it still counts in the
// calls per minute.
inline constexpr PolicyVersion kPolicyHistory[] = {{"2026-10-14-public-catalog", "2026-10-14"},
                                                   {"2026-11-28-delivered-answers", "2026-11-28"},
                                                   {"2026-11-30-free-not-modified", "2026-11-30"}};

boost::json::object HealthDocument(const plugins::PluginSet& plugins, std::time_t started_at, std::time_t now,
                                   bool database_available);
boost::json::object PricingDocument(const plugins::PluginSet& plugins, const config::CreditsConfig& credits);
boost::json::object SchemaDocument(const plugins::PluginSet& plugins);

// The host's own manifest (the schema.read operation), validated like a plugin's.
plugins::Manifest CoreManifest();

}  // namespace lastro::catalog
