// Test plugin: reports an ABI identity no host speaks (built against other SDK headers).
#include <lastro/sdk/plugin.hpp>

#include <boost/dll/alias.hpp>

namespace {

class OldPlugin : public lastro::sdk::Plugin {
public:
    void Register(lastro::sdk::Registrar&) override {}
};

std::unique_ptr<lastro::sdk::Plugin> Create() {
    return std::make_unique<OldPlugin>();
}

}  // namespace

extern "C" BOOST_SYMBOL_EXPORT const char* lastro_plugin_abi_identity() {
    return "0123456789abcdef";
}
BOOST_DLL_ALIAS(Create, lastro_create_plugin)
