// One month of daily reports replacing the stored month, in set-based SQL on both backends
// (docs/datasets/inf_diario_fi.md, "Republished months"): the file's rows wait in a staging
// table; Replace() keeps one row a series and day, gives each new series its id, counts what is
// new, changed, unchanged and gone, keeps the values it replaces as revisions, and writes the
// month: on SQLite the rows that differ, on PostgreSQL a new partition swapped for the old one.
#pragma once

#include <lastro/sdk/bulk_sql.hpp>

#include <cstddef>
#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace lastro::series {

inline constexpr std::string_view kStageTable = "series_daily_stage";
// The staging table's columns, in the order the ingester loads them.
std::vector<std::string> StageColumns();

struct MonthOutcome {
    std::size_t inserted = 0;  // series-days new to the month
    std::size_t changed = 0;   // ... stored with another value (the old one kept as a revision)
    std::size_t unchanged = 0;
    std::size_t removed = 0;           // ... stored, absent from the new file (kept as a revision)
    std::size_t duplicates = 0;        // filings the one-row rule left out
    std::vector<std::string> notices;  // the first few of them, worded for the summary
};

class MonthReplacement {
public:
    // Records this ingest's vintage (series_daily_vintage) at `now`; `sql` is a session on `db`.
    MonthReplacement(odb::database& db, sdk::SqlSession& sql, std::time_t now);

    // An empty staging table for the next file.
    void BeginFile();
    // Notes a staged row (every row loaded): when no series and day of the file repeats, the
    // one-row rule has nothing to rank and Replace() skips its sort of the month; and each series'
    // latest filing of a month (its type) is kept here, so that no sort of the month finds it.
    void NoteStaged(std::string_view cnpj, std::string_view subclass, std::string_view fund_type,
                    int filing_rank, std::size_t line, int day);
    // The months (YYYYMM) of the staged rows, ascending.
    std::vector<int> StagedMonths();
    // Replaces stored month `month` (YYYYMM) with its staged rows; `source` and `written_at` (the
    // file's time, RFC 3339) are recorded with the month.
    MonthOutcome Replace(int month, const std::string& source, const std::optional<std::string>& written_at);

    int Vintage() const { return vintage_; }
    // The last day any series has, YYYY-MM-DD; nullopt while none has.
    std::optional<std::string> LastDay();

private:
    void WriteSqlite(int first_day, int last_day);
    void WritePostgres(int month, int first_day, int next_month_day);
    std::string Same(const std::string& a, const std::string& b) const;
    void UpsertSeries(int month);

    // A series' filing that the one-row rule would keep last in a month: the latest day, then
    // the higher rank, then the later line (domain/daily/filing_rule.hpp).
    struct LatestFiling {
        int day = 0;
        int rank = 0;
        std::size_t line = 0;
        std::string fund_type;
    };
    struct SeriesMonth {
        std::string cnpj;
        std::string subclass;
        int month = 0;
        bool operator==(const SeriesMonth&) const = default;
    };
    struct SeriesMonthHash {
        std::size_t operator()(const SeriesMonth& key) const;
    };

    odb::database& db_;
    sdk::SqlSession& sql_;
    int vintage_ = 0;
    std::unordered_set<std::uint64_t> staged_;  // hashes of the file's (series, day)
    bool repeats_ = false;                      // one of them came twice (or two hashes met)
    std::unordered_map<SeriesMonth, LatestFiling, SeriesMonthHash> latest_;
};

}  // namespace lastro::series
