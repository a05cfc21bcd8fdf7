// cvm.ipe_cia_aberta: CVM's yearly index of listed companies' periodic and occasional documents
// (ipe_cia_aberta_YYYY.zip); each year given replaces the stored year, as a diff by delivery
// protocol and version (docs/datasets/ipe_cia_aberta.md).
#pragma once

#include <lastro/sdk/plugin.hpp>

namespace lastro::companies {

class IpeIngester : public sdk::Ingester {
public:
    sdk::IngestSummary Run(const sdk::IngestContext& context) override;
};

}  // namespace lastro::companies
