// cvm.cad_fi_hist (docs/datasets/cad_fi_hist.md): CVM's legacy fund registry history,
// cad_fi_hist.zip, and the published columns of the members this plugin reads or writes, in file
// order. Shared by the ingester, the sample writer and the tests.
#pragma once

#include <array>
#include <string_view>

namespace lastro::industry {

inline constexpr std::string_view kManagerHistoryDataset = "cvm.cad_fi_hist";
inline constexpr std::string_view kHistoryZipName = "cad_fi_hist.zip";

// The 19 members of cad_fi_hist.zip, one change-log per attribute of the legacy registry, as CVM
// names them. Only cad_fi_hist_gestor.csv is read; the others are ignored, in the zip or loose.
inline constexpr std::array<std::string_view, 19> kHistoryMembers{
    "cad_fi_hist_admin.csv",        "cad_fi_hist_auditor.csv",      "cad_fi_hist_classe.csv",
    "cad_fi_hist_condom.csv",       "cad_fi_hist_controlador.csv",  "cad_fi_hist_custodiante.csv",
    "cad_fi_hist_denom_comerc.csv", "cad_fi_hist_denom_social.csv", "cad_fi_hist_diretor_resp.csv",
    "cad_fi_hist_exclusivo.csv",    "cad_fi_hist_exerc_social.csv", "cad_fi_hist_fic.csv",
    "cad_fi_hist_gestor.csv",       "cad_fi_hist_publico_alvo.csv", "cad_fi_hist_rentab.csv",
    "cad_fi_hist_sit.csv",          "cad_fi_hist_taxa_adm.csv",     "cad_fi_hist_taxa_perfm.csv",
    "cad_fi_hist_trib_lprazo.csv"};

// The manager spells: one manager of one fund over a span of dates.
inline constexpr std::string_view kManagerFileName = "cad_fi_hist_gestor.csv";
inline constexpr std::array<std::string_view, 7> kManagerColumns{
    "CNPJ_FUNDO", "DT_REG", "PF_PJ_GESTOR", "CPF_CNPJ_GESTOR", "GESTOR", "DT_INI_GESTOR", "DT_FIM_GESTOR"};

// Members the sample writes beside it, which the ingester must ignore.
inline constexpr std::string_view kAdministratorFileName = "cad_fi_hist_admin.csv";
inline constexpr std::array<std::string_view, 6> kAdministratorColumns{
    "CNPJ_FUNDO", "DT_REG", "CNPJ_ADMIN", "ADMIN", "DT_INI_ADMIN", "DT_FIM_ADMIN"};
inline constexpr std::string_view kNameFileName = "cad_fi_hist_denom_social.csv";
inline constexpr std::array<std::string_view, 5> kNameColumns{"CNPJ_FUNDO", "DT_REG", "DENOM_SOCIAL",
                                                              "DT_INI_DENOM_SOCIAL", "DT_FIM_DENOM_SOCIAL"};
inline constexpr std::string_view kSituationFileName = "cad_fi_hist_sit.csv";
inline constexpr std::array<std::string_view, 5> kSituationColumns{"CNPJ_FUNDO", "DT_REG", "SIT",
                                                                   "DT_INI_SIT", "DT_FIM_SIT"};

}  // namespace lastro::industry
