// cvm.registro_fundo_classe (docs/datasets/registro_fundo_classe.md, FORMATS 2.1): the files of
// registro_fundo_classe.zip and their published columns, in file order.
#pragma once

#include "layouts/columns.hpp"

#include <array>
#include <string_view>

namespace lastro::funds {

inline constexpr std::string_view kRegistryZipName = "registro_fundo_classe.zip";
inline constexpr std::string_view kFundFileName = "registro_fundo.csv";
inline constexpr std::string_view kClassFileName = "registro_classe.csv";
inline constexpr std::string_view kSubclassFileName = "registro_subclasse.csv";

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

}  // namespace lastro::funds
