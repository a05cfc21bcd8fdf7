// `lastro sample`: writes the deterministic sample of the public files, in their real formats,
// into a directory (docs/sample-data.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <ctime>
#include <filesystem>
#include <vector>

namespace lastro::sample {

inline constexpr std::uint64_t kDefaultSeed = 20261014;

struct SampleOptions {
    std::filesystem::path out_dir;
    std::uint64_t seed = kDefaultSeed;
};

struct SampleReport {
    std::size_t funds = 0;  // distinct funds; the registry has one more row (a superseded registration)
    std::size_t classes = 0;
    std::size_t subclasses = 0;
    std::vector<std::filesystem::path> files;  // every file written, in writing order
};

// Creates out_dir when needed and (over)writes registro_fundo.csv, registro_classe.csv,
// registro_subclasse.csv and registro_fundo_classe.zip. The same seed gives the same bytes.
// Throws std::runtime_error naming the path on I/O failure.
SampleReport WriteSample(const SampleOptions& options);

// The modification time stamped on every zip member: a fixed wall-clock time on the reference
// day derived from the seed. Zip stores local wall-clock time, so this is that time in the
// process's time zone, which keeps the archive's bytes independent of the time zone.
std::time_t ArchiveTimestamp(std::uint64_t seed);

}  // namespace lastro::sample
