// The plugin ABI number. The host calls the library's exported lastro_plugin_abi() before
// anything else and refuses a library whose number differs from its own.
// Bump it whenever a type in <lastro/sdk/...> changes layout or a virtual function changes.
#pragma once

namespace lastro::sdk {

inline constexpr int kAbiVersion = 3;  // 2: number parameters (Params::Number); 3: sample writers

}  // namespace lastro::sdk
