// The industry plugin's sample (docs/sample.md): cad_fi_hist.zip, the legacy manager history of
// the FIDC-family funds of the fund registry the funds plugin's writer has just written, read from
// the sample universe it publishes (`lastro sample` runs funds first and passes it on: industry
// requires funds).
#pragma once

#include "sample/manager_history.hpp"

#include <lastro/sdk/sample.hpp>

#include <array>
#include <filesystem>
#include <vector>

namespace lastro::industry::sample {

// The scales the manifest declares for cvm.cad_fi_hist (`sample: {files: [cad_fi_hist.zip]}`:
// sample only). At another scale the writer writes nothing (a test keeps the two equal).
inline constexpr std::array<sdk::SampleScale, 1> kManagerHistoryScales{sdk::SampleScale::kSample};

struct WrittenHistory {
    std::vector<std::filesystem::path> files;  // empty at a scale the dataset does not declare
    ManagerHistory history;
    sdk::Month first_report_month;  // of the funds sample's FIDC reports
    sdk::Month last_report_month;
};

// (Over)writes out_dir/cad_fi_hist.zip from the funds sample's universe
// (request.Get<funds::SampleUniverse>()), stamped with the SDK's archive time of the registry's
// day. The same seed and universe give the same bytes. Throws sdk::SampleUniverseError when the
// request carries no funds universe (or one of another version of its header), and
// std::runtime_error naming the path on I/O failure.
WrittenHistory WriteManagerHistory(const sdk::SampleRequest& request);

class IndustrySampleWriter : public sdk::SampleWriter {
public:
    sdk::SampleReport Write(const sdk::SampleRequest& request) override;
};

}  // namespace lastro::industry::sample
