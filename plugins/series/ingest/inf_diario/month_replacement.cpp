#include "ingest/inf_diario/month_replacement.hpp"

#include "domain/daily/daily_days.hpp"

#include <cstdio>
#include <stdexcept>
#include <tuple>

namespace lastro::series {
namespace {

constexpr const char* kValueColumns = "total, quota, net_worth, subscriptions, redemptions, investors";
constexpr const char* kValueColumnList[] = {"total",         "quota",       "net_worth",
                                            "subscriptions", "redemptions", "investors"};
constexpr std::size_t kNoticesKept = 2;  // a month, for the summary

std::size_t Count(sdk::SqlSession& sql, const std::string& query) {
    const sdk::SqlRows rows = sql.Query(query);
    return rows.empty() || !rows[0][0] ? 0 : std::stoull(*rows[0][0]);
}

// "n.total, n.quota, ..." for a table alias.
std::string Values(const std::string& alias) {
    std::string list;
    for (const char* column : kValueColumnList) {
        list += list.empty() ? "" : ", ";
        list += alias + "." + column;
    }
    return list;
}

std::string Partition(const char* prefix, int month) {
    return std::string("series_daily_value_") + prefix + std::to_string(month);
}

}  // namespace

std::vector<std::string> StageColumns() {
    return {"cnpj",  "subclass", "fund_type", "filing_rank",   "line",        "day",
            "total", "quota",    "net_worth", "subscriptions", "redemptions", "investors"};
}

MonthReplacement::MonthReplacement(odb::database& db, sdk::SqlSession& sql, std::time_t now)
    : db_(db), sql_(sql) {
    vintage_ = static_cast<int>(Count(sql_, "SELECT COALESCE(MAX(id), 0) + 1 FROM series_daily_vintage"));
    std::tm utc{};
    gmtime_r(&now, &utc);
    char at[32];
    std::strftime(at, sizeof at, "%Y-%m-%dT%H:%M:%SZ", &utc);
    const int served_day = (utc.tm_year + 1900) * 10000 + (utc.tm_mon + 1) * 100 + utc.tm_mday;
    sql_.Execute("INSERT INTO series_daily_vintage (id, ingested_at, served_day) VALUES (" +
                     std::to_string(vintage_) + ", $1, " + std::to_string(served_day) + ")",
                 {std::string_view(at)});
}

std::size_t MonthReplacement::SeriesMonthHash::operator()(const SeriesMonth& key) const {
    const std::size_t h = std::hash<std::string>{}(key.cnpj) * 31 + std::hash<std::string>{}(key.subclass);
    return h * 131 + static_cast<std::size_t>(key.month);
}

void MonthReplacement::NoteStaged(std::string_view cnpj, std::string_view subclass,
                                  std::string_view fund_type, int filing_rank, std::size_t line, int day) {
    if (!repeats_) {
        std::string key;
        key.reserve(cnpj.size() + subclass.size() + 12);
        key.append(cnpj).append(1, '|').append(subclass).append(1, '|').append(std::to_string(day));
        repeats_ = !staged_.insert(std::hash<std::string>{}(key)).second;
    }
    LatestFiling& latest = latest_[SeriesMonth{std::string(cnpj), std::string(subclass), day / 100}];
    if (std::tie(day, filing_rank, line) > std::tie(latest.day, latest.rank, latest.line)) {
        latest = LatestFiling{day, filing_rank, line, std::string(fund_type)};
    }
}

void MonthReplacement::BeginFile() {
    staged_.clear();
    repeats_ = false;
    latest_.clear();
    sql_.Execute("DROP TABLE IF EXISTS series_daily_stage");
    sql_.Execute(
        "CREATE TEMP TABLE series_daily_stage (cnpj TEXT NOT NULL, subclass TEXT NOT NULL, fund_type TEXT "
        "NOT NULL,"
        " filing_rank INTEGER NOT NULL, line BIGINT NOT NULL, day INTEGER NOT NULL, total TEXT, quota TEXT,"
        " net_worth TEXT, subscriptions TEXT, redemptions TEXT, investors BIGINT)");
}

std::vector<int> MonthReplacement::StagedMonths() {
    std::vector<int> months;
    for (const auto& row : sql_.Query("SELECT DISTINCT day / 100 FROM series_daily_stage ORDER BY 1")) {
        months.push_back(std::stoi(*row[0]));
    }
    return months;
}

std::string MonthReplacement::Same(const std::string& a, const std::string& b) const {
    const char* equal = sql_.IsPostgres() ? " IS NOT DISTINCT FROM " : " IS ";
    std::string same = "(";
    for (const char* column : kValueColumnList) {
        same += same.size() > 1 ? " AND " : "";
        same += a + "." + column + equal + b + "." + column;
    }
    return same + ")";
}

MonthOutcome MonthReplacement::Replace(int month, const std::string& source,
                                       const std::optional<std::string>& written_at) {
    const int first_day = month * 100 + 1;
    const int last_day = month * 100 + 31;
    const int next_month = month % 100 == 12 ? (month / 100 + 1) * 100 + 1 : month + 1;
    const std::string days = " BETWEEN " + std::to_string(first_day) + " AND " + std::to_string(last_day);
    const std::string v = std::to_string(vintage_);
    MonthOutcome outcome;

    // One row a series and day (domain/daily/filing_rule.hpp): the staged rows ranked into a
    // table, when the file repeats a series and day; otherwise every staged row is kept (n = 1),
    // read through a view: no sort, no copy.
    const std::string ranked = repeats_ ? "TABLE" : "VIEW";
    const std::string rank =
        repeats_ ? "row_number() OVER (PARTITION BY cnpj, subclass, day ORDER BY filing_rank DESC, line DESC)"
                 : "1";
    sql_.Execute("CREATE TEMP " + ranked +
                 " series_daily_ranked AS SELECT cnpj, subclass, fund_type, line, day, " +
                 std::string(kValueColumns) + ", " + rank + " AS n FROM series_daily_stage WHERE day" + days);
    outcome.duplicates = repeats_ ? Count(sql_, "SELECT count(*) FROM series_daily_ranked WHERE n > 1") : 0;
    if (outcome.duplicates > 0) {
        const sdk::SqlRows dropped = sql_.Query(
            "SELECT d.line, d.cnpj, d.day, d.fund_type, k.line, k.fund_type FROM series_daily_ranked d"
            " JOIN series_daily_ranked k ON k.cnpj = d.cnpj AND k.subclass = d.subclass AND k.day = d.day "
            "AND k.n = 1"
            " WHERE d.n > 1 ORDER BY d.line LIMIT " +
            std::to_string(kNoticesKept));
        for (const auto& row : dropped) {
            outcome.notices.push_back(
                source + " line " + *row[0] + ": " + *row[1] + " " + DayText(std::stoi(*row[2])) +
                " filed again as " + *row[5] + " at line " + *row[4] + ", which is kept over this " +
                *row[3] + " filing (a class's filing over a fund's; between equals, the later line)");
        }
    }

    UpsertSeries(month);

    sql_.Execute("DROP TABLE IF EXISTS series_daily_incoming");
    sql_.Execute("CREATE TEMP TABLE series_daily_incoming AS SELECT s.id AS series_id, r.day, " +
                 Values("r") +
                 " FROM series_daily_ranked r JOIN series_daily_series s ON s.cnpj = r.cnpj AND s.subclass = "
                 "r.subclass"
                 " WHERE r.n = 1");
    sql_.Execute("CREATE UNIQUE INDEX series_daily_incoming_key ON series_daily_incoming (series_id, day)");
    if (sql_.IsPostgres()) {
        sql_.Execute("ANALYZE series_daily_incoming");  // a temporary table has no statistics of its own
    }

    // The stored rows of the month that the file has too, found from each new row by the key. On
    // PostgreSQL the month's bound also prunes the other partitions; on SQLite it would lead the
    // planner to walk the day index over the whole table instead (slower as the history grows).
    const std::string matched_rows =
        " FROM series_daily_incoming n JOIN series_daily_value o ON o.series_id = n.series_id AND o.day = "
        "n.day"
        " WHERE " +
        (sql_.IsPostgres() ? "o.day" + days : std::string("true"));
    const std::size_t stored = Count(sql_, "SELECT count(*) FROM series_daily_value WHERE day" + days);
    const std::size_t incoming = Count(sql_, "SELECT count(*) FROM series_daily_incoming");
    const sdk::SqlRows matched = sql_.Query("SELECT count(*), COALESCE(SUM(CASE WHEN " + Same("o", "n") +
                                            " THEN 1 ELSE 0 END), 0)" + matched_rows);
    const std::size_t both = std::stoull(*matched[0][0]);
    outcome.unchanged = std::stoull(*matched[0][1]);
    outcome.changed = both - outcome.unchanged;
    outcome.inserted = incoming - both;
    outcome.removed = stored - both;

    if (outcome.inserted + outcome.changed + outcome.removed > 0) {
        // The values replaced or removed, with the vintages they were served in (as_of).
        const std::string revision =
            "INSERT INTO series_daily_revision (series_id, day, replaced_by, served_from,"
            " first_seen, removed, " +
            std::string(kValueColumns) + ") SELECT o.series_id, o.day, " + v + ", o.changed, o.first_seen, ";
        sql_.Execute(revision + "0, " + Values("o") + matched_rows + " AND NOT " + Same("o", "n"));
        sql_.Execute(revision + "1, " + Values("o") + " FROM series_daily_value o WHERE o.day" + days +
                     " AND NOT EXISTS (SELECT 1 FROM series_daily_incoming n"
                     " WHERE n.series_id = o.series_id AND n.day = o.day)");
        if (sql_.IsPostgres()) {
            WritePostgres(month, first_day, next_month * 100 + 1);
        } else {
            WriteSqlite(first_day, last_day);
        }
    }

    sql_.Execute("DELETE FROM series_daily_day WHERE day" + days);
    sql_.Execute(
        "INSERT INTO series_daily_day (day, series) SELECT day, count(*) FROM series_daily_incoming GROUP BY "
        "day");
    const std::string m = std::to_string(month);
    sql_.Execute(
        "INSERT INTO series_daily_month (month, vintage, source, written_at, series_rows, first_day, "
        "last_day)"
        " SELECT " +
            m + ", " + v +
            ", $1, $2, count(*), MIN(day), MAX(day) FROM series_daily_incoming"
            " WHERE true ON CONFLICT (month) DO UPDATE SET vintage = excluded.vintage, source = "
            "excluded.source,"
            " written_at = excluded.written_at, series_rows = excluded.series_rows, first_day = "
            "excluded.first_day,"
            " last_day = excluded.last_day",
        {std::string_view(source), written_at ? sdk::SqlValue(*written_at) : std::nullopt});
    sql_.Execute("DROP TABLE series_daily_incoming");
    sql_.Execute("DROP " + ranked + " series_daily_ranked");
    return outcome;
}

// New series get their ids; a series' type is the one of its latest filing (kept by NoteStaged).
void MonthReplacement::UpsertSeries(int month) {
    sql_.Execute("DROP TABLE IF EXISTS series_daily_latest");
    sql_.Execute(
        "CREATE TEMP TABLE series_daily_latest (cnpj TEXT NOT NULL, subclass TEXT NOT NULL, fund_type TEXT "
        "NOT "
        "NULL, day INTEGER NOT NULL)");
    {
        sdk::BulkLoader load(db_, "series_daily_latest", {"cnpj", "subclass", "fund_type", "day"});
        for (const auto& [series, latest] : latest_) {
            if (series.month == month) {
                const std::string day = std::to_string(latest.day);
                load.Add({series.cnpj, series.subclass, latest.fund_type, day});
            }
        }
        load.Finish();
    }
    sql_.Execute(
        "INSERT INTO series_daily_series (cnpj, subclass, fund_type, type_day)"
        " SELECT cnpj, subclass, fund_type, day FROM series_daily_latest WHERE true"
        " ON CONFLICT (cnpj, subclass) DO UPDATE SET fund_type = excluded.fund_type, type_day = "
        "excluded.type_day WHERE excluded.type_day >= series_daily_series.type_day");
    sql_.Execute("DROP TABLE series_daily_latest");
}

// SQLite has no partitions: the rows that differ are written in place, new ones in key order.
void MonthReplacement::WriteSqlite(int first_day, int last_day) {
    const std::string days = " BETWEEN " + std::to_string(first_day) + " AND " + std::to_string(last_day);
    const std::string v = std::to_string(vintage_);
    // Changed rows: replaced from the new rows (each probing the stored one by its key, never a
    // scan of the table), keeping when they were first seen.
    sql_.Execute("INSERT OR REPLACE INTO series_daily_value (series_id, day, " + std::string(kValueColumns) +
                 ", first_seen, changed) SELECT n.series_id, n.day, " + Values("n") + ", o.first_seen, " + v +
                 " FROM series_daily_incoming n JOIN series_daily_value o"
                 " ON o.series_id = n.series_id AND o.day = n.day WHERE NOT " +
                 Same("o", "n"));
    sql_.Execute("DELETE FROM series_daily_value WHERE day" + days +
                 " AND NOT EXISTS (SELECT 1 FROM series_daily_incoming n"
                 " WHERE n.series_id = series_daily_value.series_id AND n.day = series_daily_value.day)");
    sql_.Execute("INSERT INTO series_daily_value (series_id, day, " + std::string(kValueColumns) +
                 ", first_seen, changed) SELECT n.series_id, n.day, " + Values("n") + ", " + v + ", " + v +
                 " FROM series_daily_incoming n WHERE NOT EXISTS (SELECT 1 FROM series_daily_value o"
                 " WHERE o.series_id = n.series_id AND o.day = n.day) ORDER BY n.series_id, n.day");
}

// PostgreSQL: the month's partition is built aside whole (unchanged rows keep their marks), then
// swapped for the old one; readers see the old month or the new one, never a mix.
void MonthReplacement::WritePostgres(int month, int first_day, int next_month_day) {
    const std::string fresh = Partition("n", month);
    const std::string current = Partition("p", month);
    const std::string v = std::to_string(vintage_);
    const std::string days =
        " BETWEEN " + std::to_string(first_day) + " AND " + std::to_string(next_month_day - 1);
    sql_.Execute("DROP TABLE IF EXISTS " + fresh);
    sql_.Execute("CREATE TABLE " + fresh + " (LIKE series_daily_value INCLUDING DEFAULTS)");
    sql_.Execute("INSERT INTO " + fresh + " (series_id, day, " + kValueColumns +
                 ", first_seen, changed) SELECT n.series_id, n.day, " + Values("n") +
                 ", COALESCE(o.first_seen, " + v + "), CASE WHEN o.series_id IS NOT NULL AND " +
                 Same("o", "n") + " THEN o.changed ELSE " + v +
                 " END FROM series_daily_incoming n LEFT JOIN series_daily_value o"
                 " ON o.series_id = n.series_id AND o.day = n.day AND o.day" +
                 days + " ORDER BY n.series_id, n.day");
    sql_.Execute("ALTER TABLE " + fresh + " ADD CONSTRAINT " + fresh + "_pkey PRIMARY KEY (series_id, day)");
    // Lets ATTACH skip scanning the rows for the bound; dropped once attached.
    sql_.Execute("ALTER TABLE " + fresh + " ADD CONSTRAINT " + fresh + "_days CHECK (day >= " +
                 std::to_string(first_day) + " AND day < " + std::to_string(next_month_day) + ")");
    const sdk::SqlRows exists = sql_.Query("SELECT to_regclass($1) IS NOT NULL", {std::string_view(current)});
    if (*exists[0][0] == "t") {
        sql_.Execute("ALTER TABLE series_daily_value DETACH PARTITION " + current);
        sql_.Execute("DROP TABLE " + current);
    }
    sql_.Execute("ALTER TABLE " + fresh + " RENAME TO " + current);
    sql_.Execute("ALTER TABLE " + current + " RENAME CONSTRAINT " + fresh + "_pkey TO " + current + "_pkey");
    sql_.Execute("ALTER TABLE series_daily_value ATTACH PARTITION " + current + " FOR VALUES FROM (" +
                 std::to_string(first_day) + ") TO (" + std::to_string(next_month_day) + ")");
    sql_.Execute("ALTER TABLE " + current + " DROP CONSTRAINT " + fresh + "_days");
}

std::optional<std::string> MonthReplacement::LastDay() {
    const sdk::SqlRows rows = sql_.Query("SELECT MAX(day) FROM series_daily_day");
    if (rows.empty() || !rows[0][0]) {
        return std::nullopt;
    }
    return DayText(std::stoi(*rows[0][0]));
}

}  // namespace lastro::series
