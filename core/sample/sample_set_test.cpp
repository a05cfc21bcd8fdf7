// `lastro sample` and `lastro ingest --sample` without any real dataset: the test sample plugin
// (core/plugins/test_plugins/sample_plugin.cpp) loaded from a manifest written here.
#include "core/sample/sample_set.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace lastro::sample {
namespace {

namespace fs = std::filesystem;

class SampleSetTest : public ::testing::Test {
protected:
    void SetUp() override {
        std::string pattern = (fs::temp_directory_path() / "lastro-sample-set-XXXXXX").string();
        ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
        root_ = pattern;
        fs::create_directories(root_ / "plugins");
    }
    void TearDown() override { fs::remove_all(root_); }

    // Loads the sample plugin (`library`, a variant of it); `things` and `more` are the `sample:`
    // values of its datasets (the line is left out when empty), `more` first when `more_first`.
    std::unique_ptr<plugins::PluginSet> Load(const std::string& things, const std::string& more,
                                             bool more_first = false,
                                             const std::string& library = "sample_plugin") {
        const std::string things_ds = "  - id: good.things\n    provider: good\n" +
                                      (things.empty() ? "" : "    sample: " + things + "\n");
        const std::string more_ds =
            "  - id: good.more\n    provider: good\n" + (more.empty() ? "" : "    sample: " + more + "\n");
        std::ofstream(root_ / "plugins" / "good.yaml")
            << "name: good\nversion: 1.0.0\nlibrary: " << LASTRO_TEST_PLUGIN_DIR << "/lib" << library
            << ".so\noperations:\n  - id: good.ping\n    path: /v1/ping\n    price: 1\n    scope: good\n"
               "    response: {entity: ping, shape: object, fields: [{name: pong, type: string}]}\n"
            << "datasets:\n"
            << (more_first ? more_ds + things_ds : things_ds + more_ds);
        config::PluginsConfig config;
        config.manifest_dirs = {root_ / "plugins"};
        return plugins::PluginSet::Load(config, plugins::LoadedPlugin{});
    }

    // Writes the manifest of the `reader` test plugin (`library`, universe_reader_plugin or its
    // stale build), whose dataset reader.read has the sample file read.csv; it requires `good`
    // unless `requires_good` is false.
    void WriteReader(const std::string& library = "universe_reader_plugin", bool requires_good = true) {
        std::ofstream(root_ / "plugins" / "reader.yaml")
            << "name: reader\nversion: 1.0.0\nlibrary: " << LASTRO_TEST_PLUGIN_DIR << "/lib" << library
            << ".so\n"
            << (requires_good ? "requires:\n  - {plugin: good}\n" : "")
            << "datasets:\n  - id: reader.read\n    provider: good\n    sample: {files: [read.csv]}\n";
    }

    std::string WriteError(const plugins::PluginSet& set, sdk::SampleScale scale) {
        try {
            WriteSamples(set, {root_ / "out", 1, scale});
        } catch (const SampleError& e) {
            return e.what();
        }
        return "(written)";
    }

    std::string FindError(const plugins::PluginSet& set, const fs::path& dir, sdk::SampleScale scale) {
        try {
            FindSampleInputs(set, dir, scale);
        } catch (const SampleError& e) {
            return e.what();
        }
        return "(found)";
    }

    fs::path root_;
};

TEST_F(SampleSetTest, RunsTheWriterIntoANewDirectoryAndKeepsItsReport) {
    auto set = Load(R"({files: ["things_*.csv"], scales: [sample, full]})", "{files: [more.csv]}");
    const fs::path out = root_ / "out" / "nested";
    const std::vector<PluginSample> written = WriteSamples(*set, {out, 7, sdk::SampleScale::kSample});
    ASSERT_EQ(written.size(), 1u);
    EXPECT_EQ(written[0].plugin, "good");
    EXPECT_EQ(written[0].report.files,
              (std::vector<fs::path>{out / "things_1.csv", out / "things_2.csv", out / "more.csv"}));
    ASSERT_EQ(written[0].report.counts.size(), 1u);
    EXPECT_EQ(written[0].report.counts[0].name, "things");
    EXPECT_EQ(written[0].report.counts[0].count, 2u);
    std::ifstream in(out / "things_2.csv");
    std::string text;
    std::getline(in, text);
    EXPECT_EQ(text, "seed 7");
}

TEST_F(SampleSetTest, AScaleNeedsFilesOnlyForTheDatasetsThatDeclareIt) {
    auto set = Load(R"({files: ["things_*.csv"], scales: [sample, full]})", "{files: [more.csv]}");
    const auto written = WriteSamples(*set, {root_ / "out", 1, sdk::SampleScale::kFull});
    EXPECT_EQ(written[0].report.files, (std::vector<fs::path>{root_ / "out" / "things_1.csv"}));
    EXPECT_EQ(written[0].report.notes, (std::vector<std::string>{"full scale: no more.csv"}));
}

TEST_F(SampleSetTest, ADatasetTheWriterLeftWithoutAFileIsAnError) {
    auto set =
        Load(R"({files: ["things_*.csv"]})", "{files: [more.csv, \"more_*.zip\"], scales: [sample, full]}");
    EXPECT_EQ(
        WriteError(*set, sdk::SampleScale::kFull),
        (root_ / "plugins" / "good.yaml").string() +
            ":16:13: dataset 'good.more' declares sample files at scale full, but plugin 'good' wrote none "
            "matching more.csv, more_*.zip");
}

TEST_F(SampleSetTest, WithoutASampleWriterThereIsNothingToWrite) {
    auto set = Load("", "", false, "no_sample_writer_plugin");
    EXPECT_EQ(WriteError(*set, sdk::SampleScale::kSample),
              "no loaded plugin writes sample data (no dataset declares sample:)");
}

TEST_F(SampleSetTest, AProvidersUniverseReachesTheWriterOfAPluginThatRequiresIt) {
    WriteReader();
    auto set = Load(R"({files: ["things_*.csv"]})", "{files: [more.csv]}", false, "universe_provider_plugin");
    const fs::path out = root_ / "out";
    const std::vector<PluginSample> written = WriteSamples(*set, {out, 7, sdk::SampleScale::kSample});
    ASSERT_EQ(written.size(), 2u);
    EXPECT_EQ(written[0].plugin, "good");
    ASSERT_TRUE(written[0].report.universe);
    EXPECT_EQ(written[0].report.universe->Name(), "good.things");
    EXPECT_EQ(written[1].plugin, "reader");
    EXPECT_FALSE(written[1].report.universe) << "the reader publishes none";
    EXPECT_EQ(written[1].report.files, (std::vector<fs::path>{out / "read.csv"}));
    ASSERT_EQ(written[1].report.counts.size(), 1u);
    EXPECT_EQ(written[1].report.counts[0].count, 3u);
    // What the reader wrote came from good's universe: its seed and its files, in order.
    std::ifstream in(out / "read.csv");
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
        lines.push_back(line);
    }
    EXPECT_EQ(lines, (std::vector<std::string>{"seed 7", "things_1.csv", "things_2.csv", "more.csv"}));
}

TEST_F(SampleSetTest, AUniverseTheProviderDoesNotPublishIsAClearError) {
    WriteReader();
    auto set = Load(R"({files: ["things_*.csv"]})", "{files: [more.csv]}");  // publishes none
    EXPECT_EQ(WriteError(*set, sdk::SampleScale::kSample),
              "plugin 'reader': no sample universe 'good.things' was passed to this sample writer (it has: "
              "none); `lastro sample` passes a writer the universes of the plugins its manifest requires, "
              "which their writers publish in SampleReport::universe");
}

TEST_F(SampleSetTest, OnlyThePluginsAWriterRequiresPassItTheirUniverses) {
    WriteReader("universe_reader_plugin", false);
    auto set = Load(R"({files: ["things_*.csv"]})", "{files: [more.csv]}", false, "universe_provider_plugin");
    EXPECT_THAT(WriteError(*set, sdk::SampleScale::kSample),
                ::testing::StartsWith("plugin 'reader': no sample universe 'good.things' was passed to this "
                                      "sample writer (it has: none)"));
}

TEST_F(SampleSetTest, AUniverseFromAnotherVersionOfItsHeaderIsRefusedWithBothIdentities) {
    WriteReader("stale_reader_plugin");
    auto set = Load(R"({files: ["things_*.csv"]})", "{files: [more.csv]}", false, "universe_provider_plugin");
    const std::string error = WriteError(*set, sdk::SampleScale::kSample);
    EXPECT_THAT(error, ::testing::StartsWith("plugin 'reader': sample universe 'good.things' has identity "));
    EXPECT_THAT(error, ::testing::HasSubstr(", but this sample writer was built against 00000000deadbeef"));
}

TEST_F(SampleSetTest, APublishedUniverseIsNamedAfterItsPlugin) {
    auto set = Load(R"({files: ["things_*.csv"]})", "{files: [more.csv]}", false, "misnamed_universe_plugin");
    EXPECT_EQ(WriteError(*set, sdk::SampleScale::kSample),
              "plugin 'good' publishes sample universe 'elsewhere.things', which must be named "
              "good.<universe>");
}

TEST_F(SampleSetTest, FindsEachDatasetsFilesInManifestOrderSortedByName) {
    auto set = Load(R"({files: ["things_*.csv"], scales: [sample, full]})", "{files: [more.csv]}", true);
    const fs::path dir = root_ / "sample";
    fs::create_directories(dir / "things_9.csv");  // a directory: not an input
    for (const char* name : {"things_2.csv", "more.csv", "things_10.csv", "things_1.csv", "stale.txt"}) {
        std::ofstream(dir / name) << "x\n";
    }
    const std::vector<SampleInput> inputs = FindSampleInputs(*set, dir, sdk::SampleScale::kSample);
    ASSERT_EQ(inputs.size(), 2u);
    EXPECT_EQ(inputs[0].dataset, "good.more");
    EXPECT_EQ(inputs[0].plugin, "good");
    EXPECT_EQ(inputs[0].files, (std::vector<fs::path>{dir / "more.csv"}));
    EXPECT_EQ(inputs[1].dataset, "good.things");
    EXPECT_EQ(inputs[1].files,
              (std::vector<fs::path>{dir / "things_1.csv", dir / "things_10.csv", dir / "things_2.csv"}));

    const std::vector<SampleInput> full = FindSampleInputs(*set, dir, sdk::SampleScale::kFull);
    ASSERT_EQ(full.size(), 1u);
    EXPECT_EQ(full[0].dataset, "good.things");
}

TEST_F(SampleSetTest, ADatasetWithoutFilesOrAMissingDirectoryIsAnError) {
    auto set = Load(R"({files: ["things_*.csv"], scales: [sample, full]})", "{files: [more.csv]}");
    const fs::path dir = root_ / "sample";
    fs::create_directories(dir);
    std::ofstream(dir / "things_1.csv") << "x\n";
    EXPECT_EQ(FindError(*set, dir, sdk::SampleScale::kSample),
              dir.string() +
                  " has no file for dataset 'good.more' (more.csv): write the sample with `lastro "
                  "sample --out " +
                  dir.string() + "`");
    EXPECT_EQ(FindError(*set, root_ / "none", sdk::SampleScale::kFull),
              (root_ / "none").string() + ": not a directory (write one with `lastro sample --out " +
                  (root_ / "none").string() + " --scale full`)");
}

}  // namespace
}  // namespace lastro::sample
