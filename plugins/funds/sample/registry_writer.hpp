// Renders the universe as CVM's RCVM 175 registry (FORMATS.md §2.1): registro_fundo.csv,
// registro_classe.csv and registro_subclasse.csv, the members of registro_fundo_classe.zip.
#pragma once

#include "layouts/registro_fundo_classe.hpp"
#include "sample/universe.hpp"

#include <lastro/funds/sample_universe.hpp>

#include <string>
#include <vector>

namespace lastro::funds::sample {

// Each file's bytes: ISO-8859-1, ';', unquoted, LF, header first.
struct RegistryFiles {
    std::string funds;
    std::string classes;
    std::string subclasses;
};

// Rows are in id order. A superseded registration follows the live row that shares its
// ID_Registro_Fundo, so an ingester that lets the last row win gets it wrong.
RegistryFiles RenderRegistry(const Universe& universe);

// The funds of registro_fundo.csv as RenderRegistry writes them, their rows merged by CNPJ the
// way the funds plugin ranks them (lastro::funds::SampleFund), in CNPJ order: what the sample
// universe hands to the sample writers of the plugins that require funds.
std::vector<SampleFund> RegistryFunds(const Universe& universe);

}  // namespace lastro::funds::sample
