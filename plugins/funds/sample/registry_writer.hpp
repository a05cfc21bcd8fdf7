// Renders the universe as CVM's RCVM 175 registry (FORMATS.md §2.1): registro_fundo.csv,
// registro_classe.csv and registro_subclasse.csv, the members of registro_fundo_classe.zip.
#pragma once

#include "sample/universe.hpp"

#include <array>
#include <string>
#include <string_view>

namespace lastro::funds::sample {

inline constexpr std::string_view kFundFileName = "registro_fundo.csv";
inline constexpr std::string_view kClassFileName = "registro_classe.csv";
inline constexpr std::string_view kSubclassFileName = "registro_subclasse.csv";
inline constexpr std::string_view kRegistryZipName = "registro_fundo_classe.zip";

// The real column names in the real order.
inline constexpr std::array<std::string_view, 21> kFundColumns{"ID_Registro_Fundo",
                                                               "CNPJ_Fundo",
                                                               "Codigo_CVM",
                                                               "Data_Registro",
                                                               "Data_Constituicao",
                                                               "Tipo_Fundo",
                                                               "Denominacao_Social",
                                                               "Data_Cancelamento",
                                                               "Situacao",
                                                               "Data_Inicio_Situacao",
                                                               "Data_Adaptacao_RCVM175",
                                                               "Data_Inicio_Exercicio_Social",
                                                               "Data_Fim_Exercicio_Social",
                                                               "Patrimonio_Liquido",
                                                               "Data_Patrimonio_Liquido",
                                                               "Diretor",
                                                               "CNPJ_Administrador",
                                                               "Administrador",
                                                               "Tipo_Pessoa_Gestor",
                                                               "CPF_CNPJ_Gestor",
                                                               "Gestor"};

inline constexpr std::array<std::string_view, 30> kClassColumns{"ID_Registro_Fundo",
                                                                "ID_Registro_Classe",
                                                                "CNPJ_Classe",
                                                                "Codigo_CVM",
                                                                "Data_Registro",
                                                                "Data_Constituicao",
                                                                "Data_Inicio",
                                                                "Tipo_Classe",
                                                                "Denominacao_Social",
                                                                "Situacao",
                                                                "Data_Inicio_Situacao",
                                                                "Classificacao",
                                                                "Indicador_Desempenho",
                                                                "Classe_Cotas",
                                                                "Classificacao_Anbima",
                                                                "Tributacao_Longo_Prazo",
                                                                "Entidade_Investimento",
                                                                "Permitido_Aplicacao_CemPorCento_Exterior",
                                                                "Classe_ESG",
                                                                "Forma_Condominio",
                                                                "Exclusivo",
                                                                "Publico_Alvo",
                                                                "Patrimonio_Liquido",
                                                                "Data_Patrimonio_Liquido",
                                                                "CNPJ_Auditor",
                                                                "Auditor",
                                                                "CNPJ_Custodiante",
                                                                "Custodiante",
                                                                "CNPJ_Controlador",
                                                                "Controlador"};

inline constexpr std::array<std::string_view, 14> kSubclassColumns{
    "ID_Registro_Classe", "ID_Subclasse",
    "Codigo_CVM",         "Data_Constituicao",
    "Data_Inicio",        "Denominacao_Social",
    "Situacao",           "Data_Inicio_Situacao",
    "Forma_Condominio",   "Exclusivo",
    "Publico_Alvo",       "Previdenciario",
    "Exclusivo_INR",      "Exclusivo_Previdencia_Complementar"};

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
