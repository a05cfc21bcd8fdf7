// Test plugin: no operation; appends "start <name>" and "stop <name>" to the file named by
// LASTRO_TEST_LIFECYCLE_LOG, so a test sees the order in which the host starts and stops
// plugins (each manifest that names this library is its own instance).
#include <lastro/sdk/plugin.hpp>

#include <cstdlib>
#include <fstream>
#include <string>

namespace {

void Log(const std::string& line) {
    if (const char* file = std::getenv("LASTRO_TEST_LIFECYCLE_LOG")) {
        std::ofstream(file, std::ios::app) << line << '\n';
    }
}

class LifecyclePlugin : public lastro::sdk::Plugin {
public:
    void Register(lastro::sdk::Registrar&) override {}
    void Start(const lastro::sdk::StartContext& context) override {
        name_ = context.plugin;
        Log("start " + name_);
    }
    void Stop() noexcept override { Log("stop " + name_); }

private:
    std::string name_;
};

}  // namespace

LASTRO_PLUGIN(LifecyclePlugin)
