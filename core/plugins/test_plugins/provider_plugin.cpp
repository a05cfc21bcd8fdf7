// Test plugin `provider`: offers WordsService to the plugins that require it.
#include "words_service.hpp"

#include <lastro/sdk/plugin.hpp>

namespace {

using lastro::test_plugins::WordsService;

class Words : public WordsService {
public:
    std::string Repeat(const std::string& word, int times) const override {
        std::string out;
        for (int i = 0; i < times; ++i) {
            out += (i ? " " : "") + word;
        }
        return out;
    }
};

class ProviderPlugin : public lastro::sdk::Plugin {
public:
    void Register(lastro::sdk::Registrar& registrar) override {
        registrar.Provide<WordsService>(std::make_shared<const Words>());
    }
};

}  // namespace

LASTRO_PLUGIN(ProviderPlugin)
