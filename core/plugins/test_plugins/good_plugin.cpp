// Test plugin: one operation (good.ping) and, when asked by its manifest, nothing else.
#include <lastro/sdk/plugin.hpp>

namespace {

class GoodPlugin : public lastro::sdk::Plugin {
public:
    void Register(lastro::sdk::Registrar& registrar) override {
        registrar.AddHandler("good.ping", [](const lastro::sdk::RequestContext& context) {
            lastro::sdk::Result result;
            result.data = boost::json::object{{"pong", context.params.String("word").value_or("")}};
            return result;
        });
    }
};

}  // namespace

LASTRO_PLUGIN(GoodPlugin)
