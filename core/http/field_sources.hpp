// meta.field_sources: where each field of an answer comes from, declared once per response
// field in the manifest (`source:`, docs/plugins.md) and answered by the host for every call of
// the operation, so that no handler builds the table.
#pragma once

#include "core/plugins/manifest.hpp"

#include <string>

namespace lastro::http {

// The member the host appends to the meta of every answer of `op`, rendered once at start-up:
// `,"field_sources":{"field":"source",...}` in the order the manifest declares the fields, or ""
// when its response declares no sources.
std::string FieldSourcesMember(const plugins::OperationSpec& op);

}  // namespace lastro::http
