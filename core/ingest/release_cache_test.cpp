// The generation rules of what the host remembers between calls: releases (ReleaseCache) and
// what handlers keep (KeptData, sdk::Remembered). End to end, with ingests between calls:
// tests/lifecycle_test.cpp.
#include "core/ingest/release_cache.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace lastro::ingest {
namespace {

std::shared_ptr<const void> Text(const std::string& text) {
    return std::make_shared<const std::string>(text);
}

std::string Read(const std::optional<std::shared_ptr<const void>>& value) {
    return value ? *std::static_pointer_cast<const std::string>(*value) : "(none)";
}

TEST(KeptDataTest, AValueIsFoundOnlyAtTheGenerationItWasKeptAt) {
    KeptData kept;
    EXPECT_EQ(Read(kept.Find("funds.months", 7)), "(none)");
    kept.Store("funds.months", 7, Text("at 7"));
    EXPECT_EQ(Read(kept.Find("funds.months", 7)), "at 7");
    EXPECT_EQ(Read(kept.Find("funds.months", 6)), "(none)");
    EXPECT_EQ(Read(kept.Find("funds.months", 8)), "(none)");
    EXPECT_EQ(Read(kept.Find("industry.months", 7)), "(none)");
}

TEST(KeptDataTest, ANewerGenerationForgetsEverythingOlder) {
    KeptData kept;
    kept.Store("funds.months", 7, Text("funds at 7"));
    kept.Store("industry.months", 7, Text("industry at 7"));
    kept.Store("funds.months", 9, Text("funds at 9"));
    EXPECT_EQ(Read(kept.Find("funds.months", 9)), "funds at 9");
    EXPECT_EQ(Read(kept.Find("industry.months", 9)), "(none)");
    EXPECT_EQ(Read(kept.Find("industry.months", 7)), "(none)") << "generation 7 is gone";
}

TEST(KeptDataTest, ACallOfAnOlderGenerationKeepsNothing) {
    KeptData kept;
    kept.Store("funds.months", 9, Text("at 9"));
    kept.Store("funds.months", 8, Text("at 8"));  // a call that began before the ingest of 9
    EXPECT_EQ(Read(kept.Find("funds.months", 9)), "at 9");
    EXPECT_EQ(Read(kept.Find("funds.months", 8)), "(none)");
    kept.Store("funds.months", 9, Text("again at 9"));
    EXPECT_EQ(Read(kept.Find("funds.months", 9)), "again at 9");
}

TEST(ReleaseCacheTest, ARemovedOrAbsentReleaseIsRememberedAsNone) {
    ReleaseCache cache;
    EXPECT_FALSE(cache.Find("cvm.cda_fi", 3).has_value());
    cache.Store("cvm.cda_fi", 3, std::nullopt);
    ASSERT_TRUE(cache.Find("cvm.cda_fi", 3).has_value());
    EXPECT_FALSE(cache.Find("cvm.cda_fi", 3)->has_value());
    cache.Store("cvm.cda_fi", 4,
                sdk::Release{"cvm.cda_fi", "cda-2026-08", "2026-08", "2026-09-01T00:00:00Z"});
    EXPECT_FALSE(cache.Find("cvm.cda_fi", 3).has_value()) << "generation 3 is gone";
    ASSERT_TRUE(cache.Find("cvm.cda_fi", 4).has_value());
    EXPECT_EQ((*cache.Find("cvm.cda_fi", 4))->label, "cda-2026-08");
}

}  // namespace
}  // namespace lastro::ingest
