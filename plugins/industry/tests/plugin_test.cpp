#include "src/plugin.hpp"

#include <lastro/sdk/testing/registrations.hpp>

#include <gtest/gtest.h>

namespace lastro::industry {
namespace {

TEST(IndustryPlugin, RegistersWhatTheManifestDeclares) {
    IndustryPlugin plugin;
    EXPECT_TRUE(sdk::testing::RegistrationsMatchManifest(
        plugin, std::string(LASTRO_SOURCE_DIR) + "/plugins/industry/manifest.yaml"));
}

}  // namespace
}  // namespace lastro::industry
