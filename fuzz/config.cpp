// Fuzz target: the configuration loader (core/config/config.cpp, yaml_reader underneath):
// parse and validate the bytes as etc/lastro.yaml, then resolve the defaults as LoadConfig does.
// A bad configuration must be one config::YamlError ("file:line:col: path: message").
#include "fuzz_support.hpp"

#include "core/config/config.hpp"
#include "core/config/yaml_reader.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace lastro;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    fuzz::ExpectOnly<config::YamlError>("config", [&] {
        config::Config config = config::ParseConfig(text, "/etc/lastro/lastro.yaml");
        config::ResolveDefaults(config);
    });
    return 0;
}
