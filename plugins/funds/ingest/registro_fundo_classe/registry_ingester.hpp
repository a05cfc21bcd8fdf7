// Ingester of CVM's RCVM 175 registry (dataset cvm.registro_fundo_classe): funds, classes and
// subclasses, a full snapshot applied in place (docs/api/registry.md).
#pragma once

#include <lastro/sdk/plugin.hpp>

namespace lastro::funds {

class RegistryIngester : public sdk::Ingester {
public:
    sdk::IngestSummary Run(const sdk::IngestContext& context) override;
};

}  // namespace lastro::funds
