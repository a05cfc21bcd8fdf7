// The FIDC monthly reports of the default sample: layouts as published, the identities between
// tables recomputed from the printed text, and each deliberate irregularity present.
#include "sample_test_support.hpp"

#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/text.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

namespace lastro::funds::sample {
namespace {

using testing::Cents;
using testing::DefaultSample;
using testing::Fixed;
using testing::ParsedCsv;
using Row = std::vector<std::string>;

// Copied from FORMATS.md Appendix A (and §1.5 for tab_VIII), independently of the generator.
const std::vector<std::pair<std::string, std::string>> kExpectedHeaders{
    {"I",
     "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;DENOM_SOCIAL;DT_COMPTC;CLASSE_UNICA;CNPJ_ADMIN;ADMIN;"
     "CLASSE;CNPJ_CLASSE;CONDOM;FUNDO_EXCLUSIVO;COTST_INTERESSE;PRAZO_CONVERSAO_COTA;"
     "TP_PRAZO_CONVERSAO_COTA;PRAZO_PAGTO_RESGATE;TP_PRAZO_PAGTO_RESGATE;TAB_I_VL_ATIVO;"
     "TAB_I1_VL_DISP;TAB_I2_VL_CARTEIRA;TAB_I2A_VL_DIRCRED_RISCO;TAB_I2A1_VL_CRED_VENC_AD;"
     "TAB_I2A2_VL_CRED_VENC_INAD;TAB_I2A21_VL_TOTAL_PARCELA_INAD;TAB_I2A3_VL_CRED_INAD;"
     "TAB_I2A4_VL_CRED_DIRCRED_PERFM;TAB_I2A5_VL_CRED_VENCIDO_PENDENTE;TAB_I2A6_VL_CRED_EMP_RECUP;"
     "TAB_I2A7_VL_CRED_RECEITA_PUBLICA;TAB_I2A8_VL_CRED_ACAO_JUDIC;TAB_I2A9_VL_CRED_FATOR_RISCO;"
     "TAB_I2A10_VL_CRED_DIVERSO;TAB_I2A11_VL_REDUCAO_RECUP;TAB_I2A12_CPF_CNPJ_CEDENTE_1;"
     "TAB_I2A12_PR_CEDENTE_1;TAB_I2A12_CPF_CNPJ_CEDENTE_2;TAB_I2A12_PR_CEDENTE_2;"
     "TAB_I2A12_CPF_CNPJ_CEDENTE_3;TAB_I2A12_PR_CEDENTE_3;TAB_I2A12_CPF_CNPJ_CEDENTE_4;"
     "TAB_I2A12_PR_CEDENTE_4;TAB_I2A12_CPF_CNPJ_CEDENTE_5;TAB_I2A12_PR_CEDENTE_5;"
     "TAB_I2A12_CPF_CNPJ_CEDENTE_6;TAB_I2A12_PR_CEDENTE_6;TAB_I2A12_CPF_CNPJ_CEDENTE_7;"
     "TAB_I2A12_PR_CEDENTE_7;TAB_I2A12_CPF_CNPJ_CEDENTE_8;TAB_I2A12_PR_CEDENTE_8;"
     "TAB_I2A12_CPF_CNPJ_CEDENTE_9;TAB_I2A12_PR_CEDENTE_9;TAB_I2B_VL_DIRCRED_SEM_RISCO;"
     "TAB_I2B1_VL_CRED_VENC_AD;TAB_I2B2_VL_CRED_VENC_INAD;TAB_I2B21_VL_TOTAL_PARCELA_INAD;"
     "TAB_I2B3_VL_CRED_INAD;TAB_I2B4_VL_CRED_DIRCRED_PERFM;TAB_I2B5_VL_CRED_VENCIDO_PENDENTE;"
     "TAB_I2B6_VL_CRED_EMP_RECUP;TAB_I2B7_VL_CRED_RECEITA_PUBLICA;TAB_I2B8_VL_CRED_ACAO_JUDIC;"
     "TAB_I2B9_VL_CRED_FATOR_RISCO;TAB_I2B10_VL_CRED_DIVERSO;TAB_I2B11_VL_REDUCAO_RECUP;"
     "TAB_I2B12_CPF_CNPJ_CEDENTE_1;TAB_I2B12_PR_CEDENTE_1;TAB_I2B12_CPF_CNPJ_CEDENTE_2;"
     "TAB_I2B12_PR_CEDENTE_2;TAB_I2B12_CPF_CNPJ_CEDENTE_3;TAB_I2B12_PR_CEDENTE_3;"
     "TAB_I2B12_CPF_CNPJ_CEDENTE_4;TAB_I2B12_PR_CEDENTE_4;TAB_I2B12_CPF_CNPJ_CEDENTE_5;"
     "TAB_I2B12_PR_CEDENTE_5;TAB_I2B12_CPF_CNPJ_CEDENTE_6;TAB_I2B12_PR_CEDENTE_6;"
     "TAB_I2B12_CPF_CNPJ_CEDENTE_7;TAB_I2B12_PR_CEDENTE_7;TAB_I2B12_CPF_CNPJ_CEDENTE_8;"
     "TAB_I2B12_PR_CEDENTE_8;TAB_I2B12_CPF_CNPJ_CEDENTE_9;TAB_I2B12_PR_CEDENTE_9;TAB_I2C_VL_VLMOB;"
     "TAB_I2C1_VL_DEBENTURE;TAB_I2C2_VL_CRI;TAB_I2C3_VL_NP_COMERC;TAB_I2C4_VL_LETRA_FINANC;"
     "TAB_I2C5_VL_COTA_FUNDO_ICVM555;TAB_I2C5_VL_COTA_FIF;TAB_I2C6_VL_OUTRO;TAB_I2D_VL_TITPUB_FED;"
     "TAB_I2E_VL_CDB;TAB_I2F_VL_OPER_COMPROM;TAB_I2G_VL_OUTRO_RF;TAB_I2H_VL_COTA_FIDC;"
     "TAB_I2I_VL_COTA_FIDC_NP;TAB_I2J_VL_CONTRATO_FUTURO;TAB_I2_DEBENTURE_CRI;TAB_I2_COTA_FIDC;"
     "TAB_I2_VL_OUTRO_ATIVO;TAB_I3_VL_POSICAO_DERIV;TAB_I3A_VL_MERCADO_TERMO;"
     "TAB_I3B_VL_MERCADO_OPCAO;TAB_I3C_VL_MERCADO_FUTURO;TAB_I3D_VL_DIFER_SWAP;"
     "TAB_I3E_VL_COBERTURA;TAB_I3F_VL_DEPOSITO_MARGEM;TAB_I4_VL_OUTRO_ATIVO;TAB_I4A_VL_CPRAZO;"
     "TAB_I4B_VL_LPRAZO"},
    {"II",
     "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;DENOM_SOCIAL;DT_COMPTC;TAB_II_VL_CARTEIRA;"
     "TAB_II_A_VL_INDUST;TAB_II_B_VL_IMOBIL;TAB_II_C_VL_COMERC;TAB_II_C1_VL_COMERC;"
     "TAB_II_C2_VL_VAREJO;TAB_II_C3_VL_ARREND;TAB_II_D_VL_SERV;TAB_II_D1_VL_SERV;"
     "TAB_II_D2_VL_SERV_PUBLICO;TAB_II_D3_VL_SERV_EDUC;TAB_II_D4_VL_ENTRET;TAB_II_E_VL_AGRONEG;"
     "TAB_II_F_VL_FINANC;TAB_II_F1_VL_CRED_PESSOA;TAB_II_F2_VL_CRED_PESSOA_CONSIG;"
     "TAB_II_F3_VL_CRED_CORP;TAB_II_F4_VL_MIDMARKET;TAB_II_F5_VL_VEICULO;"
     "TAB_II_F6_VL_IMOBIL_EMPRESA;TAB_II_F7_VL_IMOBIL_RESID;TAB_II_F8_VL_OUTRO;"
     "TAB_II_G_VL_CREDITO;TAB_II_H_VL_FACTOR;TAB_II_H1_VL_PESSOA;TAB_II_H2_VL_CORP;"
     "TAB_II_I_VL_SETOR_PUBLICO;TAB_II_I1_VL_PRECAT;TAB_II_I2_VL_TRIBUT;TAB_II_I3_VL_ROYALTIES;"
     "TAB_II_I4_VL_OUTRO;TAB_II_J_VL_JUDICIAL;TAB_II_K_VL_MARCA"},
    {"III",
     "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;DENOM_SOCIAL;DT_COMPTC;TAB_III_VL_PASSIVO;"
     "TAB_III_A_VL_PAGAR;TAB_III_A1_VL_CPRAZO;TAB_III_A2_VL_LPRAZO;TAB_III_B_VL_POSICAO_DERIV;"
     "TAB_III_B1_VL_TERMO;TAB_III_B2_VL_OPCAO;TAB_III_B3_VL_FUTURO;TAB_III_B4_VL_SWAP_PAGAR"},
    {"IV",
     "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;DENOM_SOCIAL;DT_COMPTC;TAB_IV_A_VL_PL;"
     "TAB_IV_B_VL_PL_MEDIO"},
    {"V",
     "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;DENOM_SOCIAL;DT_COMPTC;TAB_V_A_VL_DIRCRED_PRAZO;"
     "TAB_V_A1_VL_PRAZO_VENC_30;TAB_V_A2_VL_PRAZO_VENC_60;TAB_V_A3_VL_PRAZO_VENC_90;"
     "TAB_V_A4_VL_PRAZO_VENC_120;TAB_V_A5_VL_PRAZO_VENC_150;TAB_V_A6_VL_PRAZO_VENC_180;"
     "TAB_V_A7_VL_PRAZO_VENC_360;TAB_V_A8_VL_PRAZO_VENC_720;TAB_V_A9_VL_PRAZO_VENC_1080;"
     "TAB_V_A10_VL_PRAZO_VENC_MAIOR_1080;TAB_V_B_VL_DIRCRED_INAD;TAB_V_B1_VL_INAD_30;"
     "TAB_V_B2_VL_INAD_60;TAB_V_B3_VL_INAD_90;TAB_V_B4_VL_INAD_120;TAB_V_B5_VL_INAD_150;"
     "TAB_V_B6_VL_INAD_180;TAB_V_B7_VL_INAD_360;TAB_V_B8_VL_INAD_720;TAB_V_B9_VL_INAD_1080;"
     "TAB_V_B10_VL_INAD_MAIOR_1080;TAB_V_C_VL_DIRCRED_ANTECIPADO;TAB_V_C1_VL_ANTECIPADO_30;"
     "TAB_V_C2_VL_ANTECIPADO_60;TAB_V_C3_VL_ANTECIPADO_90;TAB_V_C4_VL_ANTECIPADO_120;"
     "TAB_V_C5_VL_ANTECIPADO_150;TAB_V_C6_VL_ANTECIPADO_180;TAB_V_C7_VL_ANTECIPADO_360;"
     "TAB_V_C8_VL_ANTECIPADO_720;TAB_V_C9_VL_ANTECIPADO_1080;TAB_V_C10_VL_ANTECIPADO_MAIOR_1080"},
    {"VI",
     "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;DENOM_SOCIAL;DT_COMPTC;TAB_VI_A_VL_DIRCRED_PRAZO;"
     "TAB_VI_A1_VL_PRAZO_VENC_30;TAB_VI_A2_VL_PRAZO_VENC_60;TAB_VI_A3_VL_PRAZO_VENC_90;"
     "TAB_VI_A4_VL_PRAZO_VENC_120;TAB_VI_A5_VL_PRAZO_VENC_150;TAB_VI_A6_VL_PRAZO_VENC_180;"
     "TAB_VI_A7_VL_PRAZO_VENC_360;TAB_VI_A8_VL_PRAZO_VENC_720;TAB_VI_A9_VL_PRAZO_VENC_1080;"
     "TAB_VI_A10_VL_PRAZO_VENC_MAIOR_1080;TAB_VI_B_VL_DIRCRED_INAD;TAB_VI_B1_VL_INAD_30;"
     "TAB_VI_B2_VL_INAD_60;TAB_VI_B3_VL_INAD_90;TAB_VI_B4_VL_INAD_120;TAB_VI_B5_VL_INAD_150;"
     "TAB_VI_B6_VL_INAD_180;TAB_VI_B7_VL_INAD_360;TAB_VI_B8_VL_INAD_720;TAB_VI_B9_VL_INAD_1080;"
     "TAB_VI_B10_VL_INAD_MAIOR_1080;TAB_VI_C_VL_DIRCRED_ANTECIPADO;TAB_VI_C1_VL_ANTECIPADO_30;"
     "TAB_VI_C2_VL_ANTECIPADO_60;TAB_VI_C3_VL_ANTECIPADO_90;TAB_VI_C4_VL_ANTECIPADO_120;"
     "TAB_VI_C5_VL_ANTECIPADO_150;TAB_VI_C6_VL_ANTECIPADO_180;TAB_VI_C7_VL_ANTECIPADO_360;"
     "TAB_VI_C8_VL_ANTECIPADO_720;TAB_VI_C9_VL_ANTECIPADO_1080;"
     "TAB_VI_C10_VL_ANTECIPADO_MAIOR_1080"},
    {"VII",
     "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;DENOM_SOCIAL;DT_COMPTC;TAB_VII_A1_1_QT_DIRCRED_RISCO;"
     "TAB_VII_A1_2_VL_DIRCRED_RISCO;TAB_VII_A2_1_QT_DIRCRED_SEM_RISCO;"
     "TAB_VII_A2_2_VL_DIRCRED_SEM_RISCO;TAB_VII_A3_1_QT_DIRCRED_VENC_AD;"
     "TAB_VII_A3_2_VL_DIRCRED_VENC_AD;TAB_VII_A4_1_QT_DIRCRED_VENC_INAD;"
     "TAB_VII_A4_2_VL_DIRCRED_VENC_INAD;TAB_VII_A5_1_QT_DIRCRED_INAD;TAB_VII_A5_2_VL_DIRCRED_INAD;"
     "TAB_VII_B1_1_QT_CEDENTE;TAB_VII_B1_2_VL_CEDENTE;TAB_VII_B1_3_VL_CONTAB_CEDENTE;"
     "TAB_VII_B2_1_QT_PREST;TAB_VII_B2_2_VL_PREST;TAB_VII_B2_3_VL_CONTAB_PREST;"
     "TAB_VII_B3_1_QT_TERCEIRO;TAB_VII_B3_2_VL_TERCEIRO;TAB_VII_B3_3_VL_CONTAB_TERCEIRO;"
     "TAB_VII_C_1_QT_SUBST;TAB_VII_C_2_VL_SUBST;TAB_VII_C_3_VL_CONTAB_SUBST;"
     "TAB_VII_D_1_QT_RECOMPRA;TAB_VII_D_2_VL_RECOMPRA;TAB_VII_D_3_VL_CONTAB_RECOMPRA"},
    {"VIII", "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;DENOM_SOCIAL;DT_COMPTC;SEQUENCIAL;VALOR"},
    {"IX",
     "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;DENOM_SOCIAL;DT_COMPTC;TAB_IX_A1_1_1_COMPRA_MIN;"
     "TAB_IX_A1_1_2_COMPRA_MEDIA;TAB_IX_A1_1_3_COMPRA_MAX;TAB_IX_A1_2_1_VENDA_MIN;"
     "TAB_IX_A1_2_2_VENDA_MEDIA;TAB_IX_A1_2_3_VENDA_MAX;TAB_IX_A2_1_1_COMPRA_MIN;"
     "TAB_IX_A2_1_2_COMPRA_MEDIA;TAB_IX_A2_1_3_COMPRA_MAX;TAB_IX_A2_2_1_VENDA_MIN;"
     "TAB_IX_A2_2_2_VENDA_MEDIA;TAB_IX_A2_2_3_VENDA_MAX;TAB_IX_B1_1_1_COMPRA_MIN;"
     "TAB_IX_B1_1_2_COMPRA_MEDIA;TAB_IX_B1_1_3_COMPRA_MAX;TAB_IX_B1_2_1_VENDA_MIN;"
     "TAB_IX_B1_2_2_VENDA_MEDIA;TAB_IX_B1_2_3_VENDA_MAX;TAB_IX_B2_1_1_COMPRA_MIN;"
     "TAB_IX_B2_1_2_COMPRA_MEDIA;TAB_IX_B2_1_3_COMPRA_MAX;TAB_IX_B2_2_1_VENDA_MIN;"
     "TAB_IX_B2_2_2_VENDA_MEDIA;TAB_IX_B2_2_3_VENDA_MAX;TAB_IX_C1_1_1_COMPRA_MIN;"
     "TAB_IX_C1_1_2_COMPRA_MEDIA;TAB_IX_C1_1_3_COMPRA_MAX;TAB_IX_C1_2_1_VENDA_MIN;"
     "TAB_IX_C1_2_2_VENDA_MEDIA;TAB_IX_C1_2_3_VENDA_MAX;TAB_IX_C2_1_1_COMPRA_MIN;"
     "TAB_IX_C2_1_2_COMPRA_MEDIA;TAB_IX_C2_1_3_COMPRA_MAX;TAB_IX_C2_2_1_VENDA_MIN;"
     "TAB_IX_C2_2_2_VENDA_MEDIA;TAB_IX_C2_2_3_VENDA_MAX;TAB_IX_D1_1_1_COMPRA_MIN;"
     "TAB_IX_D1_1_2_COMPRA_MEDIA;TAB_IX_D1_1_3_COMPRA_MAX;TAB_IX_D1_2_1_VENDA_MIN;"
     "TAB_IX_D1_2_2_VENDA_MEDIA;TAB_IX_D1_2_3_VENDA_MAX;TAB_IX_D2_1_1_COMPRA_MIN;"
     "TAB_IX_D2_1_2_COMPRA_MEDIA;TAB_IX_D2_1_3_COMPRA_MAX;TAB_IX_D2_2_1_VENDA_MIN;"
     "TAB_IX_D2_2_2_VENDA_MEDIA;TAB_IX_D2_2_3_VENDA_MAX;TAB_IX_E1_1_1_COMPRA_MIN;"
     "TAB_IX_E1_1_2_COMPRA_MEDIA;TAB_IX_E1_1_3_COMPRA_MAX;TAB_IX_E1_2_1_VENDA_MIN;"
     "TAB_IX_E1_2_2_VENDA_MEDIA;TAB_IX_E1_2_3_VENDA_MAX;TAB_IX_E2_1_1_COMPRA_MIN;"
     "TAB_IX_E2_1_2_COMPRA_MEDIA;TAB_IX_E2_1_3_COMPRA_MAX;TAB_IX_E2_2_1_VENDA_MIN;"
     "TAB_IX_E2_2_2_VENDA_MEDIA;TAB_IX_E2_2_3_VENDA_MAX;TAB_IX_F1_1_1_COMPRA_MIN;"
     "TAB_IX_F1_1_2_COMPRA_MEDIA;TAB_IX_F1_1_3_COMPRA_MAX;TAB_IX_F1_2_1_VENDA_MIN;"
     "TAB_IX_F1_2_2_VENDA_MEDIA;TAB_IX_F1_2_3_VENDA_MAX;TAB_IX_F2_1_1_COMPRA_MIN;"
     "TAB_IX_F2_1_2_COMPRA_MEDIA;TAB_IX_F2_1_3_COMPRA_MAX;TAB_IX_F2_2_1_VENDA_MIN;"
     "TAB_IX_F2_2_2_VENDA_MEDIA;TAB_IX_F2_2_3_VENDA_MAX"},
    {"X",
     "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;DENOM_SOCIAL;DT_COMPTC;TAB_X_SCR_RISCO_DEVEDOR_AA;"
     "TAB_X_SCR_RISCO_DEVEDOR_A;TAB_X_SCR_RISCO_DEVEDOR_B;TAB_X_SCR_RISCO_DEVEDOR_C;"
     "TAB_X_SCR_RISCO_DEVEDOR_D;TAB_X_SCR_RISCO_DEVEDOR_E;TAB_X_SCR_RISCO_DEVEDOR_F;"
     "TAB_X_SCR_RISCO_DEVEDOR_G;TAB_X_SCR_RISCO_DEVEDOR_H;TAB_X_SCR_RISCO_OPER_AA;"
     "TAB_X_SCR_RISCO_OPER_A;TAB_X_SCR_RISCO_OPER_B;TAB_X_SCR_RISCO_OPER_C;TAB_X_SCR_RISCO_OPER_D;"
     "TAB_X_SCR_RISCO_OPER_E;TAB_X_SCR_RISCO_OPER_F;TAB_X_SCR_RISCO_OPER_G;TAB_X_SCR_RISCO_OPER_H;"
     "TAB_X_DEBITO_TRIBUT"},
    {"X_1",
     "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;DENOM_SOCIAL;DT_COMPTC;TAB_X_CLASSE_SERIE;ID_SUBCLASSE;"
     "TAB_X_NR_COTST"},
    {"X_1_1",
     "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;DENOM_SOCIAL;DT_COMPTC;TAB_X_NR_COTST_SENIOR_PF;"
     "TAB_X_NR_COTST_SENIOR_PJ_NAO_FINANC;TAB_X_NR_COTST_SENIOR_BANCO;"
     "TAB_X_NR_COTST_SENIOR_CORRETORA_DISTRIB;TAB_X_NR_COTST_SENIOR_PJ_FINANC;"
     "TAB_X_NR_COTST_SENIOR_INVNR;TAB_X_NR_COTST_SENIOR_EAPC;TAB_X_NR_COTST_SENIOR_EFPC;"
     "TAB_X_NR_COTST_SENIOR_RPPS;TAB_X_NR_COTST_SENIOR_SEGUR;TAB_X_NR_COTST_SENIOR_CAPITALIZ;"
     "TAB_X_NR_COTST_SENIOR_COTA_FIDC;TAB_X_NR_COTST_SENIOR_FII;TAB_X_NR_COTST_SENIOR_OUTRO_FI;"
     "TAB_X_NR_COTST_SENIOR_CLUBE;TAB_X_NR_COTST_SENIOR_OUTRO;TAB_X_NR_COTST_SUBORD_PF;"
     "TAB_X_NR_COTST_SUBORD_PJ_NAO_FINANC;TAB_X_NR_COTST_SUBORD_BANCO;"
     "TAB_X_NR_COTST_SUBORD_CORRETORA_DISTRIB;TAB_X_NR_COTST_SUBORD_PJ_FINANC;"
     "TAB_X_NR_COTST_SUBORD_INVNR;TAB_X_NR_COTST_SUBORD_EAPC;TAB_X_NR_COTST_SUBORD_EFPC;"
     "TAB_X_NR_COTST_SUBORD_RPPS;TAB_X_NR_COTST_SUBORD_SEGUR;TAB_X_NR_COTST_SUBORD_CAPITALIZ;"
     "TAB_X_NR_COTST_SUBORD_COTA_FIDC;TAB_X_NR_COTST_SUBORD_FII;TAB_X_NR_COTST_SUBORD_OUTRO_FI;"
     "TAB_X_NR_COTST_SUBORD_CLUBE;TAB_X_NR_COTST_SUBORD_OUTRO"},
    {"X_2",
     "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;DENOM_SOCIAL;DT_COMPTC;TAB_X_CLASSE_SERIE;TAB_X_QT_COTA;"
     "TAB_X_VL_COTA"},
    {"X_3",
     "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;DENOM_SOCIAL;DT_COMPTC;TAB_X_CLASSE_SERIE;"
     "TAB_X_VL_RENTAB_MES"},
    {"X_4",
     "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;DENOM_SOCIAL;DT_COMPTC;TAB_X_TP_OPER;TAB_X_CLASSE_SERIE;"
     "TAB_X_VL_TOTAL;TAB_X_QT_COTA"},
    {"X_5",
     "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;DENOM_SOCIAL;DT_COMPTC;TAB_X_VL_LIQUIDEZ_0;"
     "TAB_X_VL_LIQUIDEZ_30;TAB_X_VL_LIQUIDEZ_60;TAB_X_VL_LIQUIDEZ_90;TAB_X_VL_LIQUIDEZ_180;"
     "TAB_X_VL_LIQUIDEZ_360;TAB_X_VL_LIQUIDEZ_MAIOR_360"},
    {"X_6",
     "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;DENOM_SOCIAL;DT_COMPTC;TAB_X_CLASSE_SERIE;"
     "TAB_X_PR_DESEMP_ESPERADO;TAB_X_PR_DESEMP_REAL"},
    {"X_7",
     "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;DENOM_SOCIAL;DT_COMPTC;TAB_X_VL_GARANTIA_DIRCRED;"
     "TAB_X_PR_GARANTIA_DIRCRED"},
};

// The default sample's 36 months.
std::vector<sdk::Month> Months() {
    std::vector<sdk::Month> months;
    for (sdk::Month m{2023, 9}; !(sdk::Month{2026, 8} < m); m = m.Next()) {
        months.push_back(m);
    }
    return months;
}

bool OldLayout(const sdk::Month& month) {
    return month < sdk::Month{2024, 12};
}

const ParsedCsv& Table(std::string_view table, sdk::Month month) {
    return DefaultSample::Get().Fidc(table, month);
}

std::string Get(const ParsedCsv& csv, const Row& row, std::string_view column) {
    return row.at(csv.Column(column));
}

std::string KeyCnpj(const ParsedCsv& csv, const Row& row) {
    return row.at(1 - (csv.header[0] == "CNPJ_FUNDO" ? 1 : 0));
}

bool IsClassRow(const ParsedCsv& csv, const Row& row) {
    return csv.header[0] == "CNPJ_FUNDO" || row[0] == "Classe";
}

// One row per class: Classe rows only (every row in the old layout), the last line winning.
std::map<std::string, Row> ByClass(const ParsedCsv& csv) {
    std::map<std::string, Row> rows;
    for (const Row& row : csv.rows) {
        if (IsClassRow(csv, row)) {
            rows[KeyCnpj(csv, row)] = row;
        }
    }
    return rows;
}

// The deliveries of each class's report in `month`: the most Classe rows it has in one of the
// one-row tables (docs/datasets/inf_mensal_fidc.md, "Series with the same label").
std::map<std::string, std::size_t> Deliveries(const sdk::Month& month) {
    std::map<std::string, std::size_t> most;
    for (const char* table : {"I", "II", "III", "IV", "V", "VI", "VII", "IX", "X", "X_1_1", "X_5", "X_7"}) {
        const ParsedCsv& csv = Table(table, month);
        std::map<std::string, std::size_t> count;
        for (const Row& row : csv.rows) {
            if (IsClassRow(csv, row)) {
                ++count[KeyCnpj(csv, row)];
            }
        }
        for (const auto& [cnpj, n] : count) {
            most[cnpj] = std::max(most[cnpj], n);
        }
    }
    return most;
}

// A row of a long table with its class and series identity: the label, "<label> #n" for the
// n-th series of a repeated label.
struct Identified {
    std::string cnpj;
    std::string series;
    const Row* row = nullptr;
};

// The Classe rows of a long table of `month` by series identity, the rule of
// docs/datasets/inf_mensal_fidc.md re-implemented: per class and label (and TAB_X_TP_OPER when
// `by_operation`), with k deliveries and n rows, a multiple of k is n/k series delivered k times
// (row i is series i mod n/k, the last delivery wins); otherwise identical rows are one row and
// each different row a series, in order of first appearance.
std::vector<Identified> Identify(const ParsedCsv& csv, const sdk::Month& month, bool by_operation = false) {
    const std::map<std::string, std::size_t> deliveries = Deliveries(month);
    using Key = std::tuple<std::string, std::string, std::string>;
    std::map<Key, std::vector<const Row*>> groups;
    std::vector<Key> order;
    for (const Row& row : csv.rows) {
        if (!IsClassRow(csv, row)) {
            continue;
        }
        Key key{KeyCnpj(csv, row), Get(csv, row, "TAB_X_CLASSE_SERIE"),
                by_operation ? Get(csv, row, "TAB_X_TP_OPER") : ""};
        auto [it, inserted] = groups.try_emplace(key);
        if (inserted) {
            order.push_back(key);
        }
        it->second.push_back(&row);
    }
    std::vector<Identified> out;
    for (const Key& key : order) {
        const std::vector<const Row*>& rows = groups.at(key);
        const auto found = deliveries.find(std::get<0>(key));
        const std::size_t k = found == deliveries.end() ? 1 : std::max<std::size_t>(1, found->second);
        std::vector<const Row*> series;
        if (k > 1 && rows.size() >= k && rows.size() % k == 0) {
            series.resize(rows.size() / k);
            for (std::size_t i = 0; i < rows.size(); ++i) {
                series[i % series.size()] = rows[i];
            }
        } else {
            for (const Row* row : rows) {
                if (std::none_of(series.begin(), series.end(), [row](const Row* s) { return *s == *row; })) {
                    series.push_back(row);
                }
            }
        }
        for (std::size_t o = 0; o < series.size(); ++o) {
            const std::string& label = std::get<1>(key);
            out.push_back(
                {std::get<0>(key), o == 0 ? label : label + " #" + std::to_string(o + 1), series[o]});
        }
    }
    return out;
}

// One row per class and series identity.
std::map<std::pair<std::string, std::string>, Row> BySeries(const ParsedCsv& csv, const sdk::Month& month) {
    std::map<std::pair<std::string, std::string>, Row> rows;
    for (const Identified& identified : Identify(csv, month)) {
        rows[{identified.cnpj, identified.series}] = *identified.row;
    }
    return rows;
}

__int128 Sum(const ParsedCsv& csv, const Row& row, std::initializer_list<std::string_view> columns) {
    __int128 total = 0;
    for (std::string_view column : columns) {
        total += Cents(Get(csv, row, column));
    }
    return total;
}

std::string Text(__int128 value) {
    std::string digits;
    const bool negative = value < 0;
    unsigned __int128 magnitude =
        negative ? static_cast<unsigned __int128>(-value) : static_cast<unsigned __int128>(value);
    do {
        digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
        magnitude /= 10;
    } while (magnitude > 0);
    return negative ? "-" + digits : digits;
}

// round(sum of QT x VL, 2) in cents, from 8-decimal texts.
__int128 NetAssetsOf(const std::vector<const Row*>& series, const ParsedCsv& x2) {
    __int128 total = 0;
    for (const Row* row : series) {
        total += *Fixed(Get(x2, *row, "TAB_X_QT_COTA"), 8) * *Fixed(Get(x2, *row, "TAB_X_VL_COTA"), 8);
    }
    const __int128 unit = static_cast<__int128>(100'000'000) * 1'000'000;  // 1e16 / 1e2
    return total >= 0 ? (total + unit / 2) / unit : -((-total + unit / 2) / unit);
}

bool Junior(const std::string& label) {
    return label.find("Subordinada") != std::string::npos || label.find("Mezanino") != std::string::npos;
}

constexpr __int128 kBillion = 100'000'000'000;  // R$ 1 billion, in cents

// Net-worth spikes (docs/sample.md, named cases): a class whose TAB_IV_A_VL_PL is above R$ 1
// billion and more than 20 times its PL in the months before and after.
const std::set<std::pair<std::string, sdk::Month>>& NetWorthSpikes() {
    static const std::set<std::pair<std::string, sdk::Month>> spikes = [] {
        std::set<std::pair<std::string, sdk::Month>> found;
        const std::vector<sdk::Month> months = Months();
        for (std::size_t m = 1; m + 1 < months.size(); ++m) {
            const ParsedCsv& t4 = Table("IV", months[m]);
            const auto before = ByClass(Table("IV", months[m - 1]));
            const auto after = ByClass(Table("IV", months[m + 1]));
            for (const auto& [cnpj, row] : ByClass(t4)) {
                if (!before.count(cnpj) || !after.count(cnpj)) {
                    continue;
                }
                const __int128 pl = Cents(Get(t4, row, "TAB_IV_A_VL_PL"));
                const __int128 then =
                    Cents(Get(Table("IV", months[m - 1]), before.at(cnpj), "TAB_IV_A_VL_PL"));
                const __int128 next =
                    Cents(Get(Table("IV", months[m + 1]), after.at(cnpj), "TAB_IV_A_VL_PL"));
                if (pl > kBillion && pl > 20 * then && pl > 20 * next) {
                    found.insert({cnpj, months[m]});
                }
            }
        }
        return found;
    }();
    return spikes;
}

bool IsSpike(const std::string& cnpj, const sdk::Month& month) {
    return NetWorthSpikes().count({cnpj, month}) > 0;
}

// Absurd operations (docs/sample.md, named cases): tab_X_4 rows whose TAB_X_VL_TOTAL is more than
// 3 x max(PL of the month, PL of the month before) + R$ 100 million: (CNPJ, month, series, type).
using Operation = std::tuple<std::string, sdk::Month, std::string, std::string>;
const std::set<Operation>& AbsurdOperations() {
    static const std::set<Operation> absurd = [] {
        std::set<Operation> found;
        const std::vector<sdk::Month> months = Months();
        for (std::size_t m = 0; m < months.size(); ++m) {
            const ParsedCsv& t4 = Table("IV", months[m]);
            const ParsedCsv& x4 = Table("X_4", months[m]);
            const auto now = ByClass(t4);
            std::map<std::string, Row> before;
            if (m > 0) {
                before = ByClass(Table("IV", months[m - 1]));
            }
            for (const Identified& identified : Identify(x4, months[m], true)) {
                if (!now.count(identified.cnpj)) {
                    continue;
                }
                __int128 pl = Cents(Get(t4, now.at(identified.cnpj), "TAB_IV_A_VL_PL"));
                if (before.count(identified.cnpj)) {
                    pl = std::max(pl, Cents(Get(Table("IV", months[m - 1]), before.at(identified.cnpj),
                                                "TAB_IV_A_VL_PL")));
                }
                if (Cents(Get(x4, *identified.row, "TAB_X_VL_TOTAL")) > 3 * pl + kBillion / 10) {
                    found.insert({identified.cnpj, months[m], identified.series,
                                  Get(x4, *identified.row, "TAB_X_TP_OPER")});
                }
            }
        }
        return found;
    }();
    return absurd;
}

TEST(FidcReportFilesTest, HeadersAreTheRealColumnLists) {
    for (const sdk::Month& month : Months()) {
        for (const auto& [table, header] : kExpectedHeaders) {
            if (table == "VIII" && month < sdk::Month{2026, 7}) {
                continue;
            }
            SCOPED_TRACE(table + " " + month.ToString());
            std::string expected = header;
            if (OldLayout(month)) {
                // Before the class became the reporting unit: CNPJ_FUNDO, and fewer columns.
                std::vector<std::string> columns = testing::SplitFields(header);
                columns.erase(columns.begin(), columns.begin() + 2);
                columns.insert(columns.begin(), "CNPJ_FUNDO");
                std::erase_if(columns, [&](const std::string& c) {
                    return (table == "I" && (c == "CLASSE_UNICA" || c == "CLASSE" || c == "CNPJ_CLASSE" ||
                                             c == "TAB_I2C5_VL_COTA_FIF")) ||
                           (table == "X_1" && c == "ID_SUBCLASSE");
                });
                expected.clear();
                for (const std::string& c : columns) {
                    expected += (expected.empty() ? "" : ";") + c;
                }
            }
            const ParsedCsv& csv = Table(table, month);
            EXPECT_EQ(csv.header_line, expected);
            for (const Row& row : csv.rows) {
                ASSERT_EQ(row.size(), csv.header.size());
            }
        }
    }
    EXPECT_EQ(Table("I", {2026, 8}).header.size(), 109u);
    EXPECT_EQ(Table("I", {2024, 9}).header.size(), 104u);
    EXPECT_EQ(Table("I", {2023, 9}).header.size(), 104u);
    EXPECT_EQ(Table("X_1", {2024, 11}).header.size(), 5u);
}

TEST(FidcReportFilesTest, TextIsLatin1MaskedCnpjsAndIsoDates) {
    DefaultSample& sample = DefaultSample::Get();
    std::size_t cnpjs = 0;
    for (const sdk::Month& month : {sdk::Month{2024, 10}, sdk::Month{2025, 3}, sdk::Month{2026, 8}}) {
        for (const auto& [table, header] : kExpectedHeaders) {
            if (table == "VIII" && month < sdk::Month{2026, 7}) {
                continue;
            }
            const std::string& bytes = sample.FidcBytes(table, month);
            ASSERT_FALSE(bytes.empty());
            EXPECT_EQ(bytes.back(), '\n');
            EXPECT_EQ(bytes.find('\r'), std::string::npos);
            EXPECT_EQ(bytes.find('?'), std::string::npos);
            EXPECT_FALSE(sdk::IsValidUtf8(bytes) && bytes.find('\xC3') != std::string::npos);
            const ParsedCsv& csv = Table(table, month);
            for (std::size_t c = 0; c < csv.header.size(); ++c) {
                const std::string& column = csv.header[c];
                for (const Row& row : csv.rows) {
                    const std::string& value = row[c];
                    if (value.empty()) {
                        continue;
                    }
                    if (column.starts_with("CNPJ")) {
                        const auto parsed = sdk::ParseCnpj(value);
                        ASSERT_TRUE(parsed.digits) << column << " " << value;
                        EXPECT_EQ(sdk::FormatCnpj(*parsed.digits), value);
                        ++cnpjs;
                    }
                    if (column == "DT_COMPTC") {
                        const sdk::Date end{month.year, month.month,
                                            sdk::DaysInMonth(month.year, month.month)};
                        EXPECT_EQ(value, end.ToString());
                    }
                    if (column.starts_with("TAB_") && column.find("CPF_CNPJ") == std::string::npos &&
                        column != "TAB_X_CLASSE_SERIE" && column != "TAB_X_TP_OPER") {
                        EXPECT_EQ(value.find_first_not_of("-0123456789."), std::string::npos)
                            << column << value;
                    }
                }
            }
        }
    }
    EXPECT_GT(cnpjs, 5000u);
    EXPECT_EQ(Table("I", {2026, 8}).rows.front()[0], "Classe");
}

TEST(FidcReportIdentitiesTest, BalanceSheetAddsUp) {
    std::size_t checked = 0;
    std::size_t with_bands = 0;
    std::size_t blank_bands = 0;
    std::size_t delinquent_above_15 = 0;
    for (const sdk::Month& month : Months()) {
        SCOPED_TRACE(month.ToString());
        const ParsedCsv& t1 = Table("I", month);
        const ParsedCsv& t2 = Table("II", month);
        const ParsedCsv& t3 = Table("III", month);
        const ParsedCsv& t4 = Table("IV", month);
        const ParsedCsv& t5 = Table("V", month);
        const ParsedCsv& t6 = Table("VI", month);
        const ParsedCsv& x5 = Table("X_5", month);
        const auto i = ByClass(t1);
        const auto ii = ByClass(t2);
        const auto iii = ByClass(t3);
        const auto iv = ByClass(t4);
        const auto v = ByClass(t5);
        const auto vi = ByClass(t6);
        const auto liquidity = ByClass(x5);
        for (const auto& [cnpj, a] : i) {
            SCOPED_TRACE(cnpj);
            ++checked;
            const auto c = [&](std::string_view column) { return Cents(Get(t1, a, column)); };
            const __int128 assets = c("TAB_I_VL_ATIVO");
            EXPECT_EQ(assets, c("TAB_I1_VL_DISP") + c("TAB_I2_VL_CARTEIRA") + c("TAB_I3_VL_POSICAO_DERIV") +
                                  c("TAB_I4_VL_OUTRO_ATIVO"));
            const __int128 securities =
                Sum(t1, a,
                    {"TAB_I2C1_VL_DEBENTURE", "TAB_I2C2_VL_CRI", "TAB_I2C3_VL_NP_COMERC",
                     "TAB_I2C4_VL_LETRA_FINANC", "TAB_I2C5_VL_COTA_FUNDO_ICVM555", "TAB_I2C6_VL_OUTRO"}) +
                (OldLayout(month) ? 0 : c("TAB_I2C5_VL_COTA_FIF"));
            EXPECT_EQ(c("TAB_I2C_VL_VLMOB"), securities);
            EXPECT_EQ(c("TAB_I2_VL_CARTEIRA"),
                      c("TAB_I2A_VL_DIRCRED_RISCO") + c("TAB_I2B_VL_DIRCRED_SEM_RISCO") + securities +
                          Sum(t1, a,
                              {"TAB_I2D_VL_TITPUB_FED", "TAB_I2E_VL_CDB", "TAB_I2F_VL_OPER_COMPROM",
                               "TAB_I2G_VL_OUTRO_RF", "TAB_I2H_VL_COTA_FIDC", "TAB_I2I_VL_COTA_FIDC_NP",
                               "TAB_I2J_VL_CONTRATO_FUTURO"}) -
                          Sum(t1, a, {"TAB_I2_DEBENTURE_CRI", "TAB_I2_COTA_FIDC", "TAB_I2_VL_OUTRO_ATIVO"}));
            EXPECT_EQ(
                c("TAB_I3_VL_POSICAO_DERIV"),
                Sum(t1, a,
                    {"TAB_I3A_VL_MERCADO_TERMO", "TAB_I3B_VL_MERCADO_OPCAO", "TAB_I3C_VL_MERCADO_FUTURO",
                     "TAB_I3D_VL_DIFER_SWAP", "TAB_I3E_VL_COBERTURA", "TAB_I3F_VL_DEPOSITO_MARGEM"}));
            EXPECT_EQ(c("TAB_I4_VL_OUTRO_ATIVO"), c("TAB_I4A_VL_CPRAZO") + c("TAB_I4B_VL_LPRAZO"));
            EXPECT_GE(c("TAB_I1_VL_DISP"), 0);

            // Liabilities: assets less net assets, never negative.
            ASSERT_TRUE(iii.count(cnpj) && iv.count(cnpj));
            const Row& l = iii.at(cnpj);
            const __int128 net_assets = Cents(Get(t4, iv.at(cnpj), "TAB_IV_A_VL_PL"));
            const __int128 liabilities = Cents(Get(t3, l, "TAB_III_VL_PASSIVO"));
            if (IsSpike(cnpj, month)) {
                EXPECT_EQ((assets - liabilities) * 1'000, net_assets);  // the typo: 1,000 times
            } else {
                EXPECT_EQ(liabilities, assets - net_assets);
            }
            EXPECT_GE(liabilities, 0);
            EXPECT_EQ(liabilities, Sum(t3, l, {"TAB_III_A_VL_PAGAR", "TAB_III_B_VL_POSICAO_DERIV"}));
            EXPECT_EQ(Cents(Get(t3, l, "TAB_III_A_VL_PAGAR")),
                      Sum(t3, l, {"TAB_III_A1_VL_CPRAZO", "TAB_III_A2_VL_LPRAZO"}));
            EXPECT_EQ(Cents(Get(t3, l, "TAB_III_B_VL_POSICAO_DERIV")),
                      Sum(t3, l,
                          {"TAB_III_B1_VL_TERMO", "TAB_III_B2_VL_OPCAO", "TAB_III_B3_VL_FUTURO",
                           "TAB_III_B4_VL_SWAP_PAGAR"}));

            // Receivables with (a, tab_V) and without (b, tab_VI) substantial risk transfer.
            __int128 receivables = 0;
            __int128 delinquent = 0;
            for (const char kind : {'A', 'B'}) {
                const std::string p = std::string("TAB_I2") + kind;
                const ParsedCsv& bands_csv = kind == 'A' ? t5 : t6;
                const Row& bands = (kind == 'A' ? v : vi).at(cnpj);
                const std::string b = kind == 'A' ? "TAB_V_" : "TAB_VI_";
                const bool bands_blank = Get(bands_csv, bands, b + "A_VL_DIRCRED_PRAZO").empty();
                // A blank book leaves its net empty too (a component may be empty for a 0).
                const std::string net =
                    kind == 'A' ? "TAB_I2A_VL_DIRCRED_RISCO" : "TAB_I2B_VL_DIRCRED_SEM_RISCO";
                if (Get(t1, a, net).empty()) {
                    EXPECT_TRUE(bands_blank) << "bands without " << p;
                    ++blank_bands;
                    continue;
                }
                ASSERT_FALSE(bands_blank);
                __int128 gross = 0;
                for (int k = 1; k <= 10; ++k) {
                    const std::string prefix = p + std::to_string(k) + "_";
                    for (const std::string& column : t1.header) {
                        if (column.starts_with(prefix)) {
                            gross += c(column);
                        }
                    }
                }
                const __int128 parcels = c(p + "21_VL_TOTAL_PARCELA_INAD");
                const std::string provision = Get(t1, a, p + "11_VL_REDUCAO_RECUP");
                if (!provision.empty()) {
                    EXPECT_GE(Cents(provision), 0);
                    EXPECT_EQ(c(kind == 'A' ? "TAB_I2A_VL_DIRCRED_RISCO" : "TAB_I2B_VL_DIRCRED_SEM_RISCO"),
                              gross - Cents(provision));
                }
                EXPECT_LE(parcels, c(p + "2_VL_CRED_VENC_INAD"));
                // The bands sum to their totals; overdue = overdue parcels + fully delinquent
                // credits; to mature + overdue = gross.
                for (const char part : {'A', 'B', 'C'}) {
                    __int128 sum = 0;
                    std::string total_column;
                    for (std::size_t col = 0; col < bands_csv.header.size(); ++col) {
                        const std::string& name = bands_csv.header[col];
                        if (!name.starts_with(b + part)) {
                            continue;
                        }
                        if (name[b.size() + 1] == '_') {
                            total_column = name;
                        } else {
                            sum += Cents(bands[col]);
                        }
                    }
                    EXPECT_EQ(Cents(Get(bands_csv, bands, total_column)), sum) << total_column;
                }
                const __int128 overdue = Cents(Get(bands_csv, bands, b + "B_VL_DIRCRED_INAD"));
                EXPECT_EQ(overdue, parcels + c(p + "3_VL_CRED_INAD"));
                EXPECT_EQ(Cents(Get(bands_csv, bands, b + "A_VL_DIRCRED_PRAZO")) + overdue, gross);
                receivables += gross;
                delinquent += overdue;
                ++with_bands;
            }
            if (receivables > 0) {
                EXPECT_LE(delinquent * 100, receivables * 30);  // at most 30 % delinquent
                delinquent_above_15 += delinquent * 100 > receivables * 15;
            }

            // Segments (tab_II) split the gross receivables; top-level items sum their sub-items.
            const Row& s = ii.at(cnpj);
            const auto seg = [&](std::string_view column) { return Cents(Get(t2, s, column)); };
            EXPECT_EQ(seg("TAB_II_VL_CARTEIRA"), receivables);
            std::map<char, __int128> top;
            std::map<char, __int128> subs;
            for (std::size_t col = 0; col < t2.header.size(); ++col) {
                const std::string& name = t2.header[col];  // TAB_II_<L>[<digit>]_...
                if (!name.starts_with("TAB_II_") || name == "TAB_II_VL_CARTEIRA") {
                    continue;
                }
                const char letter = name[7];
                (name[8] == '_' ? top : subs)[letter] += Cents(s[col]);
            }
            __int128 all = 0;
            for (const auto& [letter, value] : top) {
                all += value;
                if (subs.count(letter)) {
                    EXPECT_EQ(value, subs[letter]) << "segment " << letter;
                }
            }
            EXPECT_EQ(top.size(), 11u);
            EXPECT_EQ(subs.size(), 5u);  // c, d, f, h, i
            EXPECT_EQ(all, receivables);

            // Liquidity (tab_X_5): cumulative buckets; up to 360 days plus beyond is the assets.
            const Row& q = liquidity.at(cnpj);
            __int128 previous = 0;
            for (std::string_view column :
                 {"TAB_X_VL_LIQUIDEZ_0", "TAB_X_VL_LIQUIDEZ_30", "TAB_X_VL_LIQUIDEZ_60",
                  "TAB_X_VL_LIQUIDEZ_90", "TAB_X_VL_LIQUIDEZ_180", "TAB_X_VL_LIQUIDEZ_360"}) {
                EXPECT_GE(Cents(Get(x5, q, column)), previous) << column;
                previous = Cents(Get(x5, q, column));
            }
            EXPECT_EQ(previous + Cents(Get(x5, q, "TAB_X_VL_LIQUIDEZ_MAIOR_360")), assets);
        }
    }
    EXPECT_GT(checked, 3500u);
    EXPECT_GT(with_bands, 3500u);
    EXPECT_GT(blank_bands, 100u);
    EXPECT_GT(delinquent_above_15, 20u);  // a few classes in trouble
}

TEST(FidcReportIdentitiesTest, NetAssetsAreQuotasTimesQuotaValues) {
    std::size_t checked = 0;
    for (const sdk::Month& month : Months()) {
        SCOPED_TRACE(month.ToString());
        const ParsedCsv& t4 = Table("IV", month);
        const ParsedCsv& x2 = Table("X_2", month);
        std::map<std::string, std::vector<const Row*>> series;
        for (const auto& [key, row] : BySeries(x2, month)) {
            series[key.first].push_back(&row);
        }
        const auto iv = ByClass(t4);
        const auto x2_rows = BySeries(x2, month);
        std::map<std::string, std::vector<const Row*>> by_class;
        for (const auto& [key, row] : x2_rows) {
            by_class[key.first].push_back(&row);
        }
        for (const auto& [cnpj, row] : iv) {
            ASSERT_TRUE(by_class.count(cnpj)) << cnpj;
            // The spike's typo is in tab_IV alone: X_2 holds the true figure.
            const __int128 factor = IsSpike(cnpj, month) ? 1'000 : 1;
            EXPECT_EQ(Text(Cents(Get(t4, row, "TAB_IV_A_VL_PL"))),
                      Text(NetAssetsOf(by_class[cnpj], x2) * factor))
                << cnpj;
            const std::string average = Get(t4, row, "TAB_IV_B_VL_PL_MEDIO");
            if (!average.empty() && Cents(Get(t4, row, "TAB_IV_A_VL_PL")) > 0) {
                EXPECT_GT(Cents(average), 0);
            }
            ++checked;
        }
        EXPECT_EQ(iv.size(), ByClass(Table("I", month)).size());
    }
    EXPECT_GT(checked, 3500u);
}

TEST(FidcReportIdentitiesTest, FlowsExplainQuotaChangesAndReturnsFollowQuotaValues) {
    std::size_t amortizations_as_named = 0;
    std::size_t amortizations_swapped = 0;
    std::size_t unmatched_amortizations = 0;
    std::size_t zero_operations = 0;
    std::size_t flows = 0;
    std::size_t returns = 0;
    std::size_t empty_returns = 0;
    std::set<std::string> operations;
    std::vector<sdk::Month> months = Months();
    for (std::size_t m = 1; m < months.size(); ++m) {
        SCOPED_TRACE(months[m].ToString());
        const ParsedCsv& before = Table("X_2", months[m - 1]);
        const ParsedCsv& x2 = Table("X_2", months[m]);
        const ParsedCsv& x3 = Table("X_3", months[m]);
        const ParsedCsv& x4 = Table("X_4", months[m]);
        const ParsedCsv& x6 = Table("X_6", months[m]);
        const auto previous = BySeries(before, months[m - 1]);
        const auto current = BySeries(x2, months[m]);
        const auto rates = BySeries(x3, months[m]);
        const auto performance = BySeries(x6, months[m]);
        std::map<std::pair<std::string, std::string>, __int128> subscribed;
        std::map<std::pair<std::string, std::string>, __int128> redeemed;
        std::map<std::pair<std::string, std::string>, std::map<std::string, Row>> ops;
        for (const Identified& identified : Identify(x4, months[m], true)) {
            ops[{identified.cnpj, identified.series}][Get(x4, *identified.row, "TAB_X_TP_OPER")] =
                *identified.row;
        }
        for (const auto& [key, by_type] : ops) {
            if (!current.count(key)) {
                // Only the planned amortization under a label X_2 lacks, columns reversed.
                ASSERT_TRUE(key.second.ends_with(" Tipo Subclasse")) << key.first << " " << key.second;
                ASSERT_EQ(by_type.size(), 1u);
                EXPECT_EQ(by_type.begin()->first, "Amortizações");
                ++unmatched_amortizations;
                continue;
            }
            const __int128 value = *Fixed(Get(x2, current.at(key), "TAB_X_VL_COTA"), 8);
            const std::string quotas = Get(x2, current.at(key), "TAB_X_QT_COTA");
            for (const auto& [type, row] : by_type) {
                operations.insert(type);
                const auto quantity = Fixed(Get(x4, row, "TAB_X_QT_COTA"), 8);
                __int128 total = Cents(Get(x4, row, "TAB_X_VL_TOTAL"));
                EXPECT_GE(total, 0);
                if (total == 0) {
                    ++zero_operations;  // the class that lists every series and operation
                }
                SCOPED_TRACE(key.first + " " + key.second + " " + type);
                if (type == "Amortizações") {
                    if (Get(x4, row, "TAB_X_QT_COTA") == quotas) {
                        ++amortizations_as_named;  // the BRL total, on every quota of the series
                        continue;
                    }
                    // Reversed: the amount per quota (cents) and the BRL total (cents), whose
                    // ratio is the series' quota count within 1 %.
                    const __int128 brl = Cents(Get(x4, row, "TAB_X_QT_COTA"));
                    const __int128 series_quotas = *Fixed(quotas, 8);  // 1e-8
                    const __int128 implied = brl * 100'000'000 / total;
                    const __int128 gap =
                        implied > series_quotas ? implied - series_quotas : series_quotas - implied;
                    EXPECT_LE(gap * 100, series_quotas) << key.first << " " << key.second;
                    ++amortizations_swapped;
                    continue;
                }
                ASSERT_TRUE(quantity.has_value()) << type;
                if (AbsurdOperations().count({key.first, months[m], key.second, type})) {
                    // The absurd amount: 1,000 times the quantity at the month's quota value.
                    EXPECT_EQ(Text(total % 1'000), "0");
                    total /= 1'000;
                }
                // The total is the quantity at the month's quota value, to the cent.
                const __int128 exact = *quantity * value;  // 1e-16 R$
                const __int128 unit = static_cast<__int128>(100'000'000) * 1'000'000;
                const __int128 diff = total * unit - exact;
                EXPECT_LE(diff < 0 ? -diff : diff, unit / 2) << type;
                if (type == "Captações no Mês") {
                    subscribed[key] += *quantity;
                } else if (type == "Resgates no Mês") {
                    redeemed[key] += *quantity;
                }
            }
        }
        for (const auto& [key, row] : current) {
            const auto found = previous.find(key);
            if (found == previous.end()) {
                continue;  // a series (or a class) reported for the first time, or after a gap
            }
            const __int128 now = *Fixed(Get(x2, row, "TAB_X_QT_COTA"), 8);
            const __int128 then = *Fixed(Get(before, found->second, "TAB_X_QT_COTA"), 8);
            EXPECT_EQ(Text(now), Text(then + subscribed[key] - redeemed[key]))
                << key.first << " " << key.second;
            ++flows;

            const std::string rate = Get(x3, rates.at(key), "TAB_X_VL_RENTAB_MES");
            if (rate.empty()) {
                ++empty_returns;
                continue;
            }
            const __int128 value = *Fixed(Get(x2, row, "TAB_X_VL_COTA"), 8);
            const __int128 last = *Fixed(Get(before, found->second, "TAB_X_VL_COTA"), 8);
            // percent with two decimals: (value / last - 1) * 100, within a rounding step
            const __int128 scaled = (value - last) * 10'000 * 2;
            const __int128 expected = scaled >= 0 ? (scaled / last + 1) / 2 : -((-scaled / last + 1) / 2);
            const __int128 printed = *Fixed(rate, 2);
            EXPECT_LE(printed - expected <= 0 ? expected - printed : printed - expected, 1)
                << key.first << " " << key.second;
            EXPECT_EQ(Get(x6, performance.at(key), "TAB_X_PR_DESEMP_REAL"), rate);
            ++returns;
        }
        // Every series reported has a return row and a performance row.
        EXPECT_EQ(rates.size(), current.size());
        EXPECT_EQ(performance.size(), current.size());
    }
    EXPECT_GT(amortizations_as_named, 100u);
    EXPECT_GT(amortizations_swapped, 0u);  // the planned class files them the other way round
    EXPECT_EQ(unmatched_amortizations, 1u);
    EXPECT_GT(zero_operations, 0u);
    EXPECT_GT(flows, 8000u);
    EXPECT_GT(returns, 8000u);
    EXPECT_GT(empty_returns, 0u);
    EXPECT_EQ(operations, (std::set<std::string>{"Captações no Mês", "Resgates no Mês", "Amortizações",
                                                 "Resgates Solicitados"}));
}

TEST(FidcReportIdentitiesTest, HolderCountsBySeniorityAddUp) {
    std::size_t checked = 0;
    for (const sdk::Month& month : Months()) {
        SCOPED_TRACE(month.ToString());
        const ParsedCsv& x1 = Table("X_1", month);
        const ParsedCsv& x11 = Table("X_1_1", month);
        std::map<std::string, std::pair<__int128, __int128>> counted;
        std::set<std::string> incomplete;
        for (const auto& [key, row] : BySeries(x1, month)) {
            const std::string holders = Get(x1, row, "TAB_X_NR_COTST");
            if (holders.empty()) {
                incomplete.insert(key.first);
                continue;
            }
            EXPECT_GE(std::stoll(holders), 1);
            (Junior(key.second) ? counted[key.first].second : counted[key.first].first) +=
                std::stoll(holders);
        }
        for (const auto& [cnpj, row] : ByClass(x11)) {
            if (incomplete.count(cnpj)) {
                continue;
            }
            __int128 senior = 0;
            __int128 junior = 0;
            for (std::size_t col = 0; col < x11.header.size(); ++col) {
                if (x11.header[col].starts_with("TAB_X_NR_COTST_SENIOR_")) {
                    senior += std::stoll(row[col]);
                } else if (x11.header[col].starts_with("TAB_X_NR_COTST_SUBORD_")) {
                    junior += std::stoll(row[col]);
                }
            }
            EXPECT_EQ(Text(senior), Text(counted[cnpj].first)) << cnpj;
            EXPECT_EQ(Text(junior), Text(counted[cnpj].second)) << cnpj;
            ++checked;
        }
    }
    EXPECT_GT(checked, 3500u);
}

TEST(FidcReportContentTest, SeriesLabelsAndSubclassIds) {
    std::set<std::string> labels;
    std::map<std::string, std::string> subclass_class;  // ID_Subclasse -> CNPJ_Classe (bare)
    {
        const ParsedCsv& classes = DefaultSample::Get().File("registro_classe.csv");
        const ParsedCsv& subclasses = DefaultSample::Get().File("registro_subclasse.csv");
        std::map<std::string, std::string> class_cnpj;
        for (const Row& row : classes.rows) {
            class_cnpj[row[classes.Column("ID_Registro_Classe")]] = row[classes.Column("CNPJ_Classe")];
        }
        for (const Row& row : subclasses.rows) {
            subclass_class[row[subclasses.Column("ID_Subclasse")]] =
                class_cnpj[row[subclasses.Column("ID_Registro_Classe")]];
        }
    }
    std::size_t with_id = 0;
    std::map<std::pair<std::string, std::string>, std::string> id_of_series;
    for (const sdk::Month& month : Months()) {
        const ParsedCsv& x1 = Table("X_1", month);
        for (const auto& [key, row] : BySeries(x1, month)) {
            labels.insert(key.second);
            EXPECT_LE(key.second.size(), 49u + 4u);  // varchar(49), a few accented letters in UTF-8
            if (OldLayout(month)) {
                continue;
            }
            const std::string id = Get(x1, row, "ID_SUBCLASSE");
            // A label is stable: the same series keeps its subclass id month after month.
            const auto [it, inserted] = id_of_series.emplace(key, id);
            EXPECT_EQ(it->second, id) << key.first << " " << key.second;
            if (!id.empty()) {
                ASSERT_TRUE(subclass_class.count(id)) << id;
                EXPECT_EQ(sdk::FormatCnpj(subclass_class[id]), key.first);
                ++with_id;
            }
        }
    }
    EXPECT_GT(with_id, 500u);
    for (const char* label :
         {"Subclasse Senior Série 1", "Classe Sênior", "Sênior", "Senior 2",
          "Subclasse Subordinada Cota Mezanino | Serie 1", "Subordinada Mezanino",
          "Subclasse Subordinada Sub | Subordinada 1", "Subordinada Júnior", "Subordinada"}) {
        EXPECT_TRUE(labels.count(label)) << label;
    }
}

TEST(FidcReportContentTest, DominantSegmentFollowsTheTheme) {
    const ParsedCsv& t2 = Table("II", {2026, 8});
    const std::vector<std::pair<std::string, std::string>> expectations{
        {"consignado", "TAB_II_F2_VL_CRED_PESSOA_CONSIG"},
        {"precatorios", "TAB_II_I1_VL_PRECAT"},
        {"agronegocio", "TAB_II_E_VL_AGRONEG"},
    };
    for (const auto& [word, segment] : expectations) {
        std::size_t classes = 0;
        for (const Row& row : t2.rows) {
            if (sdk::FoldForSearch(Get(t2, row, "DENOM_SOCIAL")).find(word) == std::string::npos ||
                Cents(Get(t2, row, "TAB_II_VL_CARTEIRA")) == 0) {
                continue;
            }
            std::string largest;
            __int128 best = -1;
            for (std::size_t col = 5; col < t2.header.size(); ++col) {
                const std::string& name = t2.header[col];  // 2026-08: the segments start at column 5
                const bool has_parts = name == "TAB_II_C_VL_COMERC" || name == "TAB_II_D_VL_SERV" ||
                                       name == "TAB_II_F_VL_FINANC" || name == "TAB_II_H_VL_FACTOR" ||
                                       name == "TAB_II_I_VL_SETOR_PUBLICO";
                if (!has_parts && Cents(row[col]) > best) {
                    best = Cents(row[col]);
                    largest = name;
                }
            }
            EXPECT_EQ(largest, segment) << Get(t2, row, "DENOM_SOCIAL");
            ++classes;
        }
        EXPECT_GT(classes, 0u) << word;
    }
}

TEST(FidcReportContentTest, EvolutionIsSmooth) {
    std::vector<double> changes;
    std::vector<double> senior_returns;
    const std::vector<sdk::Month> months = Months();
    for (std::size_t m = 1; m < months.size(); ++m) {
        const auto before = ByClass(Table("IV", months[m - 1]));
        const ParsedCsv& t4 = Table("IV", months[m]);
        for (const auto& [cnpj, row] : ByClass(t4)) {
            const auto found = before.find(cnpj);
            if (found == before.end()) {
                continue;
            }
            const auto then =
                static_cast<double>(Cents(Get(Table("IV", months[m - 1]), found->second, "TAB_IV_A_VL_PL")));
            const auto now = static_cast<double>(Cents(Get(t4, row, "TAB_IV_A_VL_PL")));
            if (then > 0) {
                changes.push_back(now / then - 1);
            }
        }
        const ParsedCsv& x3 = Table("X_3", months[m]);
        for (const auto& [key, row] : BySeries(x3, months[m])) {
            const std::string rate = Get(x3, row, "TAB_X_VL_RENTAB_MES");
            if (!rate.empty() && !Junior(key.second)) {
                senior_returns.push_back(std::stod(rate));
            }
        }
    }
    std::sort(changes.begin(), changes.end());
    std::sort(senior_returns.begin(), senior_returns.end());
    ASSERT_GT(changes.size(), 3000u);
    EXPECT_GT(changes[changes.size() / 10], -0.06);  // 80 % of the months move less than ~6-10 %
    EXPECT_LT(changes[changes.size() * 9 / 10], 0.10);
    const double median = senior_returns[senior_returns.size() / 2];
    EXPECT_GT(median, 0.8);  // about 1 % a month
    EXPECT_LT(median, 1.6);
}

TEST(FidcReportContentTest, LargestDebtorsOnlyFromJuly2026) {
    for (const sdk::Month& month : Months()) {
        Table("I", month);  // renders the month
        EXPECT_EQ(
            DefaultSample::Get().HasMember("inf_mensal_fidc_tab_VIII_" + testing::Yyyymm(month) + ".csv"),
            !(month < sdk::Month{2026, 7}))
            << month.ToString();
    }
    for (const sdk::Month& month : {sdk::Month{2026, 7}, sdk::Month{2026, 8}}) {
        const ParsedCsv& viii = Table("VIII", month);
        const auto portfolio = ByClass(Table("II", month));
        std::map<std::string, std::vector<std::pair<int, __int128>>> debtors;
        for (const Row& row : viii.rows) {
            debtors[KeyCnpj(viii, row)].emplace_back(std::stoi(Get(viii, row, "SEQUENCIAL")),
                                                     Cents(Get(viii, row, "VALOR")));
        }
        EXPECT_GT(debtors.size(), 100u);
        for (const auto& [cnpj, list] : debtors) {
            ASSERT_EQ(list.size(), 25u) << cnpj;
            __int128 total = 0;
            for (std::size_t i = 0; i < list.size(); ++i) {
                EXPECT_EQ(list[i].first, static_cast<int>(i + 1));
                if (i > 0) {
                    EXPECT_LE(list[i].second, list[i - 1].second);
                }
                total += list[i].second;
            }
            EXPECT_LE(total, Cents(Get(Table("II", month), portfolio.at(cnpj), "TAB_II_VL_CARTEIRA")));
        }
    }
}

TEST(FidcReportLayoutTest, OldestMonthsKeyOnTheFundCnpjOfSingleClassFunds) {
    const ParsedCsv& funds = DefaultSample::Get().File("registro_fundo.csv");
    const ParsedCsv& classes = DefaultSample::Get().File("registro_classe.csv");
    std::map<std::string, std::string> fund_cnpj;
    for (const Row& row : funds.rows) {
        fund_cnpj[row[funds.Column("ID_Registro_Fundo")]] = sdk::FormatCnpj(row[funds.Column("CNPJ_Fundo")]);
    }
    std::map<std::string, int> classes_of;
    for (const Row& row : classes.rows) {
        ++classes_of[fund_cnpj[row[classes.Column("ID_Registro_Fundo")]]];
    }
    std::size_t old_months = 0;
    for (const sdk::Month& month : Months()) {
        if (!OldLayout(month)) {
            continue;
        }
        ++old_months;
        for (const auto& [table, header] : kExpectedHeaders) {
            if (table == "VIII") {
                continue;
            }
            const ParsedCsv& csv = Table(table, month);
            ASSERT_EQ(csv.header[0], "CNPJ_FUNDO");
            for (const Row& row : csv.rows) {
                EXPECT_EQ(classes_of[row[0]], 1) << table << " " << row[0];
            }
        }
        EXPECT_GT(Table("IV", month).rows.size(), 100u);
    }
    EXPECT_EQ(old_months, 15u);  // 2023-09 .. 2024-11
    // From 2024-12 the classes of multi-class funds report under their own CNPJs.
    std::size_t of_multi_class_funds = 0;
    for (const Row& row : Table("IV", {2024, 12}).rows) {
        of_multi_class_funds += classes_of.count(row[1]) == 0;
    }
    EXPECT_GT(of_multi_class_funds, 0u);
    EXPECT_EQ(Table("IV", {2024, 12}).header[0], "TP_FUNDO_CLASSE");
}

TEST(FidcReportIrregularitiesTest, MissingMonthsAndAClassThatStops) {
    const auto april = ByClass(Table("IV", {2026, 4}));
    const auto may = ByClass(Table("IV", {2026, 5}));
    const auto june = ByClass(Table("IV", {2026, 6}));
    std::size_t skipped = 0;
    for (const auto& [cnpj, row] : april) {
        skipped += june.count(cnpj) && !may.count(cnpj);
    }
    EXPECT_GE(skipped, 2u);

    std::set<std::string> later;
    for (sdk::Month m{2026, 1}; !(sdk::Month{2026, 8} < m); m = m.Next()) {
        for (const auto& [cnpj, row] : ByClass(Table("IV", m))) {
            later.insert(cnpj);
        }
    }
    const ParsedCsv& classes = DefaultSample::Get().File("registro_classe.csv");
    std::map<std::string, std::string> situation;
    for (const Row& row : classes.rows) {
        situation[sdk::FormatCnpj(row[classes.Column("CNPJ_Classe")])] = row[classes.Column("Situacao")];
    }
    std::size_t stopped = 0;
    for (const auto& [cnpj, row] : ByClass(Table("IV", {2025, 12}))) {
        stopped += !later.count(cnpj) && situation[cnpj] == "Em Funcionamento Normal";
    }
    EXPECT_GE(stopped, 1u);
}

TEST(FidcReportIrregularitiesTest, AMonthFiledAsFundoAndAsClasse) {
    const sdk::Month month{2025, 3};
    std::set<std::string> in_every_table;
    bool first = true;
    for (const auto& [table, header] : kExpectedHeaders) {
        if (table == "VIII" || table == "X_4") {
            continue;  // tab_X_4 has rows only for the operations of the month
        }
        const ParsedCsv& csv = Table(table, month);
        std::set<std::string> as_fund;
        std::set<std::string> as_class;
        for (const Row& row : csv.rows) {
            (row[0] == "Fundo" ? as_fund : as_class).insert(row[1]);
        }
        std::set<std::string> both;
        for (const std::string& cnpj : as_fund) {
            if (as_class.count(cnpj)) {
                both.insert(cnpj);
            }
        }
        EXPECT_GE(both.size(), 2u) << table;
        if (first) {
            in_every_table = both;
            first = false;
        } else {
            std::erase_if(in_every_table, [&](const std::string& cnpj) { return !both.count(cnpj); });
        }
    }
    EXPECT_GE(in_every_table.size(), 2u);
    const ParsedCsv& t4 = Table("IV", month);
    for (const std::string& cnpj : in_every_table) {
        std::map<std::string, std::string> net_assets;
        for (const Row& row : t4.rows) {
            if (row[1] == cnpj) {
                net_assets[row[0]] = Get(t4, row, "TAB_IV_A_VL_PL");
            }
        }
        ASSERT_EQ(net_assets.size(), 2u);
        EXPECT_NE(net_assets["Fundo"], net_assets["Classe"]) << cnpj;
        EXPECT_LT(Cents(net_assets["Fundo"]), Cents(net_assets["Classe"])) << cnpj;
    }
}

TEST(FidcReportIrregularitiesTest, ConflictingAndRepeatedLines) {
    // 2025-06: two Classe rows for one key in tab_IV and tab_X_2; the later line agrees with
    // the other tables.
    const sdk::Month month{2025, 6};
    const ParsedCsv& t4 = Table("IV", month);
    const ParsedCsv& x2 = Table("X_2", month);
    std::map<std::string, std::vector<const Row*>> classe_rows;
    for (const Row& row : t4.rows) {
        if (row[0] == "Classe") {
            classe_rows[row[1]].push_back(&row);
        }
    }
    std::size_t conflicting = 0;
    const auto latest_series = BySeries(x2, month);
    const auto assets = ByClass(Table("I", month));
    const auto liabilities = ByClass(Table("III", month));
    for (const auto& [cnpj, rows] : classe_rows) {
        if (rows.size() < 2) {
            continue;
        }
        ++conflicting;
        ASSERT_EQ(rows.size(), 2u);
        EXPECT_NE(Get(t4, *rows[0], "TAB_IV_A_VL_PL"), Get(t4, *rows[1], "TAB_IV_A_VL_PL"));
        std::vector<const Row*> series;
        std::size_t series_lines = 0;
        for (const auto& [key, row] : latest_series) {
            if (key.first == cnpj) {
                series.push_back(&row);
            }
        }
        for (const Row& row : x2.rows) {
            series_lines += row[0] == "Classe" && row[1] == cnpj;
        }
        EXPECT_EQ(series_lines, 2 * series.size()) << "every series twice in tab_X_2";
        const __int128 later = Cents(Get(t4, *rows[1], "TAB_IV_A_VL_PL"));
        EXPECT_EQ(Text(later), Text(NetAssetsOf(series, x2)));
        EXPECT_EQ(Text(later),
                  Text(Cents(Get(Table("I", month), assets.at(cnpj), "TAB_I_VL_ATIVO")) -
                       Cents(Get(Table("III", month), liabilities.at(cnpj), "TAB_III_VL_PASSIVO"))));
    }
    EXPECT_GE(conflicting, 1u);

    // Somewhere else, a line repeated byte for byte.
    std::size_t repeated = 0;
    for (const sdk::Month& m : Months()) {
        for (const auto& [table, header] : kExpectedHeaders) {
            if ((table == "VIII" && m < sdk::Month{2026, 7}) ||
                (m == month && (table == "IV" || table == "X_2"))) {
                continue;
            }
            const ParsedCsv& csv = Table(table, m);
            std::set<Row> seen;
            for (const Row& row : csv.rows) {
                repeated += !seen.insert(row).second;
            }
        }
    }
    EXPECT_GE(repeated, 1u);
}

TEST(FidcReportIrregularitiesTest, EmptyFieldsMeanMissing) {
    std::size_t average_empty = 0;
    std::size_t average_total = 0;
    std::size_t holders_empty = 0;
    std::size_t provision_empty = 0;
    std::size_t components_empty = 0;
    std::size_t bands_empty = 0;
    for (const sdk::Month& month : Months()) {
        const ParsedCsv& t4 = Table("IV", month);
        for (const Row& row : t4.rows) {
            average_empty += Get(t4, row, "TAB_IV_B_VL_PL_MEDIO").empty();
            ++average_total;
            EXPECT_FALSE(Get(t4, row, "TAB_IV_A_VL_PL").empty());
        }
        const ParsedCsv& x1 = Table("X_1", month);
        for (const Row& row : x1.rows) {
            holders_empty += Get(x1, row, "TAB_X_NR_COTST").empty();
        }
        const ParsedCsv& t1 = Table("I", month);
        for (const Row& row : t1.rows) {
            provision_empty += Get(t1, row, "TAB_I2A11_VL_REDUCAO_RECUP").empty() &&
                               !Get(t1, row, "TAB_I2A_VL_DIRCRED_RISCO").empty();
            // Zeros left empty: an empty component beside a published net (docs/sample.md).
            components_empty += !Get(t1, row, "TAB_I2A_VL_DIRCRED_RISCO").empty() &&
                                Get(t1, row, "TAB_I2A10_VL_CRED_DIVERSO").empty();
        }
        for (const std::string table : {"V", "VI"}) {
            const ParsedCsv& bands = Table(table, month);
            for (const Row& row : bands.rows) {
                bands_empty += !Get(bands, row, "TAB_" + table + "_B_VL_DIRCRED_INAD").empty() &&
                               Get(bands, row, "TAB_" + table + "_B1_VL_INAD_30").empty();
            }
        }
    }
    EXPECT_GE(components_empty, 1u);
    EXPECT_GE(bands_empty, 1u);
    EXPECT_GT(average_empty, 10u);
    EXPECT_LT(average_empty * 10, average_total);
    EXPECT_GE(holders_empty, 1u);
    EXPECT_GE(provision_empty, 1u);
    EXPECT_GE(DefaultSample::Get().TheHistory().irregularities.size(), 20u);
}

// ---- The history as a whole: its months, its reporters, its descriptive tables.

TEST(FidcReportHistoryTest, ThirtySixMonthsOfReports) {
    const History& history = DefaultSample::Get().TheHistory();
    EXPECT_EQ(history.month_count, 36);
    EXPECT_EQ(history.first_month, (sdk::Month{2023, 9}));
    EXPECT_EQ(Months().size(), 36u);
    for (const sdk::Month& month : Months()) {
        EXPECT_GT(ByClass(Table("IV", month)).size(), 120u) << month.ToString();
    }
}

TEST(FidcReportHistoryTest, ReportersComeAndGo) {
    // Month to month a few classes start reporting and a few stop for good (cancelled funds, a
    // class that stops filing); besides, two classes skip a month and come back.
    const std::vector<sdk::Month> months = Months();
    std::vector<std::set<std::string>> reporters;
    for (const sdk::Month& month : months) {
        std::set<std::string> cnpjs;
        for (const auto& [cnpj, row] : ByClass(Table("IV", month))) {
            cnpjs.insert(cnpj);
        }
        reporters.push_back(std::move(cnpjs));
    }
    std::size_t entries = 0;
    std::size_t exits = 0;
    for (std::size_t m = 1; m < months.size(); ++m) {
        std::size_t in = 0;
        std::size_t out = 0;
        for (const std::string& cnpj : reporters[m]) {
            in += !reporters[m - 1].count(cnpj);
        }
        for (const std::string& cnpj : reporters[m - 1]) {
            bool back = false;
            for (std::size_t later = m; later < months.size() && !back; ++later) {
                back = reporters[later].count(cnpj) > 0;
            }
            out += !back;
        }
        if (months[m] != sdk::Month{2024, 12}) {  // the classes of multi-class funds start then
            EXPECT_LE(in + out, 6u) << months[m].ToString();
            entries += in;
        }
        exits += out;
    }
    EXPECT_GE(entries, 30u);
    EXPECT_GE(exits, 3u);
}

TEST(FidcReportHistoryTest, InvestorsLiquidityAndAssignorsFilledForMostClasses) {
    std::size_t classes = 0;
    std::size_t with_investors = 0;
    std::size_t with_liquidity = 0;
    std::size_t with_receivables = 0;
    std::size_t with_assignors = 0;
    for (const sdk::Month& month : Months()) {
        const ParsedCsv& t1 = Table("I", month);
        const ParsedCsv& x11 = Table("X_1_1", month);
        const ParsedCsv& x5 = Table("X_5", month);
        const auto investors = ByClass(x11);
        const auto liquidity = ByClass(x5);
        for (const auto& [cnpj, row] : ByClass(t1)) {
            ++classes;
            if (investors.count(cnpj)) {
                __int128 holders = 0;
                for (std::size_t col = 0; col < x11.header.size(); ++col) {
                    if (x11.header[col].starts_with("TAB_X_NR_COTST_")) {
                        holders += std::stoll(investors.at(cnpj)[col]);
                    }
                }
                with_investors += holders > 0;
            }
            with_liquidity +=
                liquidity.count(cnpj) && !Get(x5, liquidity.at(cnpj), "TAB_X_VL_LIQUIDEZ_MAIOR_360").empty();
            if (Cents(Get(t1, row, "TAB_I2A_VL_DIRCRED_RISCO")) > 0) {
                ++with_receivables;
                __int128 percent = 0;
                for (int n = 1; n <= 9; ++n) {
                    const std::string share = Get(t1, row, "TAB_I2A12_PR_CEDENTE_" + std::to_string(n));
                    EXPECT_EQ(share.empty(),
                              Get(t1, row, "TAB_I2A12_CPF_CNPJ_CEDENTE_" + std::to_string(n)).empty());
                    percent += Fixed(share, 2).value_or(0);
                }
                EXPECT_LE(percent, 100'00) << cnpj;
                with_assignors += percent > 0;
            }
        }
    }
    EXPECT_GE(with_investors * 100, classes * 95);
    EXPECT_EQ(with_liquidity, classes);
    EXPECT_GE(with_assignors * 100, with_receivables * 95);
    EXPECT_GT(with_receivables * 100, classes * 80);
}

// ---- The named cases (docs/sample.md): what indicators over the whole industry must cope with.

// The registry's FIDC-family classes: masked CNPJ -> Tipo_Fundo of the fund; and the classes of
// each fund whose classes have CNPJs of their own (masked fund CNPJ -> class CNPJs).
struct Registry {
    std::map<std::string, std::string> type_of_class;
    std::map<std::string, std::set<std::string>> classes_of_fund;
};

const Registry& TheRegistry() {
    static const Registry registry = [] {
        const ParsedCsv& funds = DefaultSample::Get().File("registro_fundo.csv");
        const ParsedCsv& classes = DefaultSample::Get().File("registro_classe.csv");
        std::map<std::string, std::pair<std::string, std::string>> fund;  // id -> (CNPJ, type)
        for (const Row& row : funds.rows) {
            fund[row[funds.Column("ID_Registro_Fundo")]] = {sdk::FormatCnpj(row[funds.Column("CNPJ_Fundo")]),
                                                            row[funds.Column("Tipo_Fundo")]};
        }
        Registry out;
        for (const Row& row : classes.rows) {
            const auto& [fund_cnpj, type] = fund[row[classes.Column("ID_Registro_Fundo")]];
            const std::string cnpj = sdk::FormatCnpj(row[classes.Column("CNPJ_Classe")]);
            out.type_of_class[cnpj] = type;
            if (cnpj != fund_cnpj) {
                out.classes_of_fund[fund_cnpj].insert(cnpj);
            }
        }
        return out;
    }();
    return registry;
}

TEST(FidcReportNamedCasesTest, OneNetWorthSpikeAndOneAbsurdSubscription) {
    // The spike's figure is in tab_IV alone (BalanceSheetAddsUp and NetAssetsAreQuotasTimesQuotaValues
    // find the true one in the other tables).
    ASSERT_EQ(NetWorthSpikes().size(), 1u);
    const auto& [cnpj, month] = *NetWorthSpikes().begin();
    EXPECT_LT((sdk::Month{2023, 9}), month);
    EXPECT_LT(month, (sdk::Month{2026, 8}));
    ASSERT_EQ(AbsurdOperations().size(), 1u);
    const auto& [absurd_cnpj, absurd_month, series, type] = *AbsurdOperations().begin();
    EXPECT_EQ(type, "Captações no Mês");
    EXPECT_NE(absurd_cnpj, cnpj);
    // The class reported the month before, so both bounds of the rule are there.
    EXPECT_TRUE(ByClass(Table("IV", absurd_month.Previous())).count(absurd_cnpj));
}

TEST(FidcReportNamedCasesTest, ANegativeNetWorthInAClassLastReport) {
    std::vector<std::pair<std::string, sdk::Month>> negative;
    for (const sdk::Month& month : Months()) {
        const ParsedCsv& t4 = Table("IV", month);
        for (const auto& [cnpj, row] : ByClass(t4)) {
            if (Cents(Get(t4, row, "TAB_IV_A_VL_PL")) < 0) {
                negative.emplace_back(cnpj, month);
            }
        }
    }
    ASSERT_EQ(negative.size(), 1u);
    const auto& [cnpj, month] = negative.front();
    SCOPED_TRACE(cnpj + " " + month.ToString());
    const __int128 assets =
        Cents(Get(Table("I", month), ByClass(Table("I", month)).at(cnpj), "TAB_I_VL_ATIVO"));
    const __int128 liabilities =
        Cents(Get(Table("III", month), ByClass(Table("III", month)).at(cnpj), "TAB_III_VL_PASSIVO"));
    EXPECT_GT(assets, 0);
    EXPECT_GT(liabilities, assets);
    // The most junior series carries the loss: its quota value is negative.
    const ParsedCsv& x2 = Table("X_2", month);
    std::size_t series = 0;
    std::vector<std::string> negative_quotas;
    for (const auto& [key, row] : BySeries(x2, month)) {
        if (key.first == cnpj) {
            ++series;
            if (*Fixed(Get(x2, row, "TAB_X_VL_COTA"), 8) < 0) {
                negative_quotas.push_back(key.second);
            }
        }
    }
    ASSERT_EQ(negative_quotas.size(), 1u);
    EXPECT_TRUE(Junior(negative_quotas.front()) || series == 1) << negative_quotas.front();
    // Its last report.
    for (const sdk::Month& later : Months()) {
        if (month < later) {
            EXPECT_FALSE(ByClass(Table("IV", later)).count(cnpj)) << later.ToString();
        }
    }
}

TEST(FidcReportNamedCasesTest, AFundLevelReportBesideItsClasses) {
    const Registry& registry = TheRegistry();
    std::set<std::string> funds;
    std::size_t months = 0;
    for (const sdk::Month& month : Months()) {
        if (OldLayout(month)) {
            continue;
        }
        const ParsedCsv& t4 = Table("IV", month);
        const auto classes = ByClass(t4);
        for (const Row& row : t4.rows) {
            if (row[0] != "Fundo" || classes.count(row[1])) {
                continue;  // a Classe report, or the Fundo copy of one (AMonthFiledAsFundoAndAsClasse)
            }
            SCOPED_TRACE(row[1] + " " + month.ToString());
            ASSERT_TRUE(registry.classes_of_fund.count(row[1]))
                << "a fund whose classes have CNPJs of their own";
            std::size_t reporting = 0;
            __int128 total = 0;
            for (const std::string& cnpj : registry.classes_of_fund.at(row[1])) {
                if (classes.count(cnpj)) {
                    ++reporting;
                    total += Cents(Get(t4, classes.at(cnpj), "TAB_IV_A_VL_PL"));
                }
            }
            EXPECT_GE(reporting, 2u);
            // The fund's PL is its classes' (each rounded to the cent on its own).
            const __int128 fund = Cents(Get(t4, row, "TAB_IV_A_VL_PL"));
            EXPECT_LE(fund > total ? fund - total : total - fund, static_cast<__int128>(reporting));
            // Every one-row table has the fund's row too.
            for (const char* table : {"I", "II", "III", "V", "VI", "VII", "IX", "X", "X_1_1", "X_5", "X_7"}) {
                const ParsedCsv& csv = Table(table, month);
                EXPECT_EQ(std::count_if(csv.rows.begin(), csv.rows.end(),
                                        [&](const Row& r) { return r[0] == "Fundo" && r[1] == row[1]; }),
                          1)
                    << table;
            }
            funds.insert(row[1]);
            ++months;
        }
    }
    EXPECT_EQ(funds.size(), 1u);
    EXPECT_GE(months, 2u);
    EXPECT_LE(months, 3u);
}

TEST(FidcReportNamedCasesTest, FundsOfFundsHoldFidcQuotas) {
    const Registry& registry = TheRegistry();
    std::size_t fic_months = 0;
    std::size_t with_np_quotas = 0;
    for (const sdk::Month& month : Months()) {
        const ParsedCsv& t1 = Table("I", month);
        for (const auto& [cnpj, row] : ByClass(t1)) {
            if (registry.type_of_class.at(cnpj) != "FIC-FIDC") {
                continue;
            }
            SCOPED_TRACE(cnpj + " " + month.ToString());
            const __int128 assets = Cents(Get(t1, row, "TAB_I_VL_ATIVO"));
            const __int128 quotas = Sum(t1, row, {"TAB_I2H_VL_COTA_FIDC", "TAB_I2I_VL_COTA_FIDC_NP"});
            EXPECT_GE(quotas * 100, assets * 75);  // most of their assets
            EXPECT_EQ(Sum(t1, row, {"TAB_I2A_VL_DIRCRED_RISCO", "TAB_I2B_VL_DIRCRED_SEM_RISCO"}), 0);
            ++fic_months;
            with_np_quotas += Cents(Get(t1, row, "TAB_I2I_VL_COTA_FIDC_NP")) > 0;
        }
    }
    EXPECT_GT(fic_months, 500u);
    EXPECT_GT(with_np_quotas, 150u);
    EXPECT_LT(with_np_quotas, fic_months);
}

}  // namespace
}  // namespace lastro::funds::sample
