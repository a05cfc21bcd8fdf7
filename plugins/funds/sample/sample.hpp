// The funds plugin's sample (docs/sample.md): the fund registry, the FIDC monthly reports,
// the CDA portfolios, the documents and the ANBIMA subclasses, invented, in their real formats.
#pragma once

#include <lastro/sdk/sample.hpp>

#include <cstddef>
#include <cstdint>
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

namespace lastro::funds::sample {

inline constexpr std::uint64_t kDefaultSeed = sdk::kDefaultSampleSeed;

// What WriteSample wrote. kSample: 300 funds; 24 months of FIDC reports, 6 of CDA, two years of
// documents, ANBIMA. kFull: about 3,000 reporting FIDC classes: the registry and 2026-08's FIDC
// report only.
struct WrittenSample {
    std::size_t funds = 0;  // distinct funds; the registry has one more row (a superseded registration)
    std::size_t classes = 0;
    std::size_t subclasses = 0;
    std::size_t fidc_reports = 0;              // class-months filed in the FIDC monthly reports
    std::size_t cda_positions = 0;             // BLC_1..BLC_8 rows over every CDA month
    std::size_t documents = 0;                 // eventual_fi rows over both years
    std::size_t anbima_rows = 0;               // anbima_subclasses.csv rows
    std::vector<std::filesystem::path> files;  // every file written, in writing order
    // The deliberate irregularities of the FIDC reports, "CNPJ month: what" (docs/sample.md).
    std::vector<std::string> irregularities;
};

// Creates out_dir when needed and (over)writes every file of the chosen scale: the registry
// (registro_fundo.csv, registro_classe.csv, registro_subclasse.csv, registro_fundo_classe.zip),
// then the FIDC monthly reports, and for kSample the CDA zips, the documents and the ANBIMA
// subclasses. The same seed and scale give the same bytes. Throws std::runtime_error naming the
// path on I/O failure.
WrittenSample WriteSample(const sdk::SampleRequest& request);

// The modification time stamped on every zip member (sdk::sample::ArchiveTimestamp of the
// reference day).
std::time_t ArchiveTimestamp(std::uint64_t seed);

// The plugin's sdk::SampleWriter: WriteSample with the counts `lastro sample` prints.
class FundsSampleWriter : public sdk::SampleWriter {
public:
    sdk::SampleReport Write(const sdk::SampleRequest& request) override;
};

}  // namespace lastro::funds::sample
