// cvm.cad_cia_aberta: CVM's registry of listed companies, a full snapshot each time, applied as a
// diff by CVM code (docs/datasets/cad_cia_aberta.md).
#pragma once

#include <lastro/sdk/plugin.hpp>

namespace lastro::companies {

class RegistryIngester : public sdk::Ingester {
public:
    sdk::IngestSummary Run(const sdk::IngestContext& context) override;
};

}  // namespace lastro::companies
