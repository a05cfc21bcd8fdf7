// The rows of the months being ingested, grouped into reports, with the one duplicate rule of
// docs/datasets/inf_mensal_fidc.md applied the same way to every table:
// 1. rows with the same full key (CNPJ, month, filer type, and the table's own key: series,
//    operation, SEQUENCIAL) collapse: a byte-identical repeat silently, a conflicting one by
//    keeping the row read last (counted in the report's `dropped`, reported to the sink);
//    except that a series label repeated in a long table (X_1..X_6) may name several series:
//    SplitLabelGroup decides, from the report's deliveries, which rows are one series;
// 2. when any table has a "Classe" row for a (CNPJ, month), every other typed row of that
//    (CNPJ, month) ("Fundo", blank TP_FUNDO_CLASSE) is dropped and counted in the Classe
//    report's `dropped`.
// Rows of the CNPJ_FUNDO layout carry no filer type: they join the kept report of their
// (CNPJ, month) (Classe, else Fundo, else another type, else blank), or form one of their own.
#pragma once

#include "domain/fidc/fidc_tables.hpp"

#include <lastro/sdk/calendar.hpp>

#include <array>
#include <bitset>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::funds {

// Joins a series label and an operation in the key of an X_4 row.
inline constexpr char kFidcKeySeparator = '\x1f';

// Filer types in the order a report is preferred when CNPJ_FUNDO-layout rows join one.
enum class FilerKind : std::uint8_t { kClasse, kFundo, kOther, kBlank, kUntyped };

// A TP_FUNDO_CLASSE value (already trimmed) as a kind; "Classe" and "Fundo" in any case.
FilerKind FilerKindOf(std::string_view filer_type);

struct FidcStoredRow {
    std::string line;          // the decoded UTF-8 line, fields joined by ';'
    std::uint32_t member = 0;  // index of the member (FidcMemberLayout) it was read from
    std::uint32_t line_no = 0;
    std::uint64_t seq = 0;  // read order over the whole ingest: the larger wins a conflict
};

// How the rows of one label group (one series label, or one label and operation in X_4) of a
// report were read.
enum class FidcGroupReading : std::uint8_t {
    kSingle,          // one row, or byte-identical repeats of one row
    kDistinctSeries,  // different rows: one series each, numbered in file order
    kRedelivered,     // the report was delivered k times and the group has a multiple of k rows,
                      // either several series or deliveries that differ
};

// One series of a label group: the row kept and the different rows a later delivery replaced.
struct FidcOccurrence {
    FidcStoredRow kept;
    std::vector<FidcStoredRow> replaced;
};

struct FidcGroupSplit {
    FidcGroupReading reading = FidcGroupReading::kSingle;
    std::vector<FidcOccurrence> occurrences;  // occurrence n is the series' n-th (0-based)
};

// The rule of docs/datasets/inf_mensal_fidc.md "Series with the same label": `rows` are the
// group's rows in read order, `deliveries` (>= 1) how many times the report's one-row tables
// were filed. With k = deliveries > 1 and n rows a multiple of k, the group is n/k series
// delivered k times: row i is series i mod n/k and the last delivery wins. Otherwise
// byte-identical rows are the same row filed twice and each different row is a series of its
// own, in order of first appearance.
FidcGroupSplit SplitLabelGroup(std::vector<FidcStoredRow> rows, std::uint32_t deliveries);

// The identity of the n-th (0-based) series of a folded label: the label itself for the first,
// "<label> #<n+1>" for the others ("subclasse subordinada 0 | 0 #2").
std::string SeriesKeyOf(std::string_view folded_label, std::size_t occurrence);

// The kept rows of one report: (CNPJ, month, filer type).
struct FidcReportRows {
    std::string cnpj;
    sdk::Month month;
    FilerKind kind = FilerKind::kUntyped;
    std::string filer_type;  // as published, for kClasse, kFundo and kOther
    // Per table, rows by the table's own key ("" for the one-row tables; for X_1..X_6 the
    // series identity, SeriesKeyOf, then for X_4 kFidcKeySeparator and the operation).
    std::array<std::map<std::string, FidcStoredRow>, kFidcTableCount> tables;
    std::int64_t dropped = 0;
    // Rows filed per table, byte-identical repeats included: the one-row tables' largest count
    // is the number of deliveries of the report.
    std::array<std::uint32_t, kFidcTableCount> filed{};
    // The long tables' rows by their folded label key, in read order, until TakeMonth splits
    // them into `tables`.
    std::array<std::map<std::string, std::vector<FidcStoredRow>>, kFidcTableCount> groups;

    // The number of deliveries: the most rows filed in one of the one-row tables, at least 1.
    std::uint32_t Deliveries() const;

    std::size_t RowCount() const;
    // "Classe", "Fundo", "blank TP_FUNDO_CLASSE" or "CNPJ_FUNDO layout": for messages.
    std::string TypeForMessages() const;
};

// A row replaced by a later, different row with the same key.
struct FidcConflict {
    const FidcReportRows& report;
    FidcTable table;
    const std::string& key;  // the table's own key ("" for one-row tables)
    const FidcStoredRow& dropped;
    const FidcStoredRow& kept;
};
using FidcConflictSink = std::function<void(const FidcConflict&)>;

// A label group of several rows that was read as several series or as one series redelivered.
struct FidcLabelDecision {
    const FidcReportRows& report;
    FidcTable table;
    const std::string& key;  // the folded label (and operation, in X_4)
    FidcGroupReading reading;
    std::size_t rows = 0;
    std::size_t series = 0;
    std::uint32_t deliveries = 1;
    std::uint32_t member = 0;  // where the group's first row was read, for messages
    std::uint32_t line_no = 0;
};
using FidcDecisionSink = std::function<void(const FidcLabelDecision&)>;

class FidcRowStore {
public:
    explicit FidcRowStore(FidcConflictSink sink, FidcDecisionSink decisions = {})
        : sink_(std::move(sink)), decisions_(std::move(decisions)) {}

    // `filer_type` is the trimmed TP_FUNDO_CLASSE (ignored for kUntyped); `key` the table's own
    // key; the row's month is `month`.
    void Add(const std::string& cnpj, sdk::Month month, FilerKind kind, std::string_view filer_type,
             FidcTable table, std::string key, FidcStoredRow row);

    // A member of `table` covers `month` even if it holds no row of it (a header-only file).
    void MarkPresent(sdk::Month month, FidcTable table);

    // Months with at least one row, ascending.
    std::vector<sdk::Month> Months() const;
    // Required tables with no member covering `month`.
    std::vector<FidcTable> MissingTables(sdk::Month month) const;

    // The kept reports of `month` after the duplicate rule, by CNPJ then filer kind; the rows
    // leave the store.
    std::vector<FidcReportRows> TakeMonth(sdk::Month month);

private:
    struct MonthRows {
        bool has_rows = false;
        std::bitset<kFidcTableCount> present;
        std::map<std::string, std::vector<FidcReportRows>, std::less<>> by_cnpj;
    };

    void Merge(FidcReportRows& from, FidcReportRows& into);
    // Moves `report.groups` into `report.tables` under the series identities.
    void SplitGroups(FidcReportRows& report);

    FidcConflictSink sink_;
    FidcDecisionSink decisions_;
    std::map<sdk::Month, MonthRows> months_;
    // The month and reports of the last row's (month, CNPJ): a file's rows come grouped by filer.
    MonthRows* last_month_rows_ = nullptr;
    std::vector<FidcReportRows>* last_reports_ = nullptr;
    sdk::Month last_month_{};
    std::string last_cnpj_;
};

}  // namespace lastro::funds
