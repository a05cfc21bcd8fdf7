// Ingester of CVM's legacy registry history (dataset cvm.cad_fi_hist, cad_fi_hist.zip): the dated
// manager spells of cad_fi_hist_gestor.csv, a full snapshot applied in place to ManagerSpell
// (docs/datasets/cad_fi_hist.md). The zip's 18 other members are ignored.
#pragma once

#include <lastro/sdk/plugin.hpp>

namespace lastro::industry {

class ManagerHistoryIngester : public sdk::Ingester {
public:
    sdk::IngestSummary Run(const sdk::IngestContext& context) override;
};

}  // namespace lastro::industry
