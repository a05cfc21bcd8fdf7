// The sample universe the `good` test plugin's writer publishes (sample_plugin.cpp built as
// universe_provider_plugin) and the `reader` test plugin's writer reads
// (universe_reader_plugin.cpp): a universe header as a provider exports it (sdk/sample.hpp).
// Its identity is generated from this file at build time; the stale reader pretends to have
// been built from another version, the misnamed provider to publish another plugin's name.
#pragma once

#include <lastro/sdk/sample.hpp>

#include <things_universe_identity.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::test_plugins {

class BOOST_SYMBOL_VISIBLE ThingsUniverse final : public sdk::SampleUniverseOf<ThingsUniverse> {
public:
#ifdef LASTRO_TEST_MISNAMED_UNIVERSE
    static constexpr std::string_view kUniverseName = "elsewhere.things";
#else
    static constexpr std::string_view kUniverseName = "good.things";
#endif
#ifdef LASTRO_TEST_STALE_UNIVERSE
    static constexpr std::string_view kUniverseIdentity = "00000000deadbeef";
#else
    static constexpr std::string_view kUniverseIdentity = kThingsUniverseIdentity;
#endif

    std::uint64_t seed = 0;
    std::vector<std::string> files;  // the names of the files the writer wrote, in order
};

}  // namespace lastro::test_plugins
