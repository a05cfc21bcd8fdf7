// Test support for the FIDC monthly report: the 18 tables written in CVM's real format
// (ISO-8859-1, ';', CRLF, the published headers of FORMATS Appendix A in file order), in each
// layout era of FORMATS 1.2, as monthly zips, yearly zips or loose member CSVs; and the
// ingester run inside one write transaction, as the host runs it.
#pragma once

#include "registry_fixture.hpp"

#include "ingest/fidc_report_ingester.hpp"
#include "src/class_reports.hpp"

#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/text.hpp>
#include <lastro/sdk/zip_archive.hpp>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace lastro::funds::testing {

// Which key columns the files carry (FORMATS 1.2).
enum class FidcEra {
    kFundoClasse,  // 2023-10 on: TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE everywhere, X_1 with ID_SUBCLASSE
    kMixed,        // 2020-11..2023-09: the long tables X_1..X_6 still carry CNPJ_FUNDO alone
    kCnpjFundo,    // before 2020-11: CNPJ_FUNDO everywhere, tab_I without the class columns
};

inline const std::vector<std::string> kFidcTableNames = {"I",   "II",   "III", "IV",  "V",   "VI",
                                                         "VII", "VIII", "IX",  "X",   "X_1", "X_1_1",
                                                         "X_2", "X_3",  "X_4", "X_5", "X_6", "X_7"};

// The published headers of the current layout (FORMATS Appendix A and 1.5).
inline const std::map<std::string, std::vector<std::string>>& FidcCurrentHeaders() {
    static const std::map<std::string, std::vector<std::string>> kHeaders = {
        {"I",
         {"TP_FUNDO_CLASSE",
          "CNPJ_FUNDO_CLASSE",
          "DENOM_SOCIAL",
          "DT_COMPTC",
          "CLASSE_UNICA",
          "CNPJ_ADMIN",
          "ADMIN",
          "CLASSE",
          "CNPJ_CLASSE",
          "CONDOM",
          "FUNDO_EXCLUSIVO",
          "COTST_INTERESSE",
          "PRAZO_CONVERSAO_COTA",
          "TP_PRAZO_CONVERSAO_COTA",
          "PRAZO_PAGTO_RESGATE",
          "TP_PRAZO_PAGTO_RESGATE",
          "TAB_I_VL_ATIVO",
          "TAB_I1_VL_DISP",
          "TAB_I2_VL_CARTEIRA",
          "TAB_I2A_VL_DIRCRED_RISCO",
          "TAB_I2A1_VL_CRED_VENC_AD",
          "TAB_I2A2_VL_CRED_VENC_INAD",
          "TAB_I2A21_VL_TOTAL_PARCELA_INAD",
          "TAB_I2A3_VL_CRED_INAD",
          "TAB_I2A4_VL_CRED_DIRCRED_PERFM",
          "TAB_I2A5_VL_CRED_VENCIDO_PENDENTE",
          "TAB_I2A6_VL_CRED_EMP_RECUP",
          "TAB_I2A7_VL_CRED_RECEITA_PUBLICA",
          "TAB_I2A8_VL_CRED_ACAO_JUDIC",
          "TAB_I2A9_VL_CRED_FATOR_RISCO",
          "TAB_I2A10_VL_CRED_DIVERSO",
          "TAB_I2A11_VL_REDUCAO_RECUP",
          "TAB_I2A12_CPF_CNPJ_CEDENTE_1",
          "TAB_I2A12_PR_CEDENTE_1",
          "TAB_I2A12_CPF_CNPJ_CEDENTE_2",
          "TAB_I2A12_PR_CEDENTE_2",
          "TAB_I2A12_CPF_CNPJ_CEDENTE_3",
          "TAB_I2A12_PR_CEDENTE_3",
          "TAB_I2A12_CPF_CNPJ_CEDENTE_4",
          "TAB_I2A12_PR_CEDENTE_4",
          "TAB_I2A12_CPF_CNPJ_CEDENTE_5",
          "TAB_I2A12_PR_CEDENTE_5",
          "TAB_I2A12_CPF_CNPJ_CEDENTE_6",
          "TAB_I2A12_PR_CEDENTE_6",
          "TAB_I2A12_CPF_CNPJ_CEDENTE_7",
          "TAB_I2A12_PR_CEDENTE_7",
          "TAB_I2A12_CPF_CNPJ_CEDENTE_8",
          "TAB_I2A12_PR_CEDENTE_8",
          "TAB_I2A12_CPF_CNPJ_CEDENTE_9",
          "TAB_I2A12_PR_CEDENTE_9",
          "TAB_I2B_VL_DIRCRED_SEM_RISCO",
          "TAB_I2B1_VL_CRED_VENC_AD",
          "TAB_I2B2_VL_CRED_VENC_INAD",
          "TAB_I2B21_VL_TOTAL_PARCELA_INAD",
          "TAB_I2B3_VL_CRED_INAD",
          "TAB_I2B4_VL_CRED_DIRCRED_PERFM",
          "TAB_I2B5_VL_CRED_VENCIDO_PENDENTE",
          "TAB_I2B6_VL_CRED_EMP_RECUP",
          "TAB_I2B7_VL_CRED_RECEITA_PUBLICA",
          "TAB_I2B8_VL_CRED_ACAO_JUDIC",
          "TAB_I2B9_VL_CRED_FATOR_RISCO",
          "TAB_I2B10_VL_CRED_DIVERSO",
          "TAB_I2B11_VL_REDUCAO_RECUP",
          "TAB_I2B12_CPF_CNPJ_CEDENTE_1",
          "TAB_I2B12_PR_CEDENTE_1",
          "TAB_I2B12_CPF_CNPJ_CEDENTE_2",
          "TAB_I2B12_PR_CEDENTE_2",
          "TAB_I2B12_CPF_CNPJ_CEDENTE_3",
          "TAB_I2B12_PR_CEDENTE_3",
          "TAB_I2B12_CPF_CNPJ_CEDENTE_4",
          "TAB_I2B12_PR_CEDENTE_4",
          "TAB_I2B12_CPF_CNPJ_CEDENTE_5",
          "TAB_I2B12_PR_CEDENTE_5",
          "TAB_I2B12_CPF_CNPJ_CEDENTE_6",
          "TAB_I2B12_PR_CEDENTE_6",
          "TAB_I2B12_CPF_CNPJ_CEDENTE_7",
          "TAB_I2B12_PR_CEDENTE_7",
          "TAB_I2B12_CPF_CNPJ_CEDENTE_8",
          "TAB_I2B12_PR_CEDENTE_8",
          "TAB_I2B12_CPF_CNPJ_CEDENTE_9",
          "TAB_I2B12_PR_CEDENTE_9",
          "TAB_I2C_VL_VLMOB",
          "TAB_I2C1_VL_DEBENTURE",
          "TAB_I2C2_VL_CRI",
          "TAB_I2C3_VL_NP_COMERC",
          "TAB_I2C4_VL_LETRA_FINANC",
          "TAB_I2C5_VL_COTA_FUNDO_ICVM555",
          "TAB_I2C5_VL_COTA_FIF",
          "TAB_I2C6_VL_OUTRO",
          "TAB_I2D_VL_TITPUB_FED",
          "TAB_I2E_VL_CDB",
          "TAB_I2F_VL_OPER_COMPROM",
          "TAB_I2G_VL_OUTRO_RF",
          "TAB_I2H_VL_COTA_FIDC",
          "TAB_I2I_VL_COTA_FIDC_NP",
          "TAB_I2J_VL_CONTRATO_FUTURO",
          "TAB_I2_DEBENTURE_CRI",
          "TAB_I2_COTA_FIDC",
          "TAB_I2_VL_OUTRO_ATIVO",
          "TAB_I3_VL_POSICAO_DERIV",
          "TAB_I3A_VL_MERCADO_TERMO",
          "TAB_I3B_VL_MERCADO_OPCAO",
          "TAB_I3C_VL_MERCADO_FUTURO",
          "TAB_I3D_VL_DIFER_SWAP",
          "TAB_I3E_VL_COBERTURA",
          "TAB_I3F_VL_DEPOSITO_MARGEM",
          "TAB_I4_VL_OUTRO_ATIVO",
          "TAB_I4A_VL_CPRAZO",
          "TAB_I4B_VL_LPRAZO"}},
        {"II",
         {"TP_FUNDO_CLASSE",
          "CNPJ_FUNDO_CLASSE",
          "DENOM_SOCIAL",
          "DT_COMPTC",
          "TAB_II_VL_CARTEIRA",
          "TAB_II_A_VL_INDUST",
          "TAB_II_B_VL_IMOBIL",
          "TAB_II_C_VL_COMERC",
          "TAB_II_C1_VL_COMERC",
          "TAB_II_C2_VL_VAREJO",
          "TAB_II_C3_VL_ARREND",
          "TAB_II_D_VL_SERV",
          "TAB_II_D1_VL_SERV",
          "TAB_II_D2_VL_SERV_PUBLICO",
          "TAB_II_D3_VL_SERV_EDUC",
          "TAB_II_D4_VL_ENTRET",
          "TAB_II_E_VL_AGRONEG",
          "TAB_II_F_VL_FINANC",
          "TAB_II_F1_VL_CRED_PESSOA",
          "TAB_II_F2_VL_CRED_PESSOA_CONSIG",
          "TAB_II_F3_VL_CRED_CORP",
          "TAB_II_F4_VL_MIDMARKET",
          "TAB_II_F5_VL_VEICULO",
          "TAB_II_F6_VL_IMOBIL_EMPRESA",
          "TAB_II_F7_VL_IMOBIL_RESID",
          "TAB_II_F8_VL_OUTRO",
          "TAB_II_G_VL_CREDITO",
          "TAB_II_H_VL_FACTOR",
          "TAB_II_H1_VL_PESSOA",
          "TAB_II_H2_VL_CORP",
          "TAB_II_I_VL_SETOR_PUBLICO",
          "TAB_II_I1_VL_PRECAT",
          "TAB_II_I2_VL_TRIBUT",
          "TAB_II_I3_VL_ROYALTIES",
          "TAB_II_I4_VL_OUTRO",
          "TAB_II_J_VL_JUDICIAL",
          "TAB_II_K_VL_MARCA"}},
        {"III",
         {"TP_FUNDO_CLASSE", "CNPJ_FUNDO_CLASSE", "DENOM_SOCIAL", "DT_COMPTC", "TAB_III_VL_PASSIVO",
          "TAB_III_A_VL_PAGAR", "TAB_III_A1_VL_CPRAZO", "TAB_III_A2_VL_LPRAZO", "TAB_III_B_VL_POSICAO_DERIV",
          "TAB_III_B1_VL_TERMO", "TAB_III_B2_VL_OPCAO", "TAB_III_B3_VL_FUTURO", "TAB_III_B4_VL_SWAP_PAGAR"}},
        {"IV",
         {"TP_FUNDO_CLASSE", "CNPJ_FUNDO_CLASSE", "DENOM_SOCIAL", "DT_COMPTC", "TAB_IV_A_VL_PL",
          "TAB_IV_B_VL_PL_MEDIO"}},
        {"V",
         {"TP_FUNDO_CLASSE",
          "CNPJ_FUNDO_CLASSE",
          "DENOM_SOCIAL",
          "DT_COMPTC",
          "TAB_V_A_VL_DIRCRED_PRAZO",
          "TAB_V_A1_VL_PRAZO_VENC_30",
          "TAB_V_A2_VL_PRAZO_VENC_60",
          "TAB_V_A3_VL_PRAZO_VENC_90",
          "TAB_V_A4_VL_PRAZO_VENC_120",
          "TAB_V_A5_VL_PRAZO_VENC_150",
          "TAB_V_A6_VL_PRAZO_VENC_180",
          "TAB_V_A7_VL_PRAZO_VENC_360",
          "TAB_V_A8_VL_PRAZO_VENC_720",
          "TAB_V_A9_VL_PRAZO_VENC_1080",
          "TAB_V_A10_VL_PRAZO_VENC_MAIOR_1080",
          "TAB_V_B_VL_DIRCRED_INAD",
          "TAB_V_B1_VL_INAD_30",
          "TAB_V_B2_VL_INAD_60",
          "TAB_V_B3_VL_INAD_90",
          "TAB_V_B4_VL_INAD_120",
          "TAB_V_B5_VL_INAD_150",
          "TAB_V_B6_VL_INAD_180",
          "TAB_V_B7_VL_INAD_360",
          "TAB_V_B8_VL_INAD_720",
          "TAB_V_B9_VL_INAD_1080",
          "TAB_V_B10_VL_INAD_MAIOR_1080",
          "TAB_V_C_VL_DIRCRED_ANTECIPADO",
          "TAB_V_C1_VL_ANTECIPADO_30",
          "TAB_V_C2_VL_ANTECIPADO_60",
          "TAB_V_C3_VL_ANTECIPADO_90",
          "TAB_V_C4_VL_ANTECIPADO_120",
          "TAB_V_C5_VL_ANTECIPADO_150",
          "TAB_V_C6_VL_ANTECIPADO_180",
          "TAB_V_C7_VL_ANTECIPADO_360",
          "TAB_V_C8_VL_ANTECIPADO_720",
          "TAB_V_C9_VL_ANTECIPADO_1080",
          "TAB_V_C10_VL_ANTECIPADO_MAIOR_1080"}},
        {"VI",
         {"TP_FUNDO_CLASSE",
          "CNPJ_FUNDO_CLASSE",
          "DENOM_SOCIAL",
          "DT_COMPTC",
          "TAB_VI_A_VL_DIRCRED_PRAZO",
          "TAB_VI_A1_VL_PRAZO_VENC_30",
          "TAB_VI_A2_VL_PRAZO_VENC_60",
          "TAB_VI_A3_VL_PRAZO_VENC_90",
          "TAB_VI_A4_VL_PRAZO_VENC_120",
          "TAB_VI_A5_VL_PRAZO_VENC_150",
          "TAB_VI_A6_VL_PRAZO_VENC_180",
          "TAB_VI_A7_VL_PRAZO_VENC_360",
          "TAB_VI_A8_VL_PRAZO_VENC_720",
          "TAB_VI_A9_VL_PRAZO_VENC_1080",
          "TAB_VI_A10_VL_PRAZO_VENC_MAIOR_1080",
          "TAB_VI_B_VL_DIRCRED_INAD",
          "TAB_VI_B1_VL_INAD_30",
          "TAB_VI_B2_VL_INAD_60",
          "TAB_VI_B3_VL_INAD_90",
          "TAB_VI_B4_VL_INAD_120",
          "TAB_VI_B5_VL_INAD_150",
          "TAB_VI_B6_VL_INAD_180",
          "TAB_VI_B7_VL_INAD_360",
          "TAB_VI_B8_VL_INAD_720",
          "TAB_VI_B9_VL_INAD_1080",
          "TAB_VI_B10_VL_INAD_MAIOR_1080",
          "TAB_VI_C_VL_DIRCRED_ANTECIPADO",
          "TAB_VI_C1_VL_ANTECIPADO_30",
          "TAB_VI_C2_VL_ANTECIPADO_60",
          "TAB_VI_C3_VL_ANTECIPADO_90",
          "TAB_VI_C4_VL_ANTECIPADO_120",
          "TAB_VI_C5_VL_ANTECIPADO_150",
          "TAB_VI_C6_VL_ANTECIPADO_180",
          "TAB_VI_C7_VL_ANTECIPADO_360",
          "TAB_VI_C8_VL_ANTECIPADO_720",
          "TAB_VI_C9_VL_ANTECIPADO_1080",
          "TAB_VI_C10_VL_ANTECIPADO_MAIOR_1080"}},
        {"VII",
         {"TP_FUNDO_CLASSE",
          "CNPJ_FUNDO_CLASSE",
          "DENOM_SOCIAL",
          "DT_COMPTC",
          "TAB_VII_A1_1_QT_DIRCRED_RISCO",
          "TAB_VII_A1_2_VL_DIRCRED_RISCO",
          "TAB_VII_A2_1_QT_DIRCRED_SEM_RISCO",
          "TAB_VII_A2_2_VL_DIRCRED_SEM_RISCO",
          "TAB_VII_A3_1_QT_DIRCRED_VENC_AD",
          "TAB_VII_A3_2_VL_DIRCRED_VENC_AD",
          "TAB_VII_A4_1_QT_DIRCRED_VENC_INAD",
          "TAB_VII_A4_2_VL_DIRCRED_VENC_INAD",
          "TAB_VII_A5_1_QT_DIRCRED_INAD",
          "TAB_VII_A5_2_VL_DIRCRED_INAD",
          "TAB_VII_B1_1_QT_CEDENTE",
          "TAB_VII_B1_2_VL_CEDENTE",
          "TAB_VII_B1_3_VL_CONTAB_CEDENTE",
          "TAB_VII_B2_1_QT_PREST",
          "TAB_VII_B2_2_VL_PREST",
          "TAB_VII_B2_3_VL_CONTAB_PREST",
          "TAB_VII_B3_1_QT_TERCEIRO",
          "TAB_VII_B3_2_VL_TERCEIRO",
          "TAB_VII_B3_3_VL_CONTAB_TERCEIRO",
          "TAB_VII_C_1_QT_SUBST",
          "TAB_VII_C_2_VL_SUBST",
          "TAB_VII_C_3_VL_CONTAB_SUBST",
          "TAB_VII_D_1_QT_RECOMPRA",
          "TAB_VII_D_2_VL_RECOMPRA",
          "TAB_VII_D_3_VL_CONTAB_RECOMPRA"}},
        {"VIII",
         {"TP_FUNDO_CLASSE", "CNPJ_FUNDO_CLASSE", "DENOM_SOCIAL", "DT_COMPTC", "SEQUENCIAL", "VALOR"}},
        {"IX",
         {"TP_FUNDO_CLASSE",
          "CNPJ_FUNDO_CLASSE",
          "DENOM_SOCIAL",
          "DT_COMPTC",
          "TAB_IX_A1_1_1_COMPRA_MIN",
          "TAB_IX_A1_1_2_COMPRA_MEDIA",
          "TAB_IX_A1_1_3_COMPRA_MAX",
          "TAB_IX_A1_2_1_VENDA_MIN",
          "TAB_IX_A1_2_2_VENDA_MEDIA",
          "TAB_IX_A1_2_3_VENDA_MAX",
          "TAB_IX_A2_1_1_COMPRA_MIN",
          "TAB_IX_A2_1_2_COMPRA_MEDIA",
          "TAB_IX_A2_1_3_COMPRA_MAX",
          "TAB_IX_A2_2_1_VENDA_MIN",
          "TAB_IX_A2_2_2_VENDA_MEDIA",
          "TAB_IX_A2_2_3_VENDA_MAX",
          "TAB_IX_B1_1_1_COMPRA_MIN",
          "TAB_IX_B1_1_2_COMPRA_MEDIA",
          "TAB_IX_B1_1_3_COMPRA_MAX",
          "TAB_IX_B1_2_1_VENDA_MIN",
          "TAB_IX_B1_2_2_VENDA_MEDIA",
          "TAB_IX_B1_2_3_VENDA_MAX",
          "TAB_IX_B2_1_1_COMPRA_MIN",
          "TAB_IX_B2_1_2_COMPRA_MEDIA",
          "TAB_IX_B2_1_3_COMPRA_MAX",
          "TAB_IX_B2_2_1_VENDA_MIN",
          "TAB_IX_B2_2_2_VENDA_MEDIA",
          "TAB_IX_B2_2_3_VENDA_MAX",
          "TAB_IX_C1_1_1_COMPRA_MIN",
          "TAB_IX_C1_1_2_COMPRA_MEDIA",
          "TAB_IX_C1_1_3_COMPRA_MAX",
          "TAB_IX_C1_2_1_VENDA_MIN",
          "TAB_IX_C1_2_2_VENDA_MEDIA",
          "TAB_IX_C1_2_3_VENDA_MAX",
          "TAB_IX_C2_1_1_COMPRA_MIN",
          "TAB_IX_C2_1_2_COMPRA_MEDIA",
          "TAB_IX_C2_1_3_COMPRA_MAX",
          "TAB_IX_C2_2_1_VENDA_MIN",
          "TAB_IX_C2_2_2_VENDA_MEDIA",
          "TAB_IX_C2_2_3_VENDA_MAX",
          "TAB_IX_D1_1_1_COMPRA_MIN",
          "TAB_IX_D1_1_2_COMPRA_MEDIA",
          "TAB_IX_D1_1_3_COMPRA_MAX",
          "TAB_IX_D1_2_1_VENDA_MIN",
          "TAB_IX_D1_2_2_VENDA_MEDIA",
          "TAB_IX_D1_2_3_VENDA_MAX",
          "TAB_IX_D2_1_1_COMPRA_MIN",
          "TAB_IX_D2_1_2_COMPRA_MEDIA",
          "TAB_IX_D2_1_3_COMPRA_MAX",
          "TAB_IX_D2_2_1_VENDA_MIN",
          "TAB_IX_D2_2_2_VENDA_MEDIA",
          "TAB_IX_D2_2_3_VENDA_MAX",
          "TAB_IX_E1_1_1_COMPRA_MIN",
          "TAB_IX_E1_1_2_COMPRA_MEDIA",
          "TAB_IX_E1_1_3_COMPRA_MAX",
          "TAB_IX_E1_2_1_VENDA_MIN",
          "TAB_IX_E1_2_2_VENDA_MEDIA",
          "TAB_IX_E1_2_3_VENDA_MAX",
          "TAB_IX_E2_1_1_COMPRA_MIN",
          "TAB_IX_E2_1_2_COMPRA_MEDIA",
          "TAB_IX_E2_1_3_COMPRA_MAX",
          "TAB_IX_E2_2_1_VENDA_MIN",
          "TAB_IX_E2_2_2_VENDA_MEDIA",
          "TAB_IX_E2_2_3_VENDA_MAX",
          "TAB_IX_F1_1_1_COMPRA_MIN",
          "TAB_IX_F1_1_2_COMPRA_MEDIA",
          "TAB_IX_F1_1_3_COMPRA_MAX",
          "TAB_IX_F1_2_1_VENDA_MIN",
          "TAB_IX_F1_2_2_VENDA_MEDIA",
          "TAB_IX_F1_2_3_VENDA_MAX",
          "TAB_IX_F2_1_1_COMPRA_MIN",
          "TAB_IX_F2_1_2_COMPRA_MEDIA",
          "TAB_IX_F2_1_3_COMPRA_MAX",
          "TAB_IX_F2_2_1_VENDA_MIN",
          "TAB_IX_F2_2_2_VENDA_MEDIA",
          "TAB_IX_F2_2_3_VENDA_MAX"}},
        {"X",
         {"TP_FUNDO_CLASSE",
          "CNPJ_FUNDO_CLASSE",
          "DENOM_SOCIAL",
          "DT_COMPTC",
          "TAB_X_SCR_RISCO_DEVEDOR_AA",
          "TAB_X_SCR_RISCO_DEVEDOR_A",
          "TAB_X_SCR_RISCO_DEVEDOR_B",
          "TAB_X_SCR_RISCO_DEVEDOR_C",
          "TAB_X_SCR_RISCO_DEVEDOR_D",
          "TAB_X_SCR_RISCO_DEVEDOR_E",
          "TAB_X_SCR_RISCO_DEVEDOR_F",
          "TAB_X_SCR_RISCO_DEVEDOR_G",
          "TAB_X_SCR_RISCO_DEVEDOR_H",
          "TAB_X_SCR_RISCO_OPER_AA",
          "TAB_X_SCR_RISCO_OPER_A",
          "TAB_X_SCR_RISCO_OPER_B",
          "TAB_X_SCR_RISCO_OPER_C",
          "TAB_X_SCR_RISCO_OPER_D",
          "TAB_X_SCR_RISCO_OPER_E",
          "TAB_X_SCR_RISCO_OPER_F",
          "TAB_X_SCR_RISCO_OPER_G",
          "TAB_X_SCR_RISCO_OPER_H",
          "TAB_X_DEBITO_TRIBUT"}},
        {"X_1",
         {"TP_FUNDO_CLASSE", "CNPJ_FUNDO_CLASSE", "DENOM_SOCIAL", "DT_COMPTC", "TAB_X_CLASSE_SERIE",
          "ID_SUBCLASSE", "TAB_X_NR_COTST"}},
        {"X_1_1",
         {"TP_FUNDO_CLASSE",
          "CNPJ_FUNDO_CLASSE",
          "DENOM_SOCIAL",
          "DT_COMPTC",
          "TAB_X_NR_COTST_SENIOR_PF",
          "TAB_X_NR_COTST_SENIOR_PJ_NAO_FINANC",
          "TAB_X_NR_COTST_SENIOR_BANCO",
          "TAB_X_NR_COTST_SENIOR_CORRETORA_DISTRIB",
          "TAB_X_NR_COTST_SENIOR_PJ_FINANC",
          "TAB_X_NR_COTST_SENIOR_INVNR",
          "TAB_X_NR_COTST_SENIOR_EAPC",
          "TAB_X_NR_COTST_SENIOR_EFPC",
          "TAB_X_NR_COTST_SENIOR_RPPS",
          "TAB_X_NR_COTST_SENIOR_SEGUR",
          "TAB_X_NR_COTST_SENIOR_CAPITALIZ",
          "TAB_X_NR_COTST_SENIOR_COTA_FIDC",
          "TAB_X_NR_COTST_SENIOR_FII",
          "TAB_X_NR_COTST_SENIOR_OUTRO_FI",
          "TAB_X_NR_COTST_SENIOR_CLUBE",
          "TAB_X_NR_COTST_SENIOR_OUTRO",
          "TAB_X_NR_COTST_SUBORD_PF",
          "TAB_X_NR_COTST_SUBORD_PJ_NAO_FINANC",
          "TAB_X_NR_COTST_SUBORD_BANCO",
          "TAB_X_NR_COTST_SUBORD_CORRETORA_DISTRIB",
          "TAB_X_NR_COTST_SUBORD_PJ_FINANC",
          "TAB_X_NR_COTST_SUBORD_INVNR",
          "TAB_X_NR_COTST_SUBORD_EAPC",
          "TAB_X_NR_COTST_SUBORD_EFPC",
          "TAB_X_NR_COTST_SUBORD_RPPS",
          "TAB_X_NR_COTST_SUBORD_SEGUR",
          "TAB_X_NR_COTST_SUBORD_CAPITALIZ",
          "TAB_X_NR_COTST_SUBORD_COTA_FIDC",
          "TAB_X_NR_COTST_SUBORD_FII",
          "TAB_X_NR_COTST_SUBORD_OUTRO_FI",
          "TAB_X_NR_COTST_SUBORD_CLUBE",
          "TAB_X_NR_COTST_SUBORD_OUTRO"}},
        {"X_2",
         {"TP_FUNDO_CLASSE", "CNPJ_FUNDO_CLASSE", "DENOM_SOCIAL", "DT_COMPTC", "TAB_X_CLASSE_SERIE",
          "TAB_X_QT_COTA", "TAB_X_VL_COTA"}},
        {"X_3",
         {"TP_FUNDO_CLASSE", "CNPJ_FUNDO_CLASSE", "DENOM_SOCIAL", "DT_COMPTC", "TAB_X_CLASSE_SERIE",
          "TAB_X_VL_RENTAB_MES"}},
        {"X_4",
         {"TP_FUNDO_CLASSE", "CNPJ_FUNDO_CLASSE", "DENOM_SOCIAL", "DT_COMPTC", "TAB_X_TP_OPER",
          "TAB_X_CLASSE_SERIE", "TAB_X_VL_TOTAL", "TAB_X_QT_COTA"}},
        {"X_5",
         {"TP_FUNDO_CLASSE", "CNPJ_FUNDO_CLASSE", "DENOM_SOCIAL", "DT_COMPTC", "TAB_X_VL_LIQUIDEZ_0",
          "TAB_X_VL_LIQUIDEZ_30", "TAB_X_VL_LIQUIDEZ_60", "TAB_X_VL_LIQUIDEZ_90", "TAB_X_VL_LIQUIDEZ_180",
          "TAB_X_VL_LIQUIDEZ_360", "TAB_X_VL_LIQUIDEZ_MAIOR_360"}},
        {"X_6",
         {"TP_FUNDO_CLASSE", "CNPJ_FUNDO_CLASSE", "DENOM_SOCIAL", "DT_COMPTC", "TAB_X_CLASSE_SERIE",
          "TAB_X_PR_DESEMP_ESPERADO", "TAB_X_PR_DESEMP_REAL"}},
        {"X_7",
         {"TP_FUNDO_CLASSE", "CNPJ_FUNDO_CLASSE", "DENOM_SOCIAL", "DT_COMPTC", "TAB_X_VL_GARANTIA_DIRCRED",
          "TAB_X_PR_GARANTIA_DIRCRED"}},
    };
    return kHeaders;
}

inline bool IsFidcLongTable(const std::string& table) {
    return table == "X_1" || table == "X_2" || table == "X_3" || table == "X_4" || table == "X_6";
}

// The header of `table` in `era`.
inline std::vector<std::string> FidcHeader(const std::string& table, FidcEra era) {
    std::vector<std::string> header = FidcCurrentHeaders().at(table);
    const bool legacy = era == FidcEra::kCnpjFundo || (era == FidcEra::kMixed && IsFidcLongTable(table));
    if (legacy) {
        header.erase(std::remove(header.begin(), header.end(), "TP_FUNDO_CLASSE"), header.end());
        std::replace(header.begin(), header.end(), std::string("CNPJ_FUNDO_CLASSE"),
                     std::string("CNPJ_FUNDO"));
        header.erase(std::remove(header.begin(), header.end(), "ID_SUBCLASSE"), header.end());
    }
    if (era == FidcEra::kCnpjFundo && table == "I") {
        for (const char* added : {"CLASSE_UNICA", "CLASSE", "CNPJ_CLASSE", "TAB_I2C5_VL_COTA_FIF"}) {
            header.erase(std::remove(header.begin(), header.end(), added), header.end());
        }
    }
    return header;
}

// One filer's rows of one month: a row in every one-row table (with the given fields, the rest
// empty) and the given rows of the long tables. Keys are added by FidcMonth::Add.
struct FidcFiling {
    std::string cnpj;             // 14 digits; written masked, as CVM does
    std::string type = "Classe";  // TP_FUNDO_CLASSE; dropped from CNPJ_FUNDO-layout files
    std::string name = "FIDC TESTE MULTISSETORIAL";
    std::map<std::string, Fields> tables;  // one-row tables: table -> fields
    std::vector<Fields> x1, x2, x3, x4, x6, viii;
    std::set<std::string> skip;  // one-row tables this filer has no row in
};

// One month of the report: lines per table, header first.
class FidcMonth {
public:
    // `yyyymm` like "202401". X_1_1 and X_7 exist from 2019-11, VIII only when asked for.
    FidcMonth(std::string yyyymm, FidcEra era, bool with_debtors = false)
        : yyyymm_(std::move(yyyymm)), era_(era) {
        const int period = std::stoi(yyyymm_);
        for (const std::string& table : kFidcTableNames) {
            if ((table == "X_1_1" || table == "X_7") && period < 201911) {
                continue;
            }
            if (table == "VIII" && !with_debtors) {
                continue;
            }
            lines_[table] = {Join(FidcHeader(table, era_))};
        }
    }

    const std::string& Period() const { return yyyymm_; }
    FidcEra Era() const { return era_; }
    // "2024-01-31": CVM's DT_COMPTC is the last day of the month.
    std::string ReferenceDate() const {
        const int year = std::stoi(yyyymm_.substr(0, 4));
        const int month = std::stoi(yyyymm_.substr(4));
        char text[16];
        std::snprintf(text, sizeof text, "%04d-%02d-%02d", year, month, sdk::DaysInMonth(year, month));
        return text;
    }
    std::vector<std::string> Tables() const {
        std::vector<std::string> tables;
        for (const std::string& table : kFidcTableNames) {
            if (lines_.contains(table)) {
                tables.push_back(table);
            }
        }
        return tables;
    }
    bool Has(const std::string& table) const { return lines_.contains(table); }
    void Drop(const std::string& table) { lines_.erase(table); }
    std::vector<std::string>& Lines(const std::string& table) { return lines_.at(table); }
    const std::vector<std::string>& Lines(const std::string& table) const { return lines_.at(table); }

    // Appends a line to `table`; `fields` must name columns of its header.
    void Row(const std::string& table, const Fields& fields) {
        lines_.at(table).push_back(Line(FidcHeader(table, era_), fields));
    }

    // The key fields of `filing` in `table`, merged with `fields`.
    Fields Keyed(const std::string& table, const FidcFiling& filing, Fields fields) const {
        const std::vector<std::string> header = FidcHeader(table, era_);
        const bool legacy = std::find(header.begin(), header.end(), "CNPJ_FUNDO") != header.end();
        fields.emplace(legacy ? "CNPJ_FUNDO" : "CNPJ_FUNDO_CLASSE", sdk::FormatCnpj(filing.cnpj));
        if (!legacy) {
            fields.emplace("TP_FUNDO_CLASSE", filing.type);
        }
        fields.emplace("DENOM_SOCIAL", filing.name);
        fields.emplace("DT_COMPTC", ReferenceDate());
        // Columns an older layout does not have yet (FORMATS 1.2) are left out.
        for (const char* newer :
             {"ID_SUBCLASSE", "CLASSE_UNICA", "CLASSE", "CNPJ_CLASSE", "TAB_I2C5_VL_COTA_FIF"}) {
            if (std::find(header.begin(), header.end(), newer) == header.end()) {
                fields.erase(newer);
            }
        }
        return fields;
    }

    void Add(const FidcFiling& filing) {
        for (const std::string& table : Tables()) {
            const std::vector<Fields>* rows = nullptr;
            if (table == "X_1")
                rows = &filing.x1;
            if (table == "X_2")
                rows = &filing.x2;
            if (table == "X_3")
                rows = &filing.x3;
            if (table == "X_4")
                rows = &filing.x4;
            if (table == "X_6")
                rows = &filing.x6;
            if (table == "VIII")
                rows = &filing.viii;
            if (rows) {
                for (const Fields& fields : *rows) {
                    Row(table, Keyed(table, filing, fields));
                }
                continue;
            }
            if (filing.skip.contains(table)) {
                continue;
            }
            const auto given = filing.tables.find(table);
            Row(table, Keyed(table, filing, given == filing.tables.end() ? Fields{} : given->second));
        }
    }

    std::string Member(const std::string& table) const {
        return "inf_mensal_fidc_tab_" + table + "_" + yyyymm_ + ".csv";
    }
    std::string Bytes(const std::string& table) const { return Snapshot::Bytes(lines_.at(table)); }

private:
    std::string yyyymm_;
    FidcEra era_;
    std::map<std::string, std::vector<std::string>> lines_;
};

inline std::time_t FidcFileTime() {
    return SnapshotTime();
}

// inf_mensal_fidc_YYYYMM.zip with one member per table (plus `extra` members as given).
inline fs::path WriteFidcMonthlyZip(const fs::path& dir, const FidcMonth& month,
                                    const std::map<std::string, std::string>& extra = {}) {
    const fs::path path = dir / ("inf_mensal_fidc_" + month.Period() + ".zip");
    sdk::ZipWriter zip(path);
    for (const std::string& table : month.Tables()) {
        zip.Add(month.Member(table), month.Bytes(table), FidcFileTime());
    }
    for (const auto& [name, bytes] : extra) {
        zip.Add(name, bytes, FidcFileTime());
    }
    zip.Close();
    return path;
}

// inf_mensal_fidc_YYYY.zip. With `yearly_members` each table is one member
// inf_mensal_fidc_tab_<T>_YYYY.csv holding every month's rows (the months share one era);
// otherwise the months' own members are stored side by side.
inline fs::path WriteFidcYearlyZip(const fs::path& dir, const std::string& year,
                                   const std::vector<FidcMonth>& months, bool yearly_members) {
    const fs::path path = dir / ("inf_mensal_fidc_" + year + ".zip");
    sdk::ZipWriter zip(path);
    if (yearly_members) {
        for (const std::string& table : months.front().Tables()) {
            std::vector<std::string> lines = {months.front().Lines(table).front()};
            for (const FidcMonth& month : months) {
                const auto& own = month.Lines(table);
                lines.insert(lines.end(), own.begin() + 1, own.end());
            }
            zip.Add("inf_mensal_fidc_tab_" + table + "_" + year + ".csv", Snapshot::Bytes(lines),
                    FidcFileTime());
        }
    } else {
        for (const FidcMonth& month : months) {
            for (const std::string& table : month.Tables()) {
                zip.Add(month.Member(table), month.Bytes(table), FidcFileTime());
            }
        }
    }
    zip.Close();
    return path;
}

// The month's members as loose CSV files.
inline std::vector<fs::path> WriteFidcCsvs(const fs::path& dir, const FidcMonth& month) {
    std::vector<fs::path> paths;
    for (const std::string& table : month.Tables()) {
        paths.push_back(dir / month.Member(table));
        WriteFile(paths.back(), month.Bytes(table));
    }
    return paths;
}

// Runs the FIDC ingester in one write transaction, as the host does: committed when it
// returns, rolled back when it throws.
inline sdk::IngestSummary IngestFidc(odb::database& db, const std::vector<fs::path>& inputs) {
    CountingProgress progress;
    const std::string dataset(kFidcReportDataset);
    odb::transaction transaction(db.begin());
    sdk::IngestContext context{dataset, inputs, db, progress, SnapshotTime()};
    sdk::IngestSummary summary = FidcReportIngester().Run(context);
    transaction.commit();
    return summary;
}

struct FidcRowCounts {
    std::size_t reports = 0;
    std::size_t series = 0;
    std::size_t operations = 0;
    bool operator==(const FidcRowCounts&) const = default;
};

inline FidcRowCounts CountFidcRows(odb::database& db) {
    return {All<FidcReport>(db).size(), All<FidcSeries>(db).size(), All<FidcQuotaOperation>(db).size()};
}

// Every report with its JSON documents, which a query leaves unloaded (LoadReportDocuments).
inline std::vector<FidcReport> AllReportsWithJson(odb::database& db) {
    std::vector<FidcReport> reports = All<FidcReport>(db);
    odb::transaction transaction(db.begin());
    for (FidcReport& report : reports) {
        LoadReportDocuments(db, report);
    }
    transaction.commit();
    return reports;
}

// A filer with a value in the columns every metric reads; docs/api/fidc-metrics.md's examples
// and the expectations of fidc_report_ingester_test.cpp are computed from these numbers.
inline FidcFiling StandardFiling(const std::string& cnpj) {
    FidcFiling f;
    f.cnpj = cnpj;
    f.tables["I"] = {{"CNPJ_ADMIN", "11.111.111/0001-91"},
                     {"ADMIN", "ADMINISTRADORA BETA S.A."},
                     {"CONDOM", "FECHADO"},
                     {"TAB_I_VL_ATIVO", "1000000.00"},
                     {"TAB_I2A_VL_DIRCRED_RISCO", "800000.00"},
                     {"TAB_I2A1_VL_CRED_VENC_AD", "700000.00"},
                     {"TAB_I2A2_VL_CRED_VENC_INAD", "100000.00"},
                     {"TAB_I2A3_VL_CRED_INAD", "50000.00"},
                     {"TAB_I2A11_VL_REDUCAO_RECUP", "-50000.00"},
                     {"TAB_I2B_VL_DIRCRED_SEM_RISCO", "100000.00"},
                     {"TAB_I2B1_VL_CRED_VENC_AD", "110000.00"},
                     {"TAB_I2B11_VL_REDUCAO_RECUP", "10000.00"}};
    f.tables["II"] = {{"TAB_II_VL_CARTEIRA", "900000.00"},  {"TAB_II_A_VL_INDUST", "100000.00"},
                      {"TAB_II_C_VL_COMERC", "300000.00"},  {"TAB_II_C2_VL_VAREJO", "300000.00"},
                      {"TAB_II_F_VL_FINANC", "300000.00"},  {"TAB_II_F2_VL_CRED_PESSOA_CONSIG", "300000.00"},
                      {"TAB_II_G_VL_CREDITO", "200000.00"}, {"TAB_II_K_VL_MARCA", "0.00"}};
    f.tables["III"] = {{"TAB_III_VL_PASSIVO", "5000.00"}};
    f.tables["IV"] = {{"TAB_IV_A_VL_PL", "995000.00"}, {"TAB_IV_B_VL_PL_MEDIO", "990000.00"}};
    f.tables["V"] = {
        {"TAB_V_A_VL_DIRCRED_PRAZO", "700000.00"},  {"TAB_V_A1_VL_PRAZO_VENC_30", "400000.00"},
        {"TAB_V_A2_VL_PRAZO_VENC_60", "200000.00"}, {"TAB_V_A10_VL_PRAZO_VENC_MAIOR_1080", "100000.00"},
        {"TAB_V_B_VL_DIRCRED_INAD", "50000.00"},    {"TAB_V_B1_VL_INAD_30", "30000.00"},
        {"TAB_V_B3_VL_INAD_90", "20000.00"},        {"TAB_V_C_VL_DIRCRED_ANTECIPADO", "1000.00"},
        {"TAB_V_C1_VL_ANTECIPADO_30", "1000.00"}};
    f.tables["VI"] = {{"TAB_VI_A_VL_DIRCRED_PRAZO", "90000.00"},
                      {"TAB_VI_A1_VL_PRAZO_VENC_30", "90000.00"},
                      {"TAB_VI_B_VL_DIRCRED_INAD", "10000.00"},
                      {"TAB_VI_B2_VL_INAD_60", "10000.00"}};
    f.tables["VII"] = {{"TAB_VII_A1_1_QT_DIRCRED_RISCO", "120.00"},
                       {"TAB_VII_A1_2_VL_DIRCRED_RISCO", "250000.00"}};
    f.tables["IX"] = {{"TAB_IX_A1_1_2_COMPRA_MEDIA", "2.35"}};
    f.tables["X"] = {{"TAB_X_SCR_RISCO_DEVEDOR_AA", "400000.00"}};
    f.tables["X_1_1"] = {{"TAB_X_NR_COTST_SENIOR_PF", "118"}, {"TAB_X_NR_COTST_SUBORD_PJ_FINANC", "1"}};
    f.tables["X_5"] = {{"TAB_X_VL_LIQUIDEZ_0", "12345.67"}};
    f.tables["X_7"] = {{"TAB_X_VL_GARANTIA_DIRCRED", "50000.00"}, {"TAB_X_PR_GARANTIA_DIRCRED", "5.00"}};
    const std::string senior = "Subclasse Senior Série 1";
    const std::string mezzanine = "Subclasse Subordinada Cota Mezanino | Serie 1";
    const std::string subordinated = "Subclasse Subordinada Sub | Subordinada 1";
    f.x1 = {{{"TAB_X_CLASSE_SERIE", senior}, {"ID_SUBCLASSE", "SUBSR1"}, {"TAB_X_NR_COTST", "120"}},
            {{"TAB_X_CLASSE_SERIE", mezzanine}, {"TAB_X_NR_COTST", "3"}},
            {{"TAB_X_CLASSE_SERIE", subordinated}, {"TAB_X_NR_COTST", "1"}}};
    f.x2 = {{{"TAB_X_CLASSE_SERIE", senior},
             {"TAB_X_QT_COTA", "1000.00000000"},
             {"TAB_X_VL_COTA", "700.00000000"}},
            {{"TAB_X_CLASSE_SERIE", mezzanine},
             {"TAB_X_QT_COTA", "100.00000000"},
             {"TAB_X_VL_COTA", "1000.00000000"}},
            {{"TAB_X_CLASSE_SERIE", subordinated},
             {"TAB_X_QT_COTA", "50.00000000"},
             {"TAB_X_VL_COTA", "3900.00000000"}}};
    f.x3 = {{{"TAB_X_CLASSE_SERIE", senior}, {"TAB_X_VL_RENTAB_MES", "1.15"}},
            {{"TAB_X_CLASSE_SERIE", mezzanine}, {"TAB_X_VL_RENTAB_MES", "1.50"}},
            {{"TAB_X_CLASSE_SERIE", subordinated}}};
    f.x4 = {{{"TAB_X_TP_OPER", "Captações no Mês"},
             {"TAB_X_CLASSE_SERIE", senior},
             {"TAB_X_VL_TOTAL", "50000.00"},
             {"TAB_X_QT_COTA", "71.42857143"}},
            {{"TAB_X_TP_OPER", "Resgates no Mês"},
             {"TAB_X_CLASSE_SERIE", senior},
             {"TAB_X_VL_TOTAL", "20000.00"},
             {"TAB_X_QT_COTA", "28.57142857"}},
            {{"TAB_X_TP_OPER", "Resgates Solicitados"},
             {"TAB_X_CLASSE_SERIE", senior},
             {"TAB_X_VL_TOTAL", "5000.00"}},
            {{"TAB_X_TP_OPER", "Amortizações"},
             {"TAB_X_CLASSE_SERIE", subordinated},
             {"TAB_X_VL_TOTAL", "10000.00"},
             {"TAB_X_QT_COTA", "0.00000000"}}};
    f.x6 = {{{"TAB_X_CLASSE_SERIE", senior},
             {"TAB_X_PR_DESEMP_ESPERADO", "1.10"},
             {"TAB_X_PR_DESEMP_REAL", "1.15"}}};
    f.viii = {{{"SEQUENCIAL", "2"}, {"VALOR", "3000.00"}}, {{"SEQUENCIAL", "1"}, {"VALOR", "5000.00"}}};
    return f;
}

}  // namespace lastro::funds::testing
