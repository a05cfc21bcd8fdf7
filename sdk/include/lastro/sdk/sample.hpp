// Sample data for `lastro sample` (docs/sample-data.md): a plugin that declares `sample:` on its
// datasets registers one SampleWriter, which writes invented files in the datasets' real
// formats. The same seed and scale give the same bytes. The generic parts a writer needs
// (seeded streams, CSV tables, exact money, zip members) are in <lastro/sdk/sample/...>.
#pragma once

#include <boost/config.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::sdk {

enum class SampleScale {
    kSample,  // small and complete: what `./dev run` and the tests ingest
    kFull,    // the size of the real files, for benchmarks; a plugin may write fewer datasets
};

// "sample" | "full", as the manifest and the command line write them.
inline std::string_view SampleScaleName(SampleScale scale) {
    return scale == SampleScale::kFull ? "full" : "sample";
}
inline std::optional<SampleScale> ParseSampleScale(std::string_view text) {
    if (text == "sample") {
        return SampleScale::kSample;
    }
    if (text == "full") {
        return SampleScale::kFull;
    }
    return std::nullopt;
}

inline constexpr std::uint64_t kDefaultSampleSeed = 20261014;

// `lastro sample --months N` takes 1 to this many months.
inline constexpr int kMaxSampleMonths = 240;

struct BOOST_SYMBOL_VISIBLE SampleRequest {
    std::filesystem::path out_dir;  // created by the host before the writer runs
    std::uint64_t seed = kDefaultSampleSeed;
    SampleScale scale = SampleScale::kSample;
    // How many months of history ending at the reference month the monthly datasets cover;
    // nullopt: the plugin's default. A writer without monthly datasets ignores it.
    std::optional<int> months = std::nullopt;
};

// A named count `lastro sample` prints, e.g. {"funds", 300} as "300 funds".
struct BOOST_SYMBOL_VISIBLE SampleCount {
    std::string name;
    std::size_t count = 0;
};

struct BOOST_SYMBOL_VISIBLE SampleReport {
    std::vector<std::filesystem::path> files;  // every file written, in writing order
    std::vector<SampleCount> counts;           // in the order to print
    std::vector<std::string> notes;            // one line each, printed after the counts
};

class BOOST_SYMBOL_VISIBLE SampleWriter {
public:
    virtual ~SampleWriter() = default;
    // (Over)writes the plugin's sample files of `request.scale` into `request.out_dir`. The
    // host then checks that every dataset declaring that scale got a file matching its
    // patterns. Throws std::runtime_error naming the path on I/O failure.
    virtual SampleReport Write(const SampleRequest& request) = 0;
};

}  // namespace lastro::sdk
