// Helpers shared by the funds handlers: JSON for nullable registry values and the meta every
// registry response carries.
#pragma once

#include <lastro/sdk/plugin.hpp>
#include <lastro/sdk/result.hpp>

#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace lastro::funds {

// A missing value is JSON null, never 0 or "" (contract 2.1).
boost::json::value JsonOrNull(const std::optional<std::string>& value);
boost::json::value JsonOrNull(const std::optional<std::int64_t>& value);
boost::json::value JsonOrNull(const std::optional<double>& value);

// sources, data_release and as_of of the latest registry release (both null until the registry
// has been ingested, docs/api.md).
sdk::Meta RegistryMeta(const sdk::Host& host);

}  // namespace lastro::funds
