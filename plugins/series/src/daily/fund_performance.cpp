// GET /v1/series-diarias/{cnpj}/desempenho: one series of CVM's daily reports, its rows with
// their returns and the CDI's, and the summary of the range (docs/api/series-diarias.md; the
// formulas in docs/performance.md). The figures are computed over the whole range on every
// call and paged after, since returns accumulate from the range's first quota.
#include "domain/business_calendar.hpp"
#include "domain/daily/daily_days.hpp"
#include "domain/daily/performance.hpp"
#include "src/daily/daily_store.hpp"
#include "src/daily/performance_json.hpp"
#include "src/daily/published_json.hpp"
#include "src/handlers.hpp"
#include "src/series_request.hpp"
#include "src/series_store.hpp"

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/sample/date_math.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>
#include <lastro/sdk/serving/json_text.hpp>
#include <lastro/sdk/serving/pagination.hpp>
#include <lastro/sdk/serving/remembered.hpp>

#include <algorithm>
#include <charconv>

namespace lastro::series {
namespace {

constexpr const char* kIssuer = "/v1/series-diarias/{cnpj}/desempenho";
constexpr std::int64_t kCdiDaily = 12;  // % a day
// CVM's file holds ~99 % of the funds of a day 5 business days after it (docs/performance.md).
constexpr int kCompletenessLag = 5;

std::optional<double> Number(const std::optional<std::string>& text) {
    if (!text) {
        return std::nullopt;
    }
    double value = 0;
    const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
    return ec == std::errc() && end == text->data() + text->size() ? std::optional<double>(value)
                                                                   : std::nullopt;
}

std::string Candidates(const std::vector<DailySeries>& series) {
    std::string list;
    for (const DailySeries& one : series) {
        list += (list.empty() ? "" : ", ") + SourceSeriesId(one);
    }
    return list;
}

const DailySeries& ChooseSeries(const std::vector<DailySeries>& series,
                                const std::optional<std::string>& asked, const std::string& cnpj) {
    if (asked) {
        for (const DailySeries& one : series) {
            if (SourceSeriesId(one) == *asked) {
                return one;
            }
        }
        throw sdk::NotFound(
            "CNPJ " + cnpj + " has no series " + *asked + "; its series are " + Candidates(series),
            "source_series_id");
    }
    if (series.size() > 1) {
        throw sdk::BadRequest("CNPJ " + cnpj + " has " + std::to_string(series.size()) +
                                  " series; say which in source_series_id: " + Candidates(series),
                              "source_series_id");
    }
    return series.front();
}

// The last day with at least kCompletenessLag business days after it up to `written` (the
// file's day): CVM's later days are still being filed.
sdk::Date LastCompleteDay(const sdk::Date& written) {
    int lag = 0;  // business days in (day, written]
    for (sdk::Date day = written;; day = sdk::sample::AddDays(day, -1)) {
        if (IsBusinessDay(day)) {
            if (lag >= kCompletenessLag) {
                return day;
            }
            ++lag;
        }
    }
}

// The CDI's daily factors (SGS 12), read once per release.
std::shared_ptr<const std::vector<CdiFactor>> CdiFactors(const SeriesCatalog& catalog,
                                                         const sdk::RequestContext& context) {
    const SeriesSpec* spec = catalog.Find(kCdiDaily);
    if (!spec || !context.host.LatestRelease(spec->dataset)) {
        return std::make_shared<const std::vector<CdiFactor>>();
    }
    return sdk::Remembered<std::vector<CdiFactor>>(context.host, "series.cdi_factors", [&] {
        auto factors = std::make_shared<std::vector<CdiFactor>>();
        const std::shared_ptr<const ServedSeries> served = LoadSeries(context, *spec);
        for (const Observation& observation : served->data->Observations()) {
            if (const std::optional<double> rate = Number(observation.value)) {
                factors->push_back({observation.date, 1 + *rate / 100});
            }
        }
        return std::shared_ptr<const std::vector<CdiFactor>>(std::move(factors));
    });
}

void WriteRow(sdk::JsonText& json, const PerformanceRow& row, const DailyValue& value,
              const std::vector<std::string>& vintages) {
    json.BeginObject();
    json.Key("date").Value(row.day.ToString());
    json.Key("quota");
    WritePublished(json, value.quota);
    json.Key("net_worth");
    WritePublished(json, value.net_worth);
    json.Key("total_assets");
    WritePublished(json, value.total);
    json.Key("subscriptions");
    WritePublished(json, value.subscriptions);
    json.Key("redemptions");
    WritePublished(json, value.redemptions);
    json.Key("investors").Value(value.investors);
    const auto at = [&](int vintage) {
        return static_cast<std::size_t>(vintage) < vintages.size()
                   ? vintages[static_cast<std::size_t>(vintage)]
                   : std::string();
    };
    json.Key("first_seen_at").Value(at(value.first_seen));
    json.Key("value_since").Value(at(value.changed));
    WritePerformanceFigures(json, row);
    json.EndObject();
}

}  // namespace

sdk::Result HandleFundPerformance(const SeriesCatalog& catalog, const sdk::RequestContext& context) {
    const std::string cnpj = *context.params.String("cnpj");
    const bool monthly = context.params.String("frequency").value_or("daily") == "monthly";
    const std::optional<sdk::Date> from = ReadDateBound(context.params, "from_date", false);
    const std::optional<sdk::Date> to = ReadDateBound(context.params, "to_date", true);
    if (from && to && *to < *from) {
        throw sdk::InvalidParameter(
            "to_date", "to_date (" + to->ToString() + ") is before from_date (" + from->ToString() + ")");
    }
    const std::optional<sdk::Date> as_of = context.params.DateValue("as_of");

    sdk::Result result;
    result.meta = sdk::DatasetMeta(context.host, {kInfDiarioDataset, "bcb.sgs.12"});
    if (!context.host.LatestRelease(std::string(kInfDiarioDataset))) {
        throw sdk::Unavailable("CVM's daily reports (cvm.inf_diario_fi) were never ingested here");
    }
    sdk::SqlSession sql(context.db);
    DailyStore store(sql);
    const std::vector<DailySeries> candidates = store.SeriesOf(cnpj);
    if (candidates.empty()) {
        throw sdk::NotFound("CVM's daily reports have no series under CNPJ " + cnpj, "cnpj");
    }
    const std::optional<std::string> asked = context.params.String("source_series_id");
    const DailySeries& series = ChooseSeries(candidates, asked, cnpj);
    std::optional<int> vintage;
    if (as_of) {
        vintage = store.VintageAsOf(DayNumber(*as_of));
        if (!vintage) {
            throw sdk::NotFound("Lastro served no daily reports on or before " + as_of->ToString(), "as_of");
        }
    }

    const std::vector<DailyValue> values =
        store.Values(series.id, from ? DayNumber(*from) : 0, to ? DayNumber(*to) : 99991231, vintage);
    PerformanceInput input;
    input.rows.reserve(values.size());
    for (const DailyValue& value : values) {
        input.rows.push_back({DateOfNumber(value.day), Number(value.quota)});
    }
    const std::shared_ptr<const std::vector<CdiFactor>> cdi = CdiFactors(catalog, context);
    if (!values.empty()) {
        const sdk::Date first = input.rows.front().day;
        const sdk::Date last = input.rows.back().day;
        const auto begin = std::lower_bound(cdi->begin(), cdi->end(), first,
                                            [](const CdiFactor& f, const sdk::Date& d) { return f.day < d; });
        const auto end = std::upper_bound(begin, cdi->end(), last,
                                          [](const sdk::Date& d, const CdiFactor& f) { return d < f.day; });
        input.cdi.assign(begin, end);
    }
    const std::shared_ptr<const DailyDatasetState> state = sdk::Remembered<DailyDatasetState>(
        context.host, "series.daily_state",
        [&] { return std::make_shared<const DailyDatasetState>(store.DatasetState()); });
    std::optional<sdk::Date> written = state->latest_written;
    if (as_of && (!written || *as_of < *written)) {
        written = as_of;
    }
    input.last_complete_day = written ? LastCompleteDay(*written) : sdk::Date{2999, 12, 31};
    input.end_asked = to.has_value();
    const std::vector<int>& published = state->published_days;
    input.day_published = [&published](const sdk::Date& day) {
        return std::binary_search(published.begin(), published.end(), DayNumber(day));
    };

    const std::vector<PerformanceRow> rows = monthly ? MonthlyRows(input) : DailyRows(input);
    const PerformanceSummary summary = Summarize(input);

    const std::size_t limit = sdk::PageLimit(context.params, 100);
    std::size_t first = 0;
    if (const auto position = sdk::ReadPosition<PeriodAfter>(context.cursor_position, kIssuer)) {
        const std::optional<sdk::Date> after = sdk::Date::Parse(position->after);
        if (!after) {
            sdk::RejectCursor(kIssuer);
        }
        first = static_cast<std::size_t>(
            std::upper_bound(rows.begin(), rows.end(), *after,
                             [](const sdk::Date& d, const PerformanceRow& row) { return d < row.day; }) -
            rows.begin());
    }
    const std::size_t end = std::min(rows.size(), first + limit);
    const std::vector<std::string>& vintages = state->vintage_times;

    sdk::JsonText json;
    json.BeginArray();
    for (std::size_t i = first; i < end; ++i) {
        // A daily row is the published row of its day; a monthly one, its month's last usable day.
        const int day = DayNumber(rows[i].day);
        const auto value = std::lower_bound(values.begin(), values.end(), day,
                                            [](const DailyValue& v, int d) { return v.day < d; });
        WriteRow(json, rows[i], *value, vintages);
    }
    json.EndArray();
    result.data_json = json.Take();
    result.meta.row_count = end - first;
    if (end < rows.size()) {
        result.meta.next_position = sdk::PositionValue(PeriodAfter{rows[end - 1].day.ToString()});
    }

    result.meta.extra["series"] = {
        {"source_series_id", SourceSeriesId(series)},
        {"origin", kInfDiarioDataset},
        {"cnpj", series.cnpj},
        {"subclass",
         series.subclass.empty() ? boost::json::value(nullptr) : boost::json::value(series.subclass)},
        {"fund_type", series.fund_type},
        {"frequency", monthly ? "monthly" : "daily"},
    };
    result.meta.extra["last_complete_day"] = input.last_complete_day.ToString();
    if (as_of) {
        // meta.as_of is the release's own date; this is the vintage the as_of parameter chose.
        result.meta.extra["served_as_of"] = {
            {"date", as_of->ToString()},
            {"served_since", vintages.at(static_cast<std::size_t>(*vintage))},
        };
    }
    result.meta.extra["summary"] = PerformanceSummaryJson(summary);
    return result;
}

}  // namespace lastro::series
