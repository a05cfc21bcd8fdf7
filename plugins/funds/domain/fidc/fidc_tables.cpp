#include "domain/fidc/fidc_tables.hpp"

#include <lastro/sdk/ingest/inputs.hpp>

#include <algorithm>

namespace lastro::funds {

namespace {

std::vector<FidcColumn> Decimals(std::initializer_list<std::string_view> names, bool required = true) {
    std::vector<FidcColumn> columns;
    for (std::string_view name : names) {
        columns.push_back({std::string(name), FidcColumnKind::kDecimal, required});
    }
    return columns;
}

void Append(std::vector<FidcColumn>& to, const std::vector<FidcColumn>& columns) {
    to.insert(to.end(), columns.begin(), columns.end());
}

// I2A1..I2A10 or I2B1..I2B10: the components of the receivables, without the sub-item x21.
std::vector<FidcColumn> ReceivableComponents(std::string_view group) {
    static constexpr std::array<std::string_view, tab_i::kComponentCount> kSuffixes = {
        "1_VL_CRED_VENC_AD",         "2_VL_CRED_VENC_INAD",        "3_VL_CRED_INAD",
        "4_VL_CRED_DIRCRED_PERFM",   "5_VL_CRED_VENCIDO_PENDENTE", "6_VL_CRED_EMP_RECUP",
        "7_VL_CRED_RECEITA_PUBLICA", "8_VL_CRED_ACAO_JUDIC",       "9_VL_CRED_FATOR_RISCO",
        "10_VL_CRED_DIVERSO"};
    std::vector<FidcColumn> columns;
    for (std::string_view suffix : kSuffixes) {
        // Summed only: the sum rule treats a column an older layout lacks like an empty one.
        columns.push_back(
            {"TAB_" + std::string(group) + std::string(suffix), FidcColumnKind::kDecimal, false});
    }
    return columns;
}

std::vector<FidcColumn> TableI() {
    std::vector<FidcColumn> columns =
        Decimals({"TAB_I_VL_ATIVO", "TAB_I2A_VL_DIRCRED_RISCO", "TAB_I2B_VL_DIRCRED_SEM_RISCO",
                  "TAB_I2A11_VL_REDUCAO_RECUP", "TAB_I2B11_VL_REDUCAO_RECUP"});
    for (std::string_view text : {"CNPJ_ADMIN", "ADMIN", "CONDOM"}) {
        columns.push_back({std::string(text), FidcColumnKind::kText, true});
    }
    Append(columns, ReceivableComponents("I2A"));
    Append(columns, ReceivableComponents("I2B"));
    return columns;
}

std::vector<FidcColumn> TableII() {
    std::vector<FidcColumn> columns = Decimals({"TAB_II_VL_CARTEIRA"});
    for (const FidcSegment& segment : FidcSegments()) {
        columns.push_back({std::string(segment.source), FidcColumnKind::kDecimal, true});
    }
    return columns;
}

// Tables V and VI share their bands: TAB_V_A1_VL_PRAZO_VENC_30 ... TAB_VI_C10_VL_ANTECIPADO_MAIOR_1080.
std::vector<FidcColumn> Bands(std::string_view section) {
    static constexpr std::array<std::string_view, tab_bands::kBands> kLimits = {
        "30", "60", "90", "120", "150", "180", "360", "720", "1080", "MAIOR_1080"};
    const std::string prefix = "TAB_" + std::string(section) + "_";
    std::vector<FidcColumn> columns;
    const auto add = [&columns](std::string name) {
        columns.push_back({std::move(name), FidcColumnKind::kDecimal, true});
    };
    add(prefix + "A_VL_DIRCRED_PRAZO");
    for (std::size_t i = 0; i < kLimits.size(); ++i) {
        add(prefix + "A" + std::to_string(i + 1) + "_VL_PRAZO_VENC_" + std::string(kLimits[i]));
    }
    add(prefix + "B_VL_DIRCRED_INAD");
    for (std::size_t i = 0; i < kLimits.size(); ++i) {
        add(prefix + "B" + std::to_string(i + 1) + "_VL_INAD_" + std::string(kLimits[i]));
    }
    add(prefix + "C_VL_DIRCRED_ANTECIPADO");
    for (std::size_t i = 0; i < kLimits.size(); ++i) {
        add(prefix + "C" + std::to_string(i + 1) + "_VL_ANTECIPADO_" + std::string(kLimits[i]));
    }
    return columns;
}

FidcColumn SeriesLabel() {
    return {"TAB_X_CLASSE_SERIE", FidcColumnKind::kText, true};
}

std::vector<FidcColumn> BuildColumns(FidcTable table) {
    switch (table) {
        case FidcTable::kI:
            return TableI();
        case FidcTable::kII:
            return TableII();
        case FidcTable::kIII:
            return Decimals({"TAB_III_VL_PASSIVO"});
        case FidcTable::kIV:
            return Decimals({"TAB_IV_A_VL_PL", "TAB_IV_B_VL_PL_MEDIO"});
        case FidcTable::kV:
            return Bands("V");
        case FidcTable::kVI:
            return Bands("VI");
        case FidcTable::kVIII:
            return {{"SEQUENCIAL", FidcColumnKind::kInteger, true}, {"VALOR", FidcColumnKind::kText, true}};
        case FidcTable::kX1:
            return {SeriesLabel(),
                    {"ID_SUBCLASSE", FidcColumnKind::kText, false},
                    {"TAB_X_NR_COTST", FidcColumnKind::kInteger, true}};
        case FidcTable::kX2:
            return {SeriesLabel(),
                    {"TAB_X_QT_COTA", FidcColumnKind::kDecimal, true},
                    {"TAB_X_VL_COTA", FidcColumnKind::kDecimal, true}};
        case FidcTable::kX3:
            return {SeriesLabel(), {"TAB_X_VL_RENTAB_MES", FidcColumnKind::kDecimal, true}};
        case FidcTable::kX4:
            return {SeriesLabel(),
                    {"TAB_X_TP_OPER", FidcColumnKind::kText, true},
                    {"TAB_X_VL_TOTAL", FidcColumnKind::kDecimal, true},
                    {"TAB_X_QT_COTA", FidcColumnKind::kDecimal, true}};
        case FidcTable::kX6:
            return {SeriesLabel(),
                    {"TAB_X_PR_DESEMP_ESPERADO", FidcColumnKind::kDecimal, true},
                    {"TAB_X_PR_DESEMP_REAL", FidcColumnKind::kDecimal, true}};
        case FidcTable::kVII:
        case FidcTable::kIX:
        case FidcTable::kX:
        case FidcTable::kX1_1:
        case FidcTable::kX5:
        case FidcTable::kX7:
            return {};
    }
    return {};
}

}  // namespace

const std::array<FidcTableInfo, kFidcTableCount>& FidcTables() {
    using enum FidcTable;
    using enum FidcShape;
    struct Rule {
        FidcTable table;
        bool required;
        FidcShape shape;
    };
    static constexpr std::array<Rule, kFidcTableCount> kRules = {{
        {kI, true, kOneRow},
        {kII, true, kOneRow},
        {kIII, true, kOneRow},
        {kIV, true, kOneRow},
        {kV, true, kOneRow},
        {kVI, true, kOneRow},
        {kVII, true, kOneRow},
        {kVIII, false, kDebtors},  // only in files published from 2026
        {kIX, true, kOneRow},
        {kX, true, kOneRow},
        {kX1, true, kSeries},
        {kX1_1, false, kOneRow},  // from 2019-11
        {kX2, true, kSeries},
        {kX3, true, kSeries},
        {kX4, true, kOperations},
        {kX5, true, kOneRow},
        {kX6, true, kSeries},
        {kX7, false, kOneRow},  // from 2019-11
    }};
    static_assert(InFidcTableOrder(kRules));
    static const std::array<FidcTableInfo, kFidcTableCount> kTables = [] {
        std::array<FidcTableInfo, kFidcTableCount> tables{};
        for (const Rule& rule : kRules) {
            tables[IndexOf(rule.table)] = {rule.table, FidcTableName(rule.table), rule.required, rule.shape};
        }
        return tables;
    }();
    return kTables;
}

const FidcTableInfo& InfoOf(FidcTable table) {
    return FidcTables()[IndexOf(table)];
}

const sdk::NamePattern& FidcMemberPattern() {
    static const sdk::NamePattern pattern("inf_mensal_fidc_tab_{NAME}_{PERIOD}.csv");
    return pattern;
}

FidcMemberName ParseMemberName(std::string_view name) {
    FidcMemberName parsed;
    const auto match = FidcMemberPattern().Matches(name);
    if (!match) {
        return parsed;
    }
    parsed.year = match->period->year;
    parsed.month = match->period->month;
    parsed.kind = FidcMemberName::Kind::kUnknownTable;
    // The table's name exactly, so X_1 and X_1_1 (or x_1) never mix.
    for (const FidcTableInfo& info : FidcTables()) {
        if (info.name == match->name) {
            parsed.kind = FidcMemberName::Kind::kTable;
            parsed.table = info.table;
        }
    }
    return parsed;
}

const std::vector<FidcColumn>& TypedColumnsOf(FidcTable table) {
    static const std::array<std::vector<FidcColumn>, kFidcTableCount> kColumns = [] {
        std::array<std::vector<FidcColumn>, kFidcTableCount> columns;
        for (const FidcTableInfo& info : FidcTables()) {
            columns[IndexOf(info.table)] = BuildColumns(info.table);
        }
        return columns;
    }();
    return kColumns[IndexOf(table)];
}

const std::array<FidcSegment, kFidcSegmentCount>& FidcSegments() {
    static constexpr std::array<FidcSegment, kFidcSegmentCount> kSegments = {{
        {"A", "industrial", "Industrial", "TAB_II_A_VL_INDUST"},
        {"B", "real_estate", "Mercado Imobiliário (não financeiro - ver itens f6 e f7)",
         "TAB_II_B_VL_IMOBIL"},
        {"C1", "commercial", "Comercial", "TAB_II_C1_VL_COMERC"},
        {"C2", "retail", "Comercial - Varejo", "TAB_II_C2_VL_VAREJO"},
        {"C3", "leasing", "Arrendamento Mercantil", "TAB_II_C3_VL_ARREND"},
        {"D1", "services", "Serviços", "TAB_II_D1_VL_SERV"},
        {"D2", "public_services", "Serviços Públicos (eletricidade, telefonia, transporte, saneamento, etc)",
         "TAB_II_D2_VL_SERV_PUBLICO"},
        {"D3", "education", "Serviços Educacionais", "TAB_II_D3_VL_SERV_EDUC"},
        {"D4", "entertainment", "Entretenimento", "TAB_II_D4_VL_ENTRET"},
        {"E", "agribusiness", "Agronegócio", "TAB_II_E_VL_AGRONEG"},
        {"F1", "personal_credit", "Crédito Pessoal", "TAB_II_F1_VL_CRED_PESSOA"},
        {"F2", "payroll_loans", "Crédito Pessoal Consignado", "TAB_II_F2_VL_CRED_PESSOA_CONSIG"},
        {"F3", "corporate_credit", "Direitos Crédito Corporativo", "TAB_II_F3_VL_CRED_CORP"},
        {"F4", "middle_market", "Middle Market", "TAB_II_F4_VL_MIDMARKET"},
        {"F5", "vehicles", "Veículos", "TAB_II_F5_VL_VEICULO"},
        {"F6", "business_real_estate", "Carteira Imobiliária - Empresarial", "TAB_II_F6_VL_IMOBIL_EMPRESA"},
        {"F7", "residential_real_estate", "Carteira Imobiliária - Residencial", "TAB_II_F7_VL_IMOBIL_RESID"},
        {"F8", "other_financial", "Outros", "TAB_II_F8_VL_OUTRO"},
        {"G", "credit_cards", "Cartão de Crédito", "TAB_II_G_VL_CREDITO"},
        {"H1", "factoring_individuals", "Factoring - Pessoal (Perfil do Sacado)", "TAB_II_H1_VL_PESSOA"},
        {"H2", "factoring_companies", "Factoring - Corporativo (Perfil do Sacado)", "TAB_II_H2_VL_CORP"},
        {"I1", "court_ordered_debts", "Precatórios", "TAB_II_I1_VL_PRECAT"},
        {"I2", "tax_credits", "Créditos Tributários", "TAB_II_I2_VL_TRIBUT"},
        {"I3", "royalties", "Royalties", "TAB_II_I3_VL_ROYALTIES"},
        {"I4", "other_public_sector", "Outros", "TAB_II_I4_VL_OUTRO"},
        {"J", "judicial", "Ações Judiciais (art. 1º, §1º, III, ICVM 444)", "TAB_II_J_VL_JUDICIAL"},
        {"K", "trademarks", "Propriedade Intelectual e Marcas & Patentes", "TAB_II_K_VL_MARCA"},
    }};
    return kSegments;
}

}  // namespace lastro::funds
