// The loader's refusals, each naming the file: a real dlopen of small test plugins.
#include "core/plugins/plugin_set.hpp"

#include <lastro/sdk/abi.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

namespace lastro::plugins {
namespace {

namespace fs = std::filesystem;

class PluginSetTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("lastro-plugins-" + std::to_string(std::random_device{}()));
        fs::create_directories(dir_);
        config_.manifest_dirs = {dir_};
    }
    void TearDown() override { fs::remove_all(dir_); }

    void Write(const std::string& file, const std::string& library, const std::string& extra = "",
               const std::string& path = "/v1/ping") {
        std::ofstream out(dir_ / file);
        out << "name: " << fs::path(file).stem().string() << "\nversion: 1.0.0\nlibrary: " << library
            << "\nsdk: " << sdk::kAbiVersion << "\noperations:\n  - id: good.ping\n    path: " << path
            << "\n    price: 1\n    scope: good\n    params:\n      - {name: word, type: string, max_length: "
               "10}\n"
            << "    response: {entity: ping, shape: object, fields: [{name: pong, type: string}]}\n"
            << extra;
    }

    static std::string Lib(const std::string& name) {
        return std::string(LASTRO_TEST_PLUGIN_DIR) + "/lib" + name + ".so";
    }

    std::string LoadError() {
        try {
            PluginSet::Load(config_, LoadedPlugin{});
        } catch (const PluginError& e) {
            return e.what();
        }
        return "(loaded)";
    }

    fs::path dir_;
    config::PluginsConfig config_;
};

TEST_F(PluginSetTest, LoadsAGoodPluginAndCallsItsHandler) {
    Write("good.yaml", Lib("good_plugin"));
    auto set = PluginSet::Load(config_, LoadedPlugin{});
    ASSERT_EQ(set->Plugins().size(), 2u);
    const LoadedPlugin& good = *set->Plugins()[1];
    EXPECT_EQ(good.manifest.name, "good");
    ASSERT_EQ(good.handlers.count("good.ping"), 1u);
}

TEST_F(PluginSetTest, RefusesAMissingLibrary) {
    Write("good.yaml", "/nonexistent/libnothing.so");
    std::string error = LoadError();
    EXPECT_NE(error.find("good.yaml"), std::string::npos) << error;
    EXPECT_NE(error.find("library not found"), std::string::npos) << error;
}

TEST_F(PluginSetTest, RefusesALibraryWithoutFactory) {
    Write("good.yaml", Lib("no_factory_plugin"));
    std::string error = LoadError();
    EXPECT_NE(error.find("good.yaml"), std::string::npos) << error;
    EXPECT_NE(error.find("missing factory symbol lastro_create_plugin"), std::string::npos) << error;
}

TEST_F(PluginSetTest, RefusesAnAbiMismatch) {
    Write("good.yaml", Lib("abi_mismatch_plugin"));
    std::string error = LoadError();
    EXPECT_NE(error.find("ABI mismatch: the library reports SDK 999"), std::string::npos) << error;
}

TEST_F(PluginSetTest, RefusesAHandlerWithoutOperation) {
    Write("good.yaml", Lib("extra_handler_plugin"));
    std::string error = LoadError();
    EXPECT_NE(error.find("registers a handler for 'good.extra', which the manifest does not declare"),
              std::string::npos)
        << error;
}

TEST_F(PluginSetTest, RefusesAnOperationWithoutHandler) {
    Write("good.yaml", Lib("good_plugin"),
          "  - id: good.pong\n    path: /v1/pong\n    price: 1\n    scope: good\n"
          "    response: {entity: ping, shape: object, fields: [{name: pong, type: string}]}\n");
    std::string error = LoadError();
    EXPECT_NE(error.find("good.yaml:13:5: operation 'good.pong' has no handler"), std::string::npos) << error;
}

TEST_F(PluginSetTest, RefusesADatasetWithoutIngester) {
    Write("good.yaml", Lib("good_plugin"), "datasets:\n  - {id: cvm.nothing, provider: cvm}\n");
    std::string error = LoadError();
    EXPECT_NE(error.find("dataset 'cvm.nothing' has no ingester"), std::string::npos) << error;
}

TEST_F(PluginSetTest, RefusesAPathDeclaredByTwoPlugins) {
    Write("a.yaml", Lib("good_plugin"));
    Write("b.yaml", Lib("good_plugin"));
    std::string error = LoadError();
    EXPECT_NE(error.find("b.yaml:6:5: operation id 'good.ping' is also declared at"), std::string::npos)
        << error;
}

TEST_F(PluginSetTest, RefusesDuplicateYamlKeys) {
    Write("good.yaml", Lib("good_plugin"), "version: 2.0.0\n");
    std::string error = LoadError();
    EXPECT_NE(error.find("good.yaml:13:1: version: duplicate key (first at line 2)"), std::string::npos)
        << error;
}

TEST_F(PluginSetTest, RefusesUnknownYamlKeys) {
    Write("good.yaml", Lib("good_plugin"), "colour: blue\n");
    std::string error = LoadError();
    EXPECT_NE(error.find("good.yaml:13:1: colour: unknown key"), std::string::npos) << error;
}

TEST_F(PluginSetTest, RefusesMalformedYaml) {
    std::ofstream(dir_ / "bad.yaml") << "name: [unclosed\n";
    std::string error = LoadError();
    EXPECT_NE(error.find("bad.yaml:"), std::string::npos) << error;
    EXPECT_NE(error.find("malformed YAML"), std::string::npos) << error;
}

// Datasets of the sample plugin (good.things, good.more); `sample` is appended to good.things.
std::string SampleDatasets(const std::string& sample) {
    return "datasets:\n  - id: good.things\n    provider: good\n" + sample +
           "  - id: good.more\n    provider: good\n";
}

TEST_F(PluginSetTest, LoadsASampleWriterWhenADatasetDeclaresSampleFiles) {
    Write("good.yaml", Lib("sample_plugin"), SampleDatasets("    sample: {files: [\"things_*.csv\"]}\n"));
    auto set = PluginSet::Load(config_, LoadedPlugin{});
    EXPECT_TRUE(set->Plugins()[1]->sample_writer);
}

TEST_F(PluginSetTest, RefusesSampleFilesWithoutASampleWriter) {
    Write("good.yaml", Lib("no_sample_writer_plugin"),
          SampleDatasets("    sample: {files: [\"things_*.csv\"]}\n"));
    EXPECT_EQ(LoadError(), (dir_ / "good.yaml").string() +
                               ":16:13: dataset 'good.things' declares sample files, but "
                               "libno_sample_writer_plugin.so registers no sample writer");
}

TEST_F(PluginSetTest, RefusesASampleWriterWithoutSampleFiles) {
    Write("good.yaml", Lib("sample_plugin"), SampleDatasets(""));
    EXPECT_EQ(LoadError(), (dir_ / "good.yaml").string() +
                               ": libsample_plugin.so registers a sample writer, but no dataset of the "
                               "manifest declares sample:");
}

TEST_F(PluginSetTest, RefusesTwoSampleWriters) {
    Write("good.yaml", Lib("two_sample_writers_plugin"),
          SampleDatasets("    sample: {files: [\"things_*.csv\"]}\n"));
    std::string error = LoadError();
    EXPECT_NE(
        error.find("libtwo_sample_writers_plugin.so: a second sample writer registered (one per plugin)"),
        std::string::npos)
        << error;
}

}  // namespace
}  // namespace lastro::plugins
