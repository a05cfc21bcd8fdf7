// The plugin ABI identity. The build computes it from every public SDK header
// (cmake/header_identity.cmake, generated into <lastro/sdk/abi_identity.hpp>), so a library
// and a host agree on it exactly when they were compiled against the same SDK headers; nobody
// bumps a number by hand. A plugin library exports it as lastro_plugin_abi_identity()
// (LASTRO_PLUGIN), and the host compares it with its own before calling anything else.
#pragma once

#include <lastro/sdk/abi_identity.hpp>

namespace lastro::sdk {

// The symbol a plugin library exports: `extern "C" const char* lastro_plugin_abi_identity()`.
inline constexpr const char* kAbiIdentitySymbol = "lastro_plugin_abi_identity";

}  // namespace lastro::sdk
