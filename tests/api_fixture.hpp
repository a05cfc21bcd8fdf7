// The host's end-to-end fixtures, on the test kit (<lastro/sdk/testing/...>, docs/testing.md).
// The host serves whatever its plugins declare; these tests load the build's plugins, and the
// funds plugin serves the data they call. ApiTest: the tests that share one server per backend
// (everything but the lifecycle and fault tests). Each test makes its own keys, so credit
// arithmetic never crosses tests.
#pragma once

#include <lastro/sdk/testing/backend_fixture.hpp>
#include <lastro/sdk/testing/checks.hpp>

#include <boost/json.hpp>

#include <cstdint>
#include <map>
#include <string>

namespace lastro::e2e {

using namespace ::lastro::sdk::testing;

// The plugins every host test loads: the build's plugin directory.
inline DeploymentOptions HostOptions() {
    return {.plugin_dirs = {LASTRO_PLUGIN_DIR}};
}

// The funds plugin's registry dataset, which the sample's fund list comes from.
inline constexpr const char* kRegistryDataset = "cvm.registro_fundo_classe";

class ApiTest : public BackendTest<ApiTest> {
public:
    static constexpr const char* kLabel = "api";
    static DeploymentOptions Options() { return HostOptions(); }
};

// Epoch second at which the calendar month after `now` starts (UTC).
std::int64_t NextMonthStartUtc(std::int64_t now);

// Blocks (bounded, at most six seconds) while the UTC second is 55 or later, so that a
// sequence of calls that must share one per-minute window starts early in a minute.
void AvoidMinuteBoundary();

// Every sample line of a Prometheus text exposition: "name{labels}" -> value.
std::map<std::string, double> MetricSamples(const std::string& text);

// The port of GET /metrics that `server`, started with `metrics.listen: 127.0.0.1:0`, printed
// (bounded wait); throws with its output when it printed none.
std::uint16_t MetricsPort(Lastrod& server);

}  // namespace lastro::e2e
