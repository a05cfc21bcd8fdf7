// The funds plugin's sample (docs/sample.md): the fund registry, the FIDC monthly reports,
// the CDA portfolios, the documents and the ANBIMA subclasses, invented, in their real formats.
#pragma once

#include <lastro/funds/sample_universe.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/sample.hpp>

#include <cstddef>
#include <cstdint>
#include <ctime>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace lastro::funds::sample {

inline constexpr std::uint64_t kDefaultSeed = sdk::kDefaultSampleSeed;

// How many months of FIDC monthly reports `--scale full` writes unless asked (the last one: the
// size of one real monthly zip, for the benchmarks).
inline constexpr int kDefaultFullMonths = 1;

// What WriteSample wrote. kSample: 300 funds; 36 months of FIDC reports (SampleRequest::months),
// 6 of CDA, two years of documents, ANBIMA. kFull: about 3,000 reporting FIDC classes: the
// registry, the FIDC reports of the last month (or of SampleRequest::months), the CDA of the
// months 2026-03 .. 2026-08 they cover with the real file's other holders, the documents of every
// year they cover (2025 at the latest) and the ANBIMA subclasses, all of the full-size universe.
struct WrittenSample {
    std::size_t funds = 0;  // distinct funds; the registry has one more row (a superseded registration)
    std::size_t classes = 0;
    std::size_t subclasses = 0;
    std::size_t fidc_reports = 0;              // class-months filed in the FIDC monthly reports
    std::size_t fidc_fund_reports = 0;         // fund-level reports filed beside their classes'
    int months = 0;                            // months of FIDC monthly reports, ending 2026-08
    sdk::Month first_month;                    // the first of them
    std::size_t cda_positions = 0;             // BLC_1..BLC_8 rows over every CDA month
    std::size_t documents = 0;                 // eventual_fi rows over every year
    std::size_t anbima_rows = 0;               // anbima_subclasses.csv rows
    std::vector<std::filesystem::path> files;  // every file written, in writing order
    // The deliberate irregularities of the FIDC reports, "CNPJ month: what" (docs/sample.md).
    std::vector<std::string> irregularities;
    // What the plugins that require funds build their samples on: the registry's funds as
    // written, merged by CNPJ, its day and the FIDC reports' months (SampleReport::universe).
    std::shared_ptr<const SampleUniverse> universe;
};

// Creates out_dir when needed and (over)writes every file of the chosen scale: the registry
// (registro_fundo.csv, registro_classe.csv, registro_subclasse.csv, registro_fundo_classe.zip),
// then the FIDC monthly reports of the `months` months ending 2026-08 (default 36 at kSample,
// kDefaultFullMonths at kFull), the CDA zips (those of 2026-03 .. 2026-08 the months cover), the
// documents and the ANBIMA subclasses. The same seed, scale and months give
// the same bytes. Throws std::invalid_argument for months outside 1 .. 240 (before writing
// anything), std::runtime_error naming the path on I/O failure.
WrittenSample WriteSample(const sdk::SampleRequest& request);

// The modification time stamped on every zip member (sdk::sample::ArchiveTimestamp of the
// reference day).
std::time_t ArchiveTimestamp(std::uint64_t seed);

// The plugin's sdk::SampleWriter: WriteSample with the counts `lastro sample` prints, publishing
// WrittenSample::universe.
class FundsSampleWriter : public sdk::SampleWriter {
public:
    sdk::SampleReport Write(const sdk::SampleRequest& request) override;
};

}  // namespace lastro::funds::sample
