// The industry plugin's sample (docs/sample.md): cad_fi_hist.zip, the legacy manager history of
// the FIDC-family funds of the fund registry the funds plugin's writer has just written into the
// same directory (`lastro sample` runs funds first: industry requires it).
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
};

// Reads out_dir/registro_fundo_classe.zip and (over)writes out_dir/cad_fi_hist.zip, stamped with
// the SDK's archive time of the registry's day. The same seed and registry give the same bytes.
// Throws std::runtime_error naming the registry zip when it is missing or unreadable, and naming
// the path on I/O failure.
WrittenHistory WriteManagerHistory(const sdk::SampleRequest& request);

class IndustrySampleWriter : public sdk::SampleWriter {
public:
    sdk::SampleReport Write(const sdk::SampleRequest& request) override;
};

}  // namespace lastro::industry::sample
