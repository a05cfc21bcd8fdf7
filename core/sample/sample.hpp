// `lastro sample`: writes the deterministic sample of the public files, in their real formats,
// into a directory (docs/sample-data.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

namespace lastro::sample {

inline constexpr std::uint64_t kDefaultSeed = 20261014;

enum class Scale {
    kSample,  // 300 funds; 24 months of FIDC reports, 6 of CDA, two years of documents, ANBIMA
    kFull,    // about 3,000 reporting FIDC classes: the registry and 2026-08's FIDC report only
};

struct SampleOptions {
    std::filesystem::path out_dir;
    std::uint64_t seed = kDefaultSeed;
    Scale scale = Scale::kSample;
};

struct SampleReport {
    std::size_t funds = 0;  // distinct funds; the registry has one more row (a superseded registration)
    std::size_t classes = 0;
    std::size_t subclasses = 0;
    std::size_t fidc_reports = 0;              // class-months filed in the FIDC monthly reports
    std::size_t cda_positions = 0;             // BLC_1..BLC_8 rows over every CDA month
    std::size_t documents = 0;                 // eventual_fi rows over both years
    std::size_t anbima_rows = 0;               // anbima_subclasses.csv rows
    std::vector<std::filesystem::path> files;  // every file written, in writing order
    // The deliberate irregularities of the FIDC reports, "CNPJ month: what" (docs/sample-data.md).
    std::vector<std::string> irregularities;
};

// Creates out_dir when needed and (over)writes every file of the chosen scale: the registry
// (registro_fundo.csv, registro_classe.csv, registro_subclasse.csv, registro_fundo_classe.zip),
// then the FIDC monthly reports, and for kSample the CDA zips, the documents and the ANBIMA
// subclasses. The same seed and scale give the same bytes. Throws std::runtime_error naming the
// path on I/O failure.
SampleReport WriteSample(const SampleOptions& options);

// The modification time stamped on every zip member: a fixed wall-clock time on the reference
// day derived from the seed. Zip stores local wall-clock time, so this is that time in the
// process's time zone, which keeps the archive's bytes independent of the time zone.
std::time_t ArchiveTimestamp(std::uint64_t seed);

}  // namespace lastro::sample
