// Test plugin: exports the ABI identity but no factory.
#include <lastro/sdk/abi.hpp>

#include <boost/config.hpp>

extern "C" BOOST_SYMBOL_EXPORT const char* lastro_plugin_abi_identity() {
    return lastro::sdk::kAbiIdentity;
}
