// Renders the universe as CVM's RCVM 175 registry (FORMATS.md §2.1): registro_fundo.csv,
// registro_classe.csv and registro_subclasse.csv, the members of registro_fundo_classe.zip.
#pragma once

#include "layouts/registro_fundo_classe.hpp"
#include "sample/universe.hpp"

#include <string>

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

}  // namespace lastro::funds::sample
