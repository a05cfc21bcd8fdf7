// Test plugin: exports the ABI number but no factory.
#include <lastro/sdk/abi.hpp>

#include <boost/config.hpp>

extern "C" BOOST_SYMBOL_EXPORT int lastro_plugin_abi() {
    return lastro::sdk::kAbiVersion;
}
