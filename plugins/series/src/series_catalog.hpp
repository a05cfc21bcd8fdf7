// The series this plugin serves: one per `bcb.sgs.<code>` dataset of its manifest, read when
// it registers. An unknown code is answered with the list of served ones.
#pragma once

#include "domain/series_spec.hpp"

#include <lastro/sdk/plugin.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::series {

// The funds' daily reports: a dataset of this plugin's code, not an SGS series of the manifest.
inline constexpr std::string_view kInfDiarioDataset = "cvm.inf_diario_fi";

class SeriesCatalog {
public:
    // Throws std::invalid_argument naming the dataset for a malformed one, or for a dataset of
    // this plugin that is not an SGS series.
    explicit SeriesCatalog(const std::vector<sdk::DeclaredDataset>& declared);

    const std::map<std::int64_t, SeriesSpec>& All() const { return specs_; }
    std::vector<SeriesSpec> Specs() const;
    const SeriesSpec* Find(std::int64_t code) const;
    // sdk::NotFound naming `parameter` and the served codes ("11, 12, 432, 433").
    const SeriesSpec& Require(std::int64_t code, const std::string& parameter) const;
    std::string ServedCodes() const;

private:
    std::map<std::int64_t, SeriesSpec> specs_;
};

}  // namespace lastro::series
