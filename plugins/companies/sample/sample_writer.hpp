// The companies plugin's sample (docs/sample.md): CVM's registry of listed companies as two
// snapshots, an earlier one (cad_cia_aberta_2026-07-31.csv) and the current one
// (cad_cia_aberta.csv), which cancels a company, renames another and adds a third; and the IPE
// document index of 2025 and 2026 for the same companies.
#pragma once

#include <lastro/sdk/sample.hpp>

namespace lastro::companies {

class CompaniesSampleWriter : public sdk::SampleWriter {
public:
    sdk::SampleReport Write(const sdk::SampleRequest& request) override;
};

}  // namespace lastro::companies
