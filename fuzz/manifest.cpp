// Fuzz target: the plugin manifest loader (core/plugins/manifest.cpp, yaml_reader underneath):
// parse and validate the bytes as a manifest. A bad manifest must be one config::YamlError
// ("file:line:col: path: message"); anything else that escapes is a finding.
#include "fuzz_support.hpp"

#include "core/config/yaml_reader.hpp"
#include "core/plugins/manifest.hpp"
#include "core/plugins/param_conversion.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace lastro;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    fuzz::ExpectOnly<config::YamlError>("manifest", [&] {
        plugins::Manifest manifest = plugins::ParseManifest(text, "manifest.yaml");
        // What the host does next with a valid manifest's declarations.
        for (const auto& dataset : manifest.datasets) {
            if (dataset.sync) {
                (void)dataset.sync->Urls("2026-11-26");
            }
            if (dataset.sample) {
                (void)dataset.sample->Matches("x.csv");
            }
        }
        for (const auto& operation : manifest.operations) {
            for (const auto& param : operation.params) {
                (void)plugins::TypeName(param);
                (void)plugins::ConvertParam(param, "1");
            }
        }
    });
    return 0;
}
