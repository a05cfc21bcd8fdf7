// Test plugin `consumer`: obtains WordsService when it starts and answers consumer.echo with
// it; built twice, the second time (stale_consumer_plugin) as if from an older service header.
#include "words_service.hpp"

#include <lastro/sdk/plugin.hpp>

namespace {

using lastro::test_plugins::WordsService;

class ConsumerPlugin : public lastro::sdk::Plugin {
public:
    void Register(lastro::sdk::Registrar& registrar) override {
        registrar.AddHandler("consumer.echo", [this](const lastro::sdk::RequestContext& context) {
            lastro::sdk::Result result;
            result.data =
                boost::json::object{{"echo", words_->Repeat(context.params.String("word").value_or(""), 2)}};
            return result;
        });
    }
    void Start(const lastro::sdk::StartContext& context) override {
        words_ = &context.services.Get<WordsService>();
    }

private:
    const WordsService* words_ = nullptr;
};

}  // namespace

LASTRO_PLUGIN(ConsumerPlugin)
