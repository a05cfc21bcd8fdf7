// The sample's CVM files read back by the tests, independently of the ingesters: a plain
// ';' split of ISO-8859-1 text, columns by header name, and the documented duplicate rule of
// plugins/funds/docs/datasets/inf_mensal_fidc.md re-implemented here. The end-to-end tests of
// funds and of the plugins that require it (lastro-funds-testing) recompute the API's numbers
// from these rows.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lastro::funds::e2e {

// One line of a CSV member: column name -> text as published (UTF-8), "" for an empty field.
using CsvRow = std::map<std::string, std::string>;

// The column SampleFidcReports::Rows adds to rows of the long tables: the series identity.
inline constexpr const char* kSeriesColumn = "#series";

struct CsvMember {
    std::string name;  // member name within its zip, or the file name
    std::vector<std::string> header;
    std::vector<CsvRow> rows;  // file order
};

// Every member of a zip, or one loose CSV file. `latin1`: decode ISO-8859-1 (CVM), else the
// bytes must already be UTF-8 (Lastro's ANBIMA layout).
std::vector<CsvMember> ReadCvmZip(const std::filesystem::path& zip);
CsvMember ReadCvmCsv(const std::string& name, const std::string& bytes, bool latin1 = true);
CsvMember ReadCvmCsvFile(const std::filesystem::path& path, bool latin1 = true);

// "12345678000195" from a masked or bare CNPJ.
std::string CnpjDigits(std::string_view text);
// The number a CVM field holds, nullopt for an empty field. Throws on anything but a plain
// decimal with a point.
std::optional<double> Number(const CsvRow& row, const std::string& column);

// Table "IV" of member "inf_mensal_fidc_tab_IV_202501.csv" ("" when not a monthly member).
std::string FidcTableOf(std::string_view member_name);

// A month's zip republished with one filer's TAB_IV_A_VL_PL raised by `raise`: the first filer
// with a single table IV line (the duplicate rule keeps it) whose published net worth `eligible`
// accepts. `members` are the zip's members, ready to be written again; `cnpj` is empty when no
// filer qualifies.
struct RaisedNetWorth {
    std::vector<std::pair<std::string, std::string>> members;  // name, bytes
    std::string cnpj;
};
RaisedNetWorth RaiseOneNetWorth(const std::filesystem::path& zip, double raise,
                                const std::function<bool(double)>& eligible);

// The sample's FIDC monthly reports (every inf_mensal_fidc_*.zip of the sample directory).
class SampleFidcReports {
public:
    explicit SampleFidcReports(const std::filesystem::path& sample_dir);

    // Rows of table `table` ("IV", "X_2"...) filed under `cnpj` for `month` ("YYYY-MM") after
    // the duplicate rule: when the (CNPJ, month) has a `Classe` row, `Fundo` rows are
    // dropped; of rows sharing a key (type, sequence) the last line of the file wins. Rows of
    // the long tables (X_1..X_6) follow the rule for repeated series labels (k deliveries, the
    // most rows of a one-row table: a multiple of k rows of a label is series delivered k
    // times, the last delivery kept; otherwise identical rows are one and each different row
    // a series) and carry their series identity in kSeriesColumn: the label, "<label> #n" for
    // the n-th series of a repeated label.
    std::vector<CsvRow> Rows(const std::string& table, const std::string& cnpj,
                             const std::string& month) const;
    // The one row of a one-row-per-report table, nullopt when the report has none.
    std::optional<CsvRow> Row(const std::string& table, const std::string& cnpj,
                              const std::string& month) const;
    // Months with a table IV row for `cnpj`, ascending.
    std::vector<std::string> MonthsOf(const std::string& cnpj) const;
    // Every CNPJ with at least one report.
    std::set<std::string> Cnpjs() const;
    // Every month with at least one report, ascending.
    std::set<std::string> Months() const;
    // (cnpj, month) pairs that carry both a Fundo and a Classe row in table IV.
    std::vector<std::pair<std::string, std::string>> FiledAsFundoAndClasse() const;

private:
    struct Filed {
        std::string type;  // TP_FUNDO_CLASSE, "" in the CNPJ_FUNDO layout
        CsvRow row;
    };
    // The report's deliveries: the most kept rows of one of its one-row tables, at least 1.
    std::size_t Deliveries(const std::string& cnpj, const std::string& month) const;
    static std::vector<CsvRow> SeriesRows(const std::vector<Filed>& filed, bool has_classe,
                                          std::size_t deliveries);
    // (table, cnpj, month) -> rows in file order
    std::map<std::tuple<std::string, std::string, std::string>, std::vector<Filed>> rows_;
};

// Seniority of a TAB_X_CLASSE_SERIE label as plugins/funds/docs/datasets/inf_mensal_fidc.md defines it.
std::string SeniorityOf(std::string_view label);

}  // namespace lastro::funds::e2e
