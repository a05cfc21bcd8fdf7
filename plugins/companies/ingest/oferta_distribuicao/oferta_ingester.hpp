// cvm.oferta_distribuicao: CVM's public offerings (oferta_distribuicao.zip, its legacy and RCVM 160
// members), a full snapshot each time; its CRI and CRA offerings applied as a diff by regime and
// key (docs/datasets/oferta_distribuicao.md).
#pragma once

#include <lastro/sdk/plugin.hpp>

namespace lastro::companies {

class OfertaIngester : public sdk::Ingester {
public:
    sdk::IngestSummary Run(const sdk::IngestContext& context) override;
};

}  // namespace lastro::companies
