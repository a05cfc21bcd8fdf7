// The funds' daily reports as the handlers read them (docs/datasets/inf_diario_fi.md, "Tables"):
// the series under a CNPJ, a series' rows in a range (as stored now, or as served at a past
// vintage), what days the dataset has, and when its latest month was written.
#pragma once

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/calendar.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lastro::series {

// A series of cvm.inf_diario_fi: (CNPJ, subclass).
struct DailySeries {
    std::int64_t id = 0;  // internal; never shown (source_series_id is)
    std::string cnpj;
    std::string subclass;  // "" when the filing has none
    std::string fund_type;
};

// "inf_diario_fi:<cnpj>" or "inf_diario_fi:<cnpj>:<ID_SUBCLASSE>": stable across re-ingests.
std::string SourceSeriesId(const DailySeries& series);

struct DailyValue {
    int day = 0;                                                                     // YYYYMMDD
    std::optional<std::string> total, quota, net_worth, subscriptions, redemptions;  // as published
    std::optional<std::int64_t> investors;
    int first_seen = 0;  // vintages
    int changed = 0;
};

struct MonthRows {
    int month = 0;  // YYYYMM
    std::size_t rows = 0;
};

struct SeriesCoverage {
    int first_day = 0;
    int last_day = 0;
    std::size_t rows = 0;
    std::optional<std::string> last_net_worth;  // at last_day, as published
    std::vector<MonthRows> months;              // the months with rows, ascending
};

// What every call reads alike until the next ingest, kept per data release (sdk::Remembered):
// the days the dataset has, each vintage's time, and when the latest month was written.
struct DailyDatasetState {
    std::vector<int> published_days;          // ascending, YYYYMMDD
    std::vector<std::string> vintage_times;   // RFC 3339, indexed by vintage id (0 unused)
    std::optional<sdk::Date> latest_written;  // LatestMonthWrittenOn()
};

class DailyStore {
public:
    explicit DailyStore(sdk::SqlSession& sql) : sql_(sql) {}

    // The series under `cnpj` (14 digits), by subclass ("" first).
    std::vector<DailySeries> SeriesOf(const std::string& cnpj);
    SeriesCoverage CoverageOf(std::int64_t series_id);
    // The series' rows with first_day <= day <= last_day, ascending. With `vintage`: the rows as
    // served at that vintage (the revisions it still served, none it had not seen yet).
    std::vector<DailyValue> Values(std::int64_t series_id, int first_day, int last_day,
                                   std::optional<int> vintage = std::nullopt);
    // The days any series has in [first_day, last_day], ascending.
    std::vector<int> PublishedDays(int first_day, int last_day);
    // The last vintage recorded on or before `served_day` (YYYYMMDD, UTC); nullopt: none.
    std::optional<int> VintageAsOf(int served_day);
    // Each vintage's ingest time (RFC 3339), indexed by vintage id (index 0 unused).
    std::vector<std::string> VintageTimes();
    // When the latest month was written (its file's time, else its ingest's), as a day.
    std::optional<sdk::Date> LatestMonthWrittenOn();
    // All three of the above, at once.
    DailyDatasetState DatasetState();

private:
    sdk::SqlSession& sql_;
};

}  // namespace lastro::series
