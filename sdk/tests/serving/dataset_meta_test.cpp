#include <lastro/sdk/serving/dataset_meta.hpp>

#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace lastro::sdk {
namespace {

// Releases by dataset, and every dataset asked for.
class RecordingHost : public Host {
public:
    std::map<std::string, Release> releases;
    mutable std::vector<std::string> asked;

    std::optional<Release> LatestRelease(const std::string& dataset) const override {
        asked.push_back(dataset);
        auto it = releases.find(dataset);
        if (it == releases.end()) {
            return std::nullopt;
        }
        return it->second;
    }
};

TEST(DatasetMeta, SourcesOfEveryDatasetAndTheReleaseOfTheFirst) {
    RecordingHost host;
    host.releases["cvm.cda_fi"] = {"cvm.cda_fi", "cda-2025-05", "2025-05-31", "2025-06-10T03:00:00Z"};
    host.releases["cvm.registro_fundo_classe"] = {"cvm.registro_fundo_classe", "registro-2025-06-09",
                                                  "2025-06-09", "2025-06-10T03:00:00Z"};
    const Meta meta = DatasetMeta(host, {"cvm.cda_fi", "cvm.registro_fundo_classe", "anbima.subclasses"});
    ASSERT_EQ(meta.sources.size(), 3u);
    EXPECT_EQ(meta.sources[0].provider, "cvm");
    EXPECT_EQ(meta.sources[0].dataset, "cda_fi");
    EXPECT_EQ(meta.sources[1].dataset, "registro_fundo_classe");
    EXPECT_EQ(meta.sources[2].provider, "anbima");
    EXPECT_EQ(meta.sources[2].dataset, "subclasses");
    EXPECT_EQ(meta.data_release, "cda-2025-05");
    EXPECT_EQ(meta.as_of, "2025-05-31");
    EXPECT_EQ(host.asked, std::vector<std::string>{"cvm.cda_fi"});
    EXPECT_FALSE(meta.next_position.has_value());
    EXPECT_TRUE(meta.extra.empty());
}

TEST(DatasetMeta, NullReleaseUntilTheDatasetIsIngested) {
    RecordingHost host;
    host.releases["cvm.registro_fundo_classe"] = {"cvm.registro_fundo_classe", "registro", "2025-06-09", ""};
    const Meta meta = DatasetMeta(host, {"cvm.inf_mensal_fidc", "cvm.registro_fundo_classe"});
    EXPECT_FALSE(meta.data_release.has_value());
    EXPECT_FALSE(meta.as_of.has_value());
    EXPECT_EQ(meta.sources.size(), 2u);
}

TEST(DatasetMeta, AReleaseWithoutADateHasANullAsOf) {
    RecordingHost host;
    host.releases["bcb.sgs"] = {"bcb.sgs", "sgs-2025-06-10", std::nullopt, "2025-06-10T03:00:00Z"};
    const Meta meta = DatasetMeta(host, {"bcb.sgs"});
    EXPECT_EQ(meta.data_release, "sgs-2025-06-10");
    EXPECT_FALSE(meta.as_of.has_value());
}

TEST(DatasetMeta, KeepsEverythingAfterTheFirstDotAsTheDataset) {
    RecordingHost host;
    const Meta meta = DatasetMeta(host, {"b3.cotahist.daily"});
    ASSERT_EQ(meta.sources.size(), 1u);
    EXPECT_EQ(meta.sources[0].provider, "b3");
    EXPECT_EQ(meta.sources[0].dataset, "cotahist.daily");
}

TEST(DatasetMeta, RefusesAnIdThatIsNotProviderDotDataset) {
    RecordingHost host;
    for (const char* bad : {"registro", ".registro", "cvm.", ""}) {
        EXPECT_THROW(DatasetMeta(host, {bad}), std::invalid_argument) << bad;
    }
    EXPECT_THROW(DatasetMeta(host, {}), std::invalid_argument);
}

}  // namespace
}  // namespace lastro::sdk
