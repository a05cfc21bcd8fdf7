// Test plugin `reader`, which requires `good`: an ingester for reader.read and a sample writer
// that writes read.csv from the ThingsUniverse good's writer published, never from good's files.
// Built twice, the second time (stale_reader_plugin) as if from an older universe header.
#include "counting_ingester.hpp"
#include "things_universe.hpp"

#include <lastro/sdk/plugin.hpp>

#include <fstream>
#include <memory>

namespace {

using lastro::test_plugins::ThingsUniverse;

using lastro::test_plugins::CountingIngester;

class ReaderSampleWriter : public lastro::sdk::SampleWriter {
public:
    lastro::sdk::SampleReport Write(const lastro::sdk::SampleRequest& request) override {
        const ThingsUniverse& things = request.Get<ThingsUniverse>();
        lastro::sdk::SampleReport report;
        const auto path = request.out_dir / "read.csv";
        std::ofstream out(path);
        out << "seed " << things.seed << "\n";
        for (const std::string& file : things.files) {
            out << file << "\n";
        }
        report.files.push_back(path);
        report.counts = {{"things read", things.files.size()}};
        return report;
    }
};

class ReaderPlugin : public lastro::sdk::Plugin {
public:
    void Register(lastro::sdk::Registrar& registrar) override {
        registrar.AddIngester("reader.read", std::make_shared<CountingIngester>());
        registrar.AddSampleWriter(std::make_shared<ReaderSampleWriter>());
    }
};

}  // namespace

LASTRO_PLUGIN(ReaderPlugin)
