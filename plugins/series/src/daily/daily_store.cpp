#include "src/daily/daily_store.hpp"

#include <algorithm>
#include <string>

namespace lastro::series {
namespace {

constexpr const char* kValueColumns = "day, total, quota, net_worth, subscriptions, redemptions, investors";

int Int(const std::optional<std::string>& text) {
    return text ? std::stoi(*text) : 0;
}

}  // namespace

std::string SourceSeriesId(const DailySeries& series) {
    return "inf_diario_fi:" + series.cnpj + (series.subclass.empty() ? "" : ":" + series.subclass);
}

std::vector<DailySeries> DailyStore::SeriesOf(const std::string& cnpj) {
    std::vector<DailySeries> series;
    for (auto& row :
         sql_.Query("SELECT id, cnpj, subclass, fund_type FROM series_daily_series WHERE cnpj = $1",
                    {std::string_view(cnpj)})) {
        series.push_back({std::stoll(*row[0]), std::move(*row[1]), std::move(*row[2]), std::move(*row[3])});
    }
    // Byte order on both backends (a PostgreSQL collation may order otherwise): the pages' order.
    std::sort(series.begin(), series.end(),
              [](const DailySeries& a, const DailySeries& b) { return a.subclass < b.subclass; });
    return series;
}

SeriesCoverage DailyStore::CoverageOf(std::int64_t series_id) {
    SeriesCoverage coverage;
    const std::string id = std::to_string(series_id);
    for (const auto& row : sql_.Query("SELECT day / 100, count(*), MIN(day), MAX(day) FROM series_daily_value"
                                      " WHERE series_id = " +
                                      id + " GROUP BY day / 100 ORDER BY 1")) {
        const std::size_t rows = std::stoull(*row[1]);
        coverage.months.push_back({Int(row[0]), rows});
        coverage.rows += rows;
        coverage.first_day = coverage.first_day == 0 ? Int(row[2]) : coverage.first_day;
        coverage.last_day = Int(row[3]);
    }
    if (coverage.rows > 0) {
        const sdk::SqlRows last =
            sql_.Query("SELECT net_worth FROM series_daily_value WHERE series_id = " + id +
                       " AND day = " + std::to_string(coverage.last_day));
        coverage.last_net_worth = last.empty() ? std::nullopt : last[0][0];
    }
    return coverage;
}

std::vector<DailyValue> DailyStore::Values(std::int64_t series_id, int first_day, int last_day,
                                           std::optional<int> vintage) {
    const std::string where = " WHERE series_id = " + std::to_string(series_id) + " AND day BETWEEN " +
                              std::to_string(first_day) + " AND " + std::to_string(last_day);
    std::string query =
        std::string("SELECT ") + kValueColumns + ", first_seen, changed FROM series_daily_value" + where;
    if (vintage) {
        // What vintage v served: current values that had arrived by then, and the revisions it
        // served that later ones replaced or removed.
        const std::string v = std::to_string(*vintage);
        query += " AND changed <= " + v + " UNION ALL SELECT " + kValueColumns +
                 ", first_seen, served_from FROM series_daily_revision" + where + " AND served_from <= " + v +
                 " AND replaced_by > " + v;
    }
    query += " ORDER BY 1";
    std::vector<DailyValue> values;
    for (auto& row : sql_.Query(query)) {
        DailyValue& value = values.emplace_back();
        value.day = Int(row[0]);
        value.total = std::move(row[1]);
        value.quota = std::move(row[2]);
        value.net_worth = std::move(row[3]);
        value.subscriptions = std::move(row[4]);
        value.redemptions = std::move(row[5]);
        value.investors = row[6] ? std::optional<std::int64_t>(std::stoll(*row[6])) : std::nullopt;
        value.first_seen = Int(row[7]);
        value.changed = Int(row[8]);
    }
    return values;
}

std::vector<int> DailyStore::PublishedDays(int first_day, int last_day) {
    std::vector<int> days;
    for (const auto& row :
         sql_.Query("SELECT day FROM series_daily_day WHERE day BETWEEN " + std::to_string(first_day) +
                    " AND " + std::to_string(last_day) + " ORDER BY day")) {
        days.push_back(Int(row[0]));
    }
    return days;
}

std::optional<int> DailyStore::VintageAsOf(int served_day) {
    const sdk::SqlRows rows = sql_.Query("SELECT MAX(id) FROM series_daily_vintage WHERE served_day <= " +
                                         std::to_string(served_day));
    if (rows.empty() || !rows[0][0]) {
        return std::nullopt;
    }
    return Int(rows[0][0]);
}

std::vector<std::string> DailyStore::VintageTimes() {
    std::vector<std::string> times(1);
    for (auto& row : sql_.Query("SELECT id, ingested_at FROM series_daily_vintage ORDER BY id")) {
        const auto id = static_cast<std::size_t>(Int(row[0]));
        times.resize(std::max(times.size(), id + 1));
        times[id] = std::move(*row[1]);
    }
    return times;
}

std::optional<sdk::Date> DailyStore::LatestMonthWrittenOn() {
    const sdk::SqlRows rows = sql_.Query(
        "SELECT COALESCE(m.written_at, v.ingested_at) FROM series_daily_month m"
        " JOIN series_daily_vintage v ON v.id = m.vintage ORDER BY m.month DESC LIMIT 1");
    if (rows.empty() || !rows[0][0] || rows[0][0]->size() < 10) {
        return std::nullopt;
    }
    return sdk::Date::Parse(rows[0][0]->substr(0, 10));
}

DailyDatasetState DailyStore::DatasetState() {
    return {PublishedDays(0, 99991231), VintageTimes(), LatestMonthWrittenOn()};
}

}  // namespace lastro::series
