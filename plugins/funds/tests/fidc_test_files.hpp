// Test support for the FIDC monthly report: the 18 tables written in CVM's real format
// (ISO-8859-1, ';', CRLF, the published headers of FORMATS Appendix A in file order), in each
// layout era of FORMATS 1.2, as monthly zips, yearly zips or loose member CSVs; and the
// ingester run inside one write transaction, as the host runs it.
#pragma once

#include "registry_fixture.hpp"

#include "ingest/inf_mensal_fidc/fidc_report_ingester.hpp"
#include "layouts/inf_mensal_fidc.hpp"
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

// The published headers of the current layout (layouts/inf_mensal_fidc.hpp).
inline const std::map<std::string, std::vector<std::string>>& FidcCurrentHeaders() {
    static const std::map<std::string, std::vector<std::string>> kHeaders = [] {
        std::map<std::string, std::vector<std::string>> headers;
        for (const std::string& table : kFidcTableNames) {
            const auto columns = FidcColumns(table);
            headers[table] = {columns.begin(), columns.end()};
        }
        return headers;
    }();
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
    FidcReportIngester ingester;
    return sdk::testing::RunIngest(ingester, db, std::string(kFidcReportDataset), inputs, SnapshotTime());
}

struct FidcRowCounts {
    std::size_t reports = 0;
    std::size_t series = 0;
    std::size_t operations = 0;
    std::size_t answers = 0;  // the stored quota answers, one a report
    bool operator==(const FidcRowCounts&) const = default;
};

inline FidcRowCounts CountFidcRows(odb::database& db) {
    return {AllRows<FidcReport>(db).size(), AllRows<FidcSeries>(db).size(),
            AllRows<FidcQuotaOperation>(db).size(), AllRows<FidcQuotaAnswer>(db).size()};
}

// Every report with its JSON documents, which a query leaves unloaded (LoadReportDocuments).
inline std::vector<FidcReport> AllReportsWithJson(odb::database& db) {
    std::vector<FidcReport> reports = AllRows<FidcReport>(db);
    odb::transaction transaction(db.begin());
    for (FidcReport& report : reports) {
        LoadReportDocuments(db, report);
    }
    transaction.commit();
    return reports;
}

// The summed columns of a complete filing that StandardFiling leaves at "0.00": the components
// I2A1..I2A10 and I2B1..I2B10 of table I, and the to-mature and delinquent bands of tables V and
// VI. A sum is null when a component is empty (docs/api/fidc-metrics.md), so a filer that has
// nothing in a component publishes 0.00 there.
inline void PublishZeroWhereEmpty(FidcFiling& f) {
    static const char* const kComponents[10] = {
        "1_VL_CRED_VENC_AD",         "2_VL_CRED_VENC_INAD",        "3_VL_CRED_INAD",
        "4_VL_CRED_DIRCRED_PERFM",   "5_VL_CRED_VENCIDO_PENDENTE", "6_VL_CRED_EMP_RECUP",
        "7_VL_CRED_RECEITA_PUBLICA", "8_VL_CRED_ACAO_JUDIC",       "9_VL_CRED_FATOR_RISCO",
        "10_VL_CRED_DIVERSO"};
    static const char* const kLimits[10] = {"30",  "60",  "90",  "120",  "150",
                                            "180", "360", "720", "1080", "MAIOR_1080"};
    const auto zero = [&f](const std::string& table, const std::string& column) {
        f.tables[table].emplace(column, "0.00");  // keeps a published value
    };
    for (const char* group : {"I2A", "I2B"}) {
        for (const char* component : kComponents) {
            zero("I", std::string("TAB_") + group + component);
        }
    }
    for (const std::string table : {"V", "VI"}) {
        for (int band = 0; band < 10; ++band) {
            const std::string n = std::to_string(band + 1);
            zero(table, "TAB_" + table + "_A" + n + "_VL_PRAZO_VENC_" + kLimits[band]);
            zero(table, "TAB_" + table + "_B" + n + "_VL_INAD_" + kLimits[band]);
        }
    }
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
    PublishZeroWhereEmpty(f);
    return f;
}

}  // namespace lastro::funds::testing
