// The series plugin's sample (docs/sample.md): answers of the Central Bank's SGS API, exactly as
// SGS serves them (JSON, or its `formato=csv`), one file per window asked,
// bcdata.sgs.<code>_<yyyymmdd>_<yyyymmdd>.<json|csv>, for every series the manifest declares.
// One rate model drives them all (sample/sgs_model.hpp), so the series agree with each other
// the way the real ones do: SGS 12 is B3's rule applied to 4389, 4390 and 4391 compound 11 and
// 12 over the month.
#pragma once

#include "domain/series_spec.hpp"
#include "sample/inf_diario/inf_diario_sample.hpp"

#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/sample.hpp>

#include <vector>

namespace lastro::series {

// The day the sample is taken: the funds sample's reference date (plugins/funds/sample/
// universe.hpp, spelt by the default seed 20261014), so every plugin's sample describes the same
// day and the bytes do not change from one day to the next. Daily series run to the business
// day before it (SGS publishes a day's rate the next morning), monthly ones to the month before.
inline constexpr sdk::Date kSgsSampleReferenceDate{2026, 10, 14};
// Scale sample covers every series from this day (the full scale from the series' real start).
inline constexpr sdk::Date kSgsSampleFirstDay{2019, 1, 1};

class SgsSampleWriter : public sdk::SampleWriter {
public:
    // The series of the plugin's manifest. The known codes (11, 12, 432, 433, 4389, 4390, 4391)
    // get their own model when their spec is the expected one; any other series a generic model
    // of its kind, rate_per and frequency.
    explicit SgsSampleWriter(std::vector<SeriesSpec> specs);

    // Writes the files of every series into request.out_dir (the same seed and scale give the
    // same bytes; `months` is not used: the span is fixed, see docs/sample.md), first removing
    // the answers of these series an earlier run left there (other windows would be ingested
    // too). Throws std::runtime_error naming the path on I/O failure.
    sdk::SampleReport Write(const sdk::SampleRequest& request) override;

private:
    std::vector<SeriesSpec> specs_;
};

// The plugin's one sample writer: the SGS answers, then CVM's daily fund reports
// (sample/inf_diario/), their reports one after the other.
class SeriesSampleWriter : public sdk::SampleWriter {
public:
    explicit SeriesSampleWriter(std::vector<SeriesSpec> specs) : sgs_(std::move(specs)) {}

    sdk::SampleReport Write(const sdk::SampleRequest& request) override;

private:
    SgsSampleWriter sgs_;
    InfDiarioSampleWriter daily_;
};

}  // namespace lastro::series
