// Test plugin: reports an ABI number no host speaks.
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

extern "C" BOOST_SYMBOL_EXPORT int lastro_plugin_abi() {
    return 999;
}
BOOST_DLL_ALIAS(Create, lastro_create_plugin)
