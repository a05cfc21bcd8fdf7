// The test kit's registration check: it passes when Register() matches the manifest and names
// every disagreement the host would refuse the plugin for.
#include <lastro/sdk/testing/registrations.hpp>

#include <lastro/sdk/testing/temp_dir.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>
#include <string>

namespace lastro::sdk::testing {
namespace {

using ::testing::HasSubstr;

constexpr const char* kManifest = R"(name: demo
version: 1.0.0
library: liblastro-demo.so
operations:
  - {id: demo.values, path: /v1/demo, price: 1, scope: demo}
  - {id: demo.one, path: "/v1/demo/{id}", price: 1, scope: demo}
datasets:
  - {id: demo.files, provider: demo, sample: {files: [demo.csv]}}
  - {id: demo.totals, provider: lastro, derived_from: [demo.files]}
)";

class NoIngest : public Ingester {
public:
    IngestSummary Run(const IngestContext&) override { return {}; }
};
class NoDerivation : public Derivation {
public:
    IngestSummary Run(const DerivationContext&) override { return {}; }
};
class NoSample : public SampleWriter {
public:
    SampleReport Write(const SampleRequest&) override { return {}; }
};
class Words : public Service {};

Result Nothing(const RequestContext&) {
    return {};
}

// A plugin whose Register() is the test's.
class DemoPlugin : public Plugin {
public:
    explicit DemoPlugin(std::function<void(Registrar&)> extra = {}, bool complete = true)
        : extra_(std::move(extra)), complete_(complete) {}
    void Register(Registrar& registrar) override {
        if (complete_) {
            registrar.AddHandler("demo.values", &Nothing);
            registrar.AddHandler("demo.one", &Nothing);
            registrar.AddIngester("demo.files", std::make_shared<NoIngest>());
            registrar.AddDerivation("demo.totals", std::make_shared<NoDerivation>());
            registrar.AddSampleWriter(std::make_shared<NoSample>());
            registrar.ProvideService("demo.words", "0123456789abcdef", std::make_shared<const Words>());
        }
        if (extra_) {
            extra_(registrar);
        }
    }

private:
    std::function<void(Registrar&)> extra_;
    bool complete_;
};

class RegistrationsTest : public ::testing::Test {
protected:
    std::filesystem::path Manifest(const std::string& text = kManifest) {
        return dir_.Write("demo.yaml", text);
    }
    TempDir dir_;
};

TEST_F(RegistrationsTest, ReadsWhatTheManifestDeclares) {
    const ManifestDeclarations declared = ReadManifestDeclarations(Manifest());
    EXPECT_EQ(declared.plugin, "demo");
    EXPECT_EQ(declared.operations, (std::set<std::string>{"demo.values", "demo.one"}));
    EXPECT_EQ(declared.datasets, (std::set<std::string>{"demo.files"}));
    EXPECT_EQ(declared.derived_datasets, (std::set<std::string>{"demo.totals"}));
    EXPECT_TRUE(declared.declares_sample);
}

TEST_F(RegistrationsTest, AMatchingPluginPassesAndItsRegistrationsAreKept) {
    DemoPlugin plugin;
    EXPECT_TRUE(RegistrationsMatchManifest(plugin, Manifest()));

    RecordingRegistrar registrar;
    plugin.Register(registrar);
    EXPECT_EQ(registrar.ServiceNames(), (std::set<std::string>{"demo.words"}));
    EXPECT_EQ(registrar.Services().at("demo.words").first, "0123456789abcdef");
    ASSERT_EQ(registrar.Handlers().count("demo.one"), 1u);
    EXPECT_EQ(registrar.SampleWriters().size(), 1u);
}

TEST_F(RegistrationsTest, EveryDisagreementIsNamed) {
    DemoPlugin plugin(
        [](Registrar& r) {
            r.AddHandler("demo.values", &Nothing);
            r.AddHandler("demo.undeclared", &Nothing);
            r.AddIngester("demo.totals", std::make_shared<NoIngest>());
            r.ProvideService("words", "x", std::make_shared<const Words>());
        },
        false);
    const ::testing::AssertionResult result = RegistrationsMatchManifest(plugin, Manifest());
    ASSERT_FALSE(result);
    const std::string message = result.message();
    EXPECT_THAT(message, HasSubstr("operation 'demo.one' has no handler"));
    EXPECT_THAT(message,
                HasSubstr("handler registered for 'demo.undeclared', which the manifest does not declare"));
    EXPECT_THAT(message, HasSubstr("dataset read from files 'demo.files' has no ingester"));
    EXPECT_THAT(message, HasSubstr("ingester registered for 'demo.totals'"));
    EXPECT_THAT(message, HasSubstr("derived dataset 'demo.totals' has no derivation"));
    EXPECT_THAT(message, HasSubstr("declares sample files, but no sample writer is registered"));
    EXPECT_THAT(message, HasSubstr("service 'words' must be named demo.<service>"));
}

TEST_F(RegistrationsTest, TwiceOrEmptyIsAProblem) {
    DemoPlugin plugin([](Registrar& r) {
        r.AddHandler("demo.values", &Nothing);
        r.AddIngester("demo.files", nullptr);
        r.AddSampleWriter(std::make_shared<NoSample>());
    });
    const ::testing::AssertionResult result = RegistrationsMatchManifest(plugin, Manifest());
    ASSERT_FALSE(result);
    EXPECT_THAT(result.message(), HasSubstr("handler for 'demo.values' registered twice"));
    EXPECT_THAT(result.message(), HasSubstr("ingester for 'demo.files' registered without an object"));
    EXPECT_THAT(result.message(), HasSubstr("a second sample writer registered"));
}

TEST_F(RegistrationsTest, ASampleWriterWithoutSampleFilesIsAProblem) {
    const std::string text =
        "name: demo\nversion: 1.0.0\nlibrary: x.so\noperations:\n"
        "  - {id: demo.values, path: /v1/demo, price: 1, scope: demo}\n"
        "  - {id: demo.one, path: \"/v1/demo/{id}\", price: 1, scope: demo}\n"
        "datasets:\n  - {id: demo.files, provider: demo}\n"
        "  - {id: demo.totals, provider: lastro, derived_from: [demo.files]}\n";
    DemoPlugin plugin;
    const ::testing::AssertionResult result = RegistrationsMatchManifest(plugin, Manifest(text));
    ASSERT_FALSE(result);
    EXPECT_THAT(result.message(),
                HasSubstr("a sample writer is registered, but no dataset declares sample:"));
}

TEST_F(RegistrationsTest, AManifestWithoutNameOrIdIsRefusedNamingTheFile) {
    const auto path = Manifest("version: 1.0.0\n");
    try {
        ReadManifestDeclarations(path);
        FAIL() << "expected an error";
    } catch (const std::runtime_error& e) {
        EXPECT_THAT(e.what(), HasSubstr(path.string() + ": name is missing"));
    }
    EXPECT_THROW(ReadManifestDeclarations(Manifest("name: demo\noperations:\n  - {path: /v1/x}\n")),
                 std::runtime_error);
    EXPECT_THROW(ReadManifestDeclarations(dir_.Path() / "absent.yaml"), std::runtime_error);
}

}  // namespace
}  // namespace lastro::sdk::testing
