#include "ingest/inf_diario/inf_diario_ingester.hpp"

#include "domain/daily/daily_days.hpp"
#include "domain/daily/filing_rule.hpp"
#include "domain/daily/inf_diario_reader.hpp"
#include "ingest/inf_diario/month_replacement.hpp"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/ingest/inputs.hpp>
#include <lastro/sdk/ingest/progress.hpp>
#include <lastro/sdk/ingest/rejections.hpp>
#include <lastro/sdk/problem.hpp>

#include <algorithm>
#include <charconv>
#include <ctime>
#include <map>
#include <string>
#include <vector>

namespace lastro::series {
namespace {

constexpr std::string_view kDataset = "cvm.inf_diario_fi";

sdk::DatasetLayout Layout() {
    sdk::DatasetLayout layout;
    layout.dataset = std::string(kDataset);
    layout.tables.push_back({"inf_diario_fi", sdk::NamePattern("inf_diario_fi_{PERIOD}.csv"), true});
    layout.expected =
        "inf_diario_fi_YYYYMM.zip, inf_diario_fi_YYYYMM.csv or HIST/inf_diario_fi_YYYY.zip, as CVM publishes "
        "them";
    return layout;
}

bool InPeriod(const sdk::Date& day, const sdk::Period& period) {
    return day.year == period.year && (period.IsYear() || day.month == period.month);
}

// An archive named for a month or a year (inf_diario_fi_202401.zip, HIST/inf_diario_fi_2023.zip)
// holds members of that month, or of that year's months.
void CheckArchivePeriods(const sdk::IngestInputs& inputs, const sdk::DatasetFiles& files) {
    const sdk::NamePattern archive("inf_diario_fi_{PERIOD}.zip");
    for (const sdk::TableFile& table : files.Tables()) {
        if (!inputs.IsArchive(table.file.input) || !table.period) {
            continue;
        }
        const auto named = archive.Matches(inputs.FileName(table.file.input));
        if (!named || !named->period) {
            continue;
        }
        const sdk::Period& promised = *named->period;
        const bool inside =
            promised.IsYear() ? table.period->year == promised.year : *table.period == promised;
        if (!inside) {
            throw sdk::IngestError(
                inputs.FileName(table.file.input), 0,
                "member " + table.file.member + " is not of " + promised.Describe() + " of the archive");
        }
    }
}

// A month given twice (as a month and inside a year's member, or twice) is refused: which of the
// two to keep is not ours to guess.
void RefuseOverlaps(const std::vector<const sdk::TableFile*>& tables) {
    std::map<std::pair<int, int>, const sdk::TableFile*> months;
    for (const sdk::TableFile* table : tables) {
        const int first = table->period->IsYear() ? 1 : table->period->month;
        const int last = table->period->IsYear() ? 12 : table->period->month;
        for (int month = first; month <= last; ++month) {
            auto [it, inserted] = months.emplace(std::make_pair(table->period->year, month), table);
            if (!inserted) {
                throw sdk::IngestError(table->file.display, 0,
                                       "month " + sdk::Month{table->period->year, month}.ToString() +
                                           " is also given in " + it->second->file.display +
                                           ": give each month once");
            }
        }
    }
}

// "line 12: why" as the reader words a rejection, without its line (the log adds it).
std::string_view WithoutLine(std::string_view problem) {
    if (problem.starts_with("line ")) {
        if (const auto colon = problem.find(": "); colon != std::string_view::npos) {
            return problem.substr(colon + 2);
        }
    }
    return problem;
}

class Number {
public:
    std::string_view Of(std::int64_t value) {
        const auto [end, ec] = std::to_chars(text_, text_ + sizeof text_, value);
        (void)ec;
        return std::string_view(text_, static_cast<std::size_t>(end - text_));
    }

private:
    char text_[24];
};

sdk::SqlValue Optional(const std::optional<std::string>& value) {
    return value ? sdk::SqlValue(*value) : std::nullopt;
}

}  // namespace

sdk::IngestSummary InfDiarioIngester::Run(const sdk::IngestContext& context) {
    const sdk::IngestInputs inputs(context.inputs);
    const sdk::DatasetFiles files(inputs, Layout());
    files.RequireComplete();
    files.RefuseRepeats();
    CheckArchivePeriods(inputs, files);
    std::vector<const sdk::TableFile*> tables;
    for (const sdk::TableFile& table : files.Tables()) {
        tables.push_back(&table);
    }
    std::sort(tables.begin(), tables.end(),
              [](const sdk::TableFile* a, const sdk::TableFile* b) { return *a->period < *b->period; });
    RefuseOverlaps(tables);

    sdk::IngestSummary summary;
    sdk::RowCounter counter(context.progress, summary);
    sdk::RejectionLog log(summary);
    sdk::SqlSession sql(context.db);
    MonthReplacement replacement(context.db, sql, context.now);

    std::vector<std::string> periods;
    for (const sdk::TableFile* table : tables) {
        counter.Stage(table->file.display);
        replacement.BeginFile();
        {
            InfDiarioReader reader(inputs.Open(table->file));
            sdk::BulkLoader load(context.db, kStageTable, StageColumns());
            DailyReportRow row;
            std::string problem;
            Number day, rank, line, investors;
            for (ReadOutcome outcome; (outcome = reader.Next(row, problem)) != ReadOutcome::kEnd;) {
                counter.Row();
                if (outcome == ReadOutcome::kRejected) {
                    log.Reject(table->file.display, row.line, WithoutLine(problem));
                    continue;
                }
                if (!InPeriod(row.day, *table->period)) {
                    log.Reject(table->file.display, row.line,
                               "DT_COMPTC " + row.day.ToString() + " is not of " + table->period->Describe() +
                                   ", the file's");
                    continue;
                }
                const int filing_rank = FilingRank(row.fund_type);
                replacement.NoteStaged(row.cnpj, row.subclass, row.fund_type, filing_rank, row.line,
                                       DayNumber(row.day));
                load.Add({row.cnpj, row.subclass, row.fund_type, rank.Of(filing_rank),
                          line.Of(static_cast<std::int64_t>(row.line)), day.Of(DayNumber(row.day)),
                          Optional(row.total), Optional(row.quota), Optional(row.net_worth),
                          Optional(row.subscriptions), Optional(row.redemptions),
                          row.investors ? sdk::SqlValue(investors.Of(*row.investors)) : std::nullopt});
            }
            load.Finish();
        }
        const auto written = inputs.ModifiedAt(table->file);
        const std::string source = table->file.display;
        for (const int month : replacement.StagedMonths()) {
            counter.Stage(source + ": month " + std::to_string(month / 100) + "-" +
                          (month % 100 < 10 ? "0" : "") + std::to_string(month % 100));
            const MonthOutcome outcome = replacement.Replace(
                month, source,
                written ? std::optional<std::string>(sdk::Rfc3339Utc(*written)) : std::nullopt);
            summary.inserted += outcome.inserted;
            summary.updated += outcome.changed;
            summary.unchanged += outcome.unchanged;
            summary.removed += outcome.removed;
            for (const std::string& notice : outcome.notices) {
                log.Notice(notice);
            }
            summary.rejected += outcome.duplicates;
            if (outcome.inserted + outcome.changed + outcome.removed > 0) {
                periods.push_back(sdk::Month{month / 100, month % 100}.ToString());
            }
        }
    }

    const std::string first = tables.front()->period->ToString();
    const std::string last = tables.back()->period->ToString();
    summary.release_label = "inf-diario-fi-" + (first == last ? first : first + ".." + last) + "-v" +
                            std::to_string(replacement.Vintage());
    summary.as_of = replacement.LastDay();
    summary.periods = periods;
    return summary;
}

}  // namespace lastro::series
