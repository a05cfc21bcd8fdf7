// b3.cotahist (docs/datasets/cotahist.md): B3's COTAHIST files, yearly, monthly or daily, zipped
// or not, in any order and any mix. Each file's cash-market lines are staged and its days replace
// the stored days whole (a day given again, in another edition, is the same day re-published);
// the rest of the file is counted by market type and left out. The trailer's record count is
// checked: a mismatch is reported in the summary, naming both counts, and what the file holds is
// kept.
#pragma once

#include <lastro/sdk/plugin.hpp>

#include <string_view>

namespace lastro::stocks {

inline constexpr std::string_view kCotahistDataset = "b3.cotahist";

class CotahistIngester : public sdk::Ingester {
public:
    sdk::IngestSummary Run(const sdk::IngestContext& context) override;
};

}  // namespace lastro::stocks
