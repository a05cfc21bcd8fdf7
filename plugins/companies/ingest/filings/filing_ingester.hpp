// cvm.fre_cia_aberta and cvm.fca_cia_aberta: CVM's yearly zips of a structured form
// (fre_cia_aberta_YYYY.zip), an index member and one member per table of the form, whatever
// tables that year's form has. Each year given replaces the stored year: its index into the
// documents (kind "fre" or "fca"), its rows as a diff by (table, document, place), and its
// catalog of tables and columns (docs/datasets/fre_cia_aberta.md).
#pragma once

#include "domain/filings/filing_rules.hpp"

#include <lastro/sdk/plugin.hpp>

namespace lastro::companies {

class FilingIngester : public sdk::Ingester {
public:
    explicit FilingIngester(const FilingKind& kind) : kind_(kind) {}
    sdk::IngestSummary Run(const sdk::IngestContext& context) override;

private:
    FilingKind kind_;
};

}  // namespace lastro::companies
