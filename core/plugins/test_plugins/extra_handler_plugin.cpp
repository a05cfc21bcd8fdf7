// Test plugin: registers a handler its manifest does not declare (good.extra).
#include <lastro/sdk/plugin.hpp>

namespace {

class ExtraHandlerPlugin : public lastro::sdk::Plugin {
public:
    void Register(lastro::sdk::Registrar& registrar) override {
        auto handler = [](const lastro::sdk::RequestContext&) { return lastro::sdk::Result{}; };
        registrar.AddHandler("good.ping", handler);
        registrar.AddHandler("good.extra", handler);
    }
};

}  // namespace

LASTRO_PLUGIN(ExtraHandlerPlugin)
