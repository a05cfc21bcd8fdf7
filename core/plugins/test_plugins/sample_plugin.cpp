// Test plugin: good.ping, ingesters for good.things and good.more, and a sample writer (none or
// two when built with LASTRO_TEST_SAMPLE_WRITERS=0 or 2). At scale sample the writer writes
// things_1.csv, things_2.csv and more.csv; at scale full only things_1.csv. Built with
// LASTRO_TEST_SAMPLE_UNIVERSE (universe_provider_plugin), the writer publishes a ThingsUniverse
// of the seed and the files' names (things_universe.hpp).
#include "counting_ingester.hpp"

#include <lastro/sdk/plugin.hpp>

#ifndef LASTRO_TEST_SAMPLE_WRITERS
#define LASTRO_TEST_SAMPLE_WRITERS 1
#endif

#ifdef LASTRO_TEST_SAMPLE_UNIVERSE
#include "things_universe.hpp"
#endif

#include <fstream>
#include <stdexcept>
#include <string>

namespace {

using lastro::test_plugins::CountingIngester;

class ThingsSampleWriter : public lastro::sdk::SampleWriter {
public:
    lastro::sdk::SampleReport Write(const lastro::sdk::SampleRequest& request) override {
        lastro::sdk::SampleReport report;
        const bool full = request.scale == lastro::sdk::SampleScale::kFull;
        for (const char* name : {"things_1.csv", "things_2.csv", "more.csv"}) {
            if (full && std::string(name) != "things_1.csv") {
                continue;
            }
            const auto path = request.out_dir / name;
            std::ofstream(path) << "seed " << request.seed << "\n";
            report.files.push_back(path);
        }
        report.counts = {{"things", full ? 1u : 2u}};
#ifdef LASTRO_TEST_SAMPLE_UNIVERSE
        auto universe = std::make_shared<lastro::test_plugins::ThingsUniverse>();
        universe->seed = request.seed;
        for (const auto& file : report.files) {
            universe->files.push_back(file.filename().string());
        }
        report.universe = std::move(universe);
#endif
        if (full) {
            report.notes.push_back("full scale: no more.csv");
        }
        return report;
    }
};

class SamplePlugin : public lastro::sdk::Plugin {
public:
    void Register(lastro::sdk::Registrar& registrar) override {
        registrar.AddHandler("good.ping",
                             [](const lastro::sdk::RequestContext&) { return lastro::sdk::Result{}; });
        registrar.AddIngester("good.things", std::make_shared<CountingIngester>());
        registrar.AddIngester("good.more", std::make_shared<CountingIngester>());
        for (int i = 0; i < LASTRO_TEST_SAMPLE_WRITERS; ++i) {
            registrar.AddSampleWriter(std::make_shared<ThingsSampleWriter>());
        }
    }
};

}  // namespace

LASTRO_PLUGIN(SamplePlugin)
