#include "ingest/cotahist/cotahist_ingester.hpp"

#include "domain/cotahist/cotahist_reader.hpp"
#include "stocks_model-odb.hxx"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/ingest/inputs.hpp>
#include <lastro/sdk/ingest/progress.hpp>
#include <lastro/sdk/ingest/rejections.hpp>
#include <lastro/sdk/problem.hpp>

#include <odb/database.hxx>

#include <algorithm>
#include <array>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace lastro::stocks {
namespace {

sdk::DatasetLayout Layout() {
    sdk::DatasetLayout layout;
    layout.dataset = std::string(kCotahistDataset);
    layout.tables.push_back({"yearly", sdk::NamePattern("COTAHIST_A{YYYY}.TXT"), false});
    layout.tables.push_back({"monthly", sdk::NamePattern("COTAHIST_M{NAME}.TXT"), false});
    layout.tables.push_back({"daily", sdk::NamePattern("COTAHIST_D{NAME}.TXT"), false});
    layout.expected =
        "COTAHIST_AYYYY.TXT, COTAHIST_MMMYYYY.TXT or COTAHIST_DDDMMYYYY.TXT, or B3's zips of them "
        "(COTAHIST_A2024.ZIP...)";
    return layout;
}

// The edition's name digits: MMYYYY for a monthly file, DDMMYYYY for a daily one.
void CheckName(const sdk::TableFile& file) {
    const std::size_t digits = file.table == 1 ? 6 : file.table == 2 ? 8 : 0;
    if (digits == 0) {
        return;
    }
    const bool ok = file.name.size() == digits && std::all_of(file.name.begin(), file.name.end(),
                                                              [](char c) { return c >= '0' && c <= '9'; });
    if (!ok) {
        throw sdk::IngestError(file.file.display, 0,
                               std::string("not a COTAHIST edition's name (expected ") +
                                   (digits == 6 ? "COTAHIST_MMMYYYY.TXT" : "COTAHIST_DDDMMYYYY.TXT") + ")");
    }
}

constexpr std::string_view kColumns =
    "ticker, day, market_type, bdi, term, short_name, specification, isin, open_price, high_price, low_price,"
    " average_price, close_price, best_bid, best_ask, trades, quantity, volume, quotation_factor, "
    "distribution";

std::optional<std::string> Text(const std::optional<std::int64_t>& value) {
    return value ? std::optional<std::string>(std::to_string(*value)) : std::nullopt;
}

struct FileResult {
    std::int64_t kept = 0;
    std::vector<std::string> days;
};

// The quotes staged from one file, applied as a replacement of its days.
class DayReplacement {
public:
    explicit DayReplacement(odb::database& db) : db_(db), sql_(db) {
        sql_.Execute("DROP TABLE IF EXISTS stocks_quote_stage");
        sql_.Execute(
            "CREATE TEMP TABLE stocks_quote_stage (ticker TEXT NOT NULL, day TEXT NOT NULL,"
            " market_type INTEGER NOT NULL, bdi INTEGER NOT NULL, term TEXT NOT NULL, short_name TEXT,"
            " specification TEXT, isin TEXT, open_price BIGINT, high_price BIGINT, low_price BIGINT,"
            " average_price BIGINT, close_price BIGINT, best_bid BIGINT, best_ask BIGINT, trades BIGINT,"
            " quantity BIGINT, volume BIGINT, quotation_factor BIGINT NOT NULL, distribution BIGINT,"
            " line BIGINT NOT NULL)");
    }
    ~DayReplacement() {
        try {
            sql_.Execute("DROP TABLE IF EXISTS stocks_quote_stage");
        } catch (...) {  // the failed transaction drops it with everything else
        }
    }

    // Loads the file's kept lines into the stage; rejected lines are logged by line.
    void Stage(CotahistReader& reader, const std::string& display, sdk::RowCounter& counter,
               sdk::RejectionLog& log) {
        sdk::BulkLoader load(
            db_, "stocks_quote_stage",
            {"ticker",           "day",          "market_type", "bdi",        "term",      "short_name",
             "specification",    "isin",         "open_price",  "high_price", "low_price", "average_price",
             "close_price",      "best_bid",     "best_ask",    "trades",     "quantity",  "volume",
             "quotation_factor", "distribution", "line"});
        QuoteRecord q;
        std::string problem;
        std::array<std::optional<std::string>, 21> cells;
        std::array<sdk::SqlValue, 21> values;
        for (CotahistReader::Outcome outcome;
             (outcome = reader.Next(q, problem)) != CotahistReader::Outcome::kEnd;) {
            counter.Row();
            if (outcome == CotahistReader::Outcome::kRejected) {
                log.Reject(display, q.line, problem);
                continue;
            }
            cells = {q.ticker,
                     q.day.ToString(),
                     std::to_string(q.market_type),
                     std::to_string(q.bdi),
                     q.term,
                     q.short_name,
                     q.specification,
                     q.isin,
                     Text(q.open),
                     Text(q.high),
                     Text(q.low),
                     Text(q.average),
                     Text(q.close),
                     Text(q.best_bid),
                     Text(q.best_ask),
                     Text(q.trades),
                     Text(q.quantity),
                     Text(q.volume),
                     std::to_string(q.quotation_factor),
                     Text(q.distribution),
                     std::to_string(q.line)};
            for (std::size_t i = 0; i < cells.size(); ++i) {
                values[i] = cells[i] ? sdk::SqlValue(*cells[i]) : std::nullopt;
            }
            load.Add(values);
        }
        load.Finish();
    }

    // A key given twice in one file keeps its later line; each repeat is rejected by line.
    void RejectRepeats(const std::string& display, sdk::RejectionLog& log) {
        // One grouping pass says whether any key repeats; B3's files never repeat one, so the
        // line-by-line search below runs only for a file that does.
        const sdk::SqlRows any = sql_.Query(
            "SELECT COUNT(*) FROM (SELECT 1 FROM stocks_quote_stage GROUP BY ticker, day, market_type, bdi, "
            "term"
            " HAVING COUNT(*) > 1) repeated");
        if (any.empty() || !any[0][0] || *any[0][0] == "0") {
            return;
        }
        const sdk::SqlRows repeats = sql_.Query(
            "SELECT s.line, s.ticker, s.day FROM stocks_quote_stage s WHERE EXISTS (SELECT 1 FROM "
            "stocks_quote_stage t"
            " WHERE t.ticker = s.ticker AND t.day = s.day AND t.market_type = s.market_type AND t.bdi = s.bdi"
            " AND t.term = s.term AND t.line > s.line) ORDER BY s.line");
        if (repeats.empty()) {
            return;
        }
        for (const auto& row : repeats) {
            log.Reject(display, std::stoull(*row[0]),
                       "ticker " + *row[1] + " on " + *row[2] +
                           " is given again later in the file with the same market type, BDI code and term:"
                           " the later line is kept");
        }
        sql_.Execute(
            "DELETE FROM stocks_quote_stage WHERE EXISTS (SELECT 1 FROM stocks_quote_stage t"
            " WHERE t.ticker = stocks_quote_stage.ticker AND t.day = stocks_quote_stage.day"
            " AND t.market_type = stocks_quote_stage.market_type AND t.bdi = stocks_quote_stage.bdi"
            " AND t.term = stocks_quote_stage.term AND t.line > stocks_quote_stage.line)");
    }

    // Replaces the stored days the stage holds; counts what changed.
    FileResult Apply(std::int64_t file_id, sdk::IngestSummary& summary) {
        FileResult result;
        sql_.Execute("DROP TABLE IF EXISTS stocks_stage_day");
        sql_.Execute(
            "CREATE TEMP TABLE stocks_stage_day AS SELECT day, COUNT(*) AS n FROM stocks_quote_stage GROUP "
            "BY day");
        for (const auto& row : sql_.Query("SELECT day, n FROM stocks_stage_day ORDER BY day")) {
            result.days.push_back(*row[0]);
            result.kept += std::stoll(*row[1]);
        }
        const auto count = [&](std::string_view query) {
            const sdk::SqlRows rows = sql_.Query(query);
            return rows.empty() || !rows[0][0] ? 0ULL : std::stoull(*rows[0][0]);
        };
        const std::string key_join =
            " JOIN stocks_quote q ON q.ticker = s.ticker AND q.day = s.day AND q.market_type = s.market_type"
            " AND q.bdi = s.bdi AND q.term = s.term";
        const std::uint64_t stored =
            count("SELECT COUNT(*) FROM stocks_quote q WHERE q.day IN (SELECT day FROM stocks_stage_day)");
        std::uint64_t matched = 0;
        std::uint64_t unchanged = 0;
        if (stored > 0) {
            matched = count("SELECT COUNT(*) FROM stocks_quote_stage s" + key_join);
            std::string same = "SELECT COUNT(*) FROM stocks_quote_stage s" + key_join + " WHERE 1 = 1";
            for (std::string_view column :
                 {"short_name", "specification", "isin", "open_price", "high_price", "low_price",
                  "average_price", "close_price", "best_bid", "best_ask", "trades", "quantity", "volume",
                  "quotation_factor", "distribution"}) {
                same += " AND q." + std::string(column) + " IS NOT DISTINCT FROM s." + std::string(column);
            }
            unchanged = count(same);
            sql_.Execute("DELETE FROM stocks_quote WHERE day IN (SELECT day FROM stocks_stage_day)");
        }
        sql_.Execute("INSERT INTO stocks_quote (" + std::string(kColumns) + ") SELECT " +
                     std::string(kColumns) + " FROM stocks_quote_stage");
        summary.inserted += result.kept - matched;
        summary.updated += matched - unchanged;
        summary.unchanged += unchanged;
        summary.removed += stored - matched;
        const std::string id = std::to_string(file_id);
        sql_.Execute("DELETE FROM stocks_day WHERE day IN (SELECT day FROM stocks_stage_day)");
        sql_.Execute(
            "INSERT INTO stocks_day (day, file_id, rows_kept) SELECT day, CAST($1 AS BIGINT), n FROM "
            "stocks_stage_day",
            {id});
        sql_.Execute("DROP TABLE stocks_stage_day");
        sql_.Execute("DELETE FROM stocks_quote_stage");
        return result;
    }

private:
    odb::database& db_;
    sdk::SqlSession sql_;
};

std::string DroppedSummary(const std::map<int, std::int64_t>& dropped) {
    std::string out;
    for (const auto& [market, count] : dropped) {
        out += (out.empty() ? "" : ", ") + GroupThousands(count) + " of market type " +
               (market < 0 ? std::string("(unreadable)") : std::to_string(market));
    }
    return out;
}

}  // namespace

sdk::IngestSummary CotahistIngester::Run(const sdk::IngestContext& context) {
    const sdk::IngestInputs inputs(context.inputs);
    const sdk::DatasetFiles files(inputs, Layout());
    if (files.Tables().empty()) {
        throw sdk::IngestError(std::string(kCotahistDataset), 0,
                               "no input files: expected " + files.Layout().expected);
    }
    for (const sdk::TableFile& table : files.Tables()) {
        CheckName(table);
    }

    sdk::IngestSummary summary;
    sdk::RowCounter counter(context.progress, summary);
    sdk::RejectionLog log(summary);
    sdk::SqlSession sql(context.db);
    const std::string seen_at = sdk::Rfc3339Utc(context.now);
    DayReplacement replacement(context.db);
    std::set<std::string> months;
    std::optional<std::string> first;
    std::optional<std::string> last;
    for (const sdk::TableFile& table : files.Tables()) {
        counter.Stage(table.file.display);
        CotahistReader reader(inputs.Open(table.file));
        replacement.Stage(reader, table.file.display, counter, log);
        replacement.RejectRepeats(table.file.display, log);
        if (const std::optional<std::string> problem = reader.CountProblem()) {
            log.Notice(*problem);
        }
        std::int64_t dropped = 0;
        for (const auto& [market, count] : reader.Dropped()) {
            dropped += count;
        }
        if (dropped > 0) {
            log.Notice(table.file.display + ": " + GroupThousands(dropped) +
                       " lines outside the cash market left out (" + DroppedSummary(reader.Dropped()) +
                       "): options, their exercises, forwards, futures and auctions are not served");
        }

        CotahistFile record;
        record.ingested_at = seen_at;
        record.source = table.file.display;
        record.edition = reader.Header() ? reader.Header()->edition : "";
        if (reader.Header() && reader.Header()->generated) {
            record.generated = reader.Header()->generated->ToString();
        }
        record.records = reader.RecordsRead();
        record.declared_records = reader.DeclaredRecords();
        record.dropped = dropped;
        context.db.persist(record);
        const FileResult result = replacement.Apply(record.id, summary);
        record.kept = result.kept;
        if (!result.days.empty()) {
            record.first_day = result.days.front();
            record.last_day = result.days.back();
            first = std::min(first.value_or(result.days.front()), result.days.front());
            last = std::max(last.value_or(result.days.back()), result.days.back());
        }
        context.db.update(record);
        for (const std::string& day : result.days) {
            months.insert(day.substr(0, 7));
        }
    }

    summary.release_label =
        "cotahist-" + (first ? *first + ".." + *last : std::string("empty")) + "-" + seen_at.substr(0, 10);
    const sdk::SqlRows latest = sql.Query("SELECT MAX(day) FROM stocks_day");
    if (!latest.empty() && latest[0][0]) {
        summary.as_of = *latest[0][0];
    }
    summary.periods = std::vector<std::string>(months.begin(), months.end());
    return summary;
}

}  // namespace lastro::stocks
