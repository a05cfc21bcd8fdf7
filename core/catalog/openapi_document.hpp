// The OpenAPI 3.1 description of this server (GET /openapi.json), generated from the loaded
// manifests like /pricing and /v1/schema: every /v1 operation with its parameters (types,
// ranges, lengths, enums, defaults), its response fields inside the success envelope
// (contract 2.2), its problem responses (contract 2.3, titles from core/request/problem.hpp), its
// price and billing operation name as x- extensions; plus the host's own public documents.
#pragma once

#include "core/plugins/manifest.hpp"
#include "core/plugins/plugin_set.hpp"

#include <boost/json/object.hpp>

#include <string>
#include <vector>

namespace lastro::catalog {

inline constexpr const char* kOpenApiVersion = "3.1.0";
// The pattern of a month (YYYY-MM), the type JSON Schema has no format for.
inline constexpr const char* kMonthPattern = "^[0-9]{4}-(0[1-9]|1[0-2])$";

// `manifests` in the order the server loads them; `base_url` is server.base_url.
boost::json::object OpenApiDocument(const std::vector<const plugins::Manifest*>& manifests,
                                    const std::string& base_url);
boost::json::object OpenApiDocument(const plugins::PluginSet& plugins, const std::string& base_url);

}  // namespace lastro::catalog
