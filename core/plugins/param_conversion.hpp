// Turns the raw text of one request parameter into its typed value, following the manifest.
// Used for every request (422 on failure) and for manifest defaults at load time.
#pragma once

#include "core/plugins/manifest.hpp"

#include <lastro/sdk/params.hpp>

#include <string>
#include <string_view>
#include <variant>

namespace lastro::plugins {

struct ParamError {
    std::string detail;  // "limit must be an integer between 1 and 100"
};

std::variant<sdk::ParamValue, ParamError> ConvertParam(const ParamSpec& spec, std::string_view raw);

}  // namespace lastro::plugins
