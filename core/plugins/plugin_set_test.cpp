// The loader's refusals, each naming the file: a real dlopen of small test plugins.
#include "core/plugins/plugin_set.hpp"

#include <lastro/sdk/abi.hpp>

#include <gtest/gtest.h>
#include <odb/sqlite/database.hxx>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include <cstdlib>

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
            << "\noperations:\n  - id: good.ping\n    path: " << path
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

TEST_F(PluginSetTest, RefusesAnAbiMismatchNamingBothIdentities) {
    Write("good.yaml", Lib("abi_mismatch_plugin"));
    std::string error = LoadError();
    EXPECT_NE(error.find("ABI mismatch: the library was built against SDK ABI 0123456789abcdef, this host "
                         "speaks SDK ABI " +
                         std::string(sdk::kAbiIdentity)),
              std::string::npos)
        << error;
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
    EXPECT_NE(error.find("good.yaml:12:5: operation 'good.pong' has no handler"), std::string::npos) << error;
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
    EXPECT_NE(error.find("b.yaml:5:5: operation id 'good.ping' is also declared at"), std::string::npos)
        << error;
}

TEST_F(PluginSetTest, RefusesDuplicateYamlKeys) {
    Write("good.yaml", Lib("good_plugin"), "version: 2.0.0\n");
    std::string error = LoadError();
    EXPECT_NE(error.find("good.yaml:12:1: version: duplicate key (first at line 2)"), std::string::npos)
        << error;
}

TEST_F(PluginSetTest, RefusesUnknownYamlKeys) {
    Write("good.yaml", Lib("good_plugin"), "colour: blue\n");
    std::string error = LoadError();
    EXPECT_NE(error.find("good.yaml:12:1: colour: unknown key"), std::string::npos) << error;
}

TEST_F(PluginSetTest, RefusesMalformedYaml) {
    std::ofstream(dir_ / "bad.yaml") << "name: [unclosed\n";
    std::string error = LoadError();
    EXPECT_NE(error.find("bad.yaml:"), std::string::npos) << error;
    EXPECT_NE(error.find("malformed YAML"), std::string::npos) << error;
}

// A manifest with no operation: `name`, its library, and what follows (requires:, datasets:).
void WriteBare(const fs::path& dir, const std::string& name, const std::string& library,
               const std::string& rest = "", const std::string& version = "1.0.0") {
    std::ofstream(dir / (name + ".yaml"))
        << "name: " << name << "\nversion: " << version << "\nlibrary: " << library << "\n"
        << rest;
}

std::string ReadAll(const fs::path& file) {
    std::ifstream in(file);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST_F(PluginSetTest, StartsInDependencyOrderAndStopsInReverse) {
    const fs::path log = dir_ / "lifecycle.log";
    ::setenv("LASTRO_TEST_LIFECYCLE_LOG", log.c_str(), 1);
    // File order is a, b, c; c requires b, a requires c: b, c, a.
    WriteBare(dir_, "a", Lib("lifecycle_plugin"), "requires:\n  - {plugin: c, version: \"^1.0.0\"}\n");
    WriteBare(dir_, "b", Lib("lifecycle_plugin"));
    WriteBare(dir_, "c", Lib("lifecycle_plugin"), "requires:\n  - {plugin: b}\n");
    {
        auto set = PluginSet::Load(config_, LoadedPlugin{});
        ASSERT_EQ(set->Plugins().size(), 4u);
        EXPECT_EQ(set->Plugins()[1]->manifest.name, "b");
        EXPECT_EQ(set->Plugins()[2]->manifest.name, "c");
        EXPECT_EQ(set->Plugins()[3]->manifest.name, "a");
        set->StartAll();
        set->StopAll();
    }
    ::unsetenv("LASTRO_TEST_LIFECYCLE_LOG");
    EXPECT_EQ(ReadAll(log), "start b\nstart c\nstart a\nstop a\nstop c\nstop b\n");
}

TEST_F(PluginSetTest, RefusesAMissingDependencyNamingThePlugin) {
    WriteBare(dir_, "industry", Lib("lifecycle_plugin"),
              "requires:\n  - {plugin: funds, version: \">=1.0.0\"}\n");
    EXPECT_EQ(LoadError(),
              (dir_ / "industry.yaml").string() +
                  ":5:5: plugin 'industry' requires plugin 'funds' (>=1.0.0), which is not installed "
                  "(no manifest names it)");
}

TEST_F(PluginSetTest, RefusesADependencyOutsideItsVersionRange) {
    WriteBare(dir_, "funds", Lib("lifecycle_plugin"), "", "1.4.2");
    WriteBare(dir_, "industry", Lib("lifecycle_plugin"),
              "requires:\n  - {plugin: funds, version: \"^2.0.0\"}\n");
    EXPECT_EQ(LoadError(), (dir_ / "industry.yaml").string() +
                               ":5:5: plugin 'industry' requires plugin 'funds' ^2.0.0, but " +
                               (dir_ / "funds.yaml").string() + " is version 1.4.2");
}

TEST_F(PluginSetTest, RefusesADependencyCycle) {
    WriteBare(dir_, "a", Lib("lifecycle_plugin"), "requires:\n  - {plugin: b}\n");
    WriteBare(dir_, "b", Lib("lifecycle_plugin"), "requires:\n  - {plugin: c}\n");
    WriteBare(dir_, "c", Lib("lifecycle_plugin"), "requires:\n  - {plugin: a}\n");
    EXPECT_EQ(LoadError(), "plugin dependency cycle: a (" + (dir_ / "a.yaml").string() + ") -> b (" +
                               (dir_ / "b.yaml").string() + ") -> c (" + (dir_ / "c.yaml").string() +
                               ") -> a");
}

TEST_F(PluginSetTest, RefusesADerivationFromAPluginNotRequired) {
    WriteBare(dir_, "funds", Lib("lifecycle_plugin"), "datasets:\n  - {id: cvm.monthly, provider: cvm}\n");
    WriteBare(dir_, "industry", Lib("lifecycle_plugin"),
              "datasets:\n  - {id: industry.totals, provider: lastro, derived_from: [cvm.monthly]}\n");
    EXPECT_EQ(LoadError(),
              (dir_ / "industry.yaml").string() +
                  ":5:5: dataset 'industry.totals' is derived from 'cvm.monthly' of plugin 'funds', "
                  "which 'industry' does not require (requires: none)");
    WriteBare(dir_, "industry", Lib("lifecycle_plugin"),
              "datasets:\n  - {id: industry.totals, provider: lastro, derived_from: [cvm.yearly]}\n");
    EXPECT_EQ(LoadError(),
              (dir_ / "industry.yaml").string() +
                  ":5:5: dataset 'industry.totals' is derived from 'cvm.yearly', which no installed "
                  "plugin declares");
}

TEST_F(PluginSetTest, RefusesADerivedDatasetWithoutDerivation) {
    WriteBare(dir_, "funds", Lib("lifecycle_plugin"),
              "datasets:\n  - {id: funds.totals, provider: lastro, derived_from: [funds.other]}\n"
              "  - {id: funds.other, provider: lastro, derived_from: [funds.totals]}\n");
    EXPECT_EQ(LoadError(),
              (dir_ / "funds.yaml").string() +
                  ":5:5: derived dataset 'funds.totals' has no derivation in liblifecycle_plugin.so");
}

const std::string kConsumerManifestTail =
    "operations:\n  - id: consumer.echo\n    path: /v1/echo\n    price: 1\n    scope: consumer\n"
    "    params:\n      - {name: word, type: string, max_length: 10}\n"
    "    response: {entity: echo, shape: object, fields: [{name: echo, type: string}]}\n";

TEST_F(PluginSetTest, ADependentPluginUsesTheServiceOfThePluginItRequires) {
    WriteBare(dir_, "provider", Lib("provider_plugin"));
    WriteBare(dir_, "consumer", Lib("consumer_plugin"),
              "requires:\n  - {plugin: provider, version: \"1.0.0\"}\n" + kConsumerManifestTail);
    auto set = PluginSet::Load(config_, LoadedPlugin{});
    ASSERT_NE(set->Service("provider.words"), nullptr);
    set->StartAll();
    const LoadedPlugin* consumer = set->Find("consumer");
    ASSERT_NE(consumer, nullptr);
    sdk::Params params;
    params.Set("word", std::string("ola"));
    std::optional<boost::json::value> no_cursor;
    const std::string op = "consumer.echo", request = "r1";
    odb::sqlite::database db(":memory:");  // the handler reads none; a request always has one
    struct NoHost : sdk::Host {
        std::optional<sdk::Release> LatestRelease(const std::string&) const override { return std::nullopt; }
    } host;
    sdk::Result result =
        consumer->handlers.at(op)(sdk::RequestContext{op, request, params, db, host, no_cursor});
    EXPECT_EQ(result.data, (boost::json::object{{"echo", "ola ola"}}));
}

TEST_F(PluginSetTest, RefusesAServiceBuiltFromAnotherInterfaceNamingBothIdentities) {
    WriteBare(dir_, "provider", Lib("provider_plugin"));
    WriteBare(dir_, "consumer", Lib("stale_consumer_plugin"),
              "requires:\n  - {plugin: provider}\n" + kConsumerManifestTail);
    auto set = PluginSet::Load(config_, LoadedPlugin{});
    const std::string provided = set->Service("provider.words")->identity;
    try {
        set->StartAll();
        FAIL() << "started";
    } catch (const PluginError& e) {
        EXPECT_EQ(std::string(e.what()),
                  (dir_ / "consumer.yaml").string() +
                      ": plugin 'consumer' failed to start: service 'provider.words' of "
                      "plugin 'provider' has interface identity " +
                      provided +
                      ", but plugin 'consumer' was built against 00000000deadbeef; "
                      "rebuild it against the installed provider headers");
    }
}

TEST_F(PluginSetTest, RefusesAServiceOfAPluginNotRequired) {
    WriteBare(dir_, "provider", Lib("provider_plugin"));
    WriteBare(dir_, "consumer", Lib("consumer_plugin"), kConsumerManifestTail);
    auto set = PluginSet::Load(config_, LoadedPlugin{});
    try {
        set->StartAll();
        FAIL() << "started";
    } catch (const PluginError& e) {
        EXPECT_EQ(std::string(e.what()),
                  (dir_ / "consumer.yaml").string() +
                      ": plugin 'consumer' failed to start: plugin 'consumer' asked for "
                      "service 'provider.words', which none of the plugins it requires "
                      "provides (requires: none)");
    }
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
                               ":15:13: dataset 'good.things' declares sample files, but "
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
