// Ingester of ANBIMA-source subclasses (dataset anbima.subclasses) from Lastro's own interchange
// layout, anbima_subclasses.csv (docs/datasets/anbima_subclasses.md): a full snapshot applied in
// place, keyed by anbima_code.
#pragma once

#include "layouts/anbima_subclasses.hpp"

#include <lastro/sdk/plugin.hpp>

#include <string>
#include <string_view>

namespace lastro::funds {

// The exact header of anbima_subclasses.csv.
inline const std::string kAnbimaHeader = JoinColumns(kAnbimaColumns);

// UUIDv5 of "anbima:<anbima_code>" in the funds namespace: the same in every database.
std::string AnbimaSubclassIdFor(std::string_view anbima_code);

class AnbimaIngester : public sdk::Ingester {
public:
    sdk::IngestSummary Run(const sdk::IngestContext& context) override;
};

}  // namespace lastro::funds
