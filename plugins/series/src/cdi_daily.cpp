// GET /v1/benchmarks/cdi/serie-diaria: the CDI with its factors, B3's rule (docs/cdi.md).
#include "domain/cdi.hpp"
#include "src/handlers.hpp"
#include "src/series_meta.hpp"
#include "src/series_request.hpp"
#include "src/series_store.hpp"

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>
#include <lastro/sdk/serving/json_text.hpp>
#include <lastro/sdk/serving/pagination.hpp>
#include <lastro/sdk/serving/remembered.hpp>

namespace lastro::series {
namespace {

constexpr std::int64_t kCdiDaily = 12;     // % a day: the rate B3's factor is
constexpr std::int64_t kCdiAnnual = 4389;  // % a year, base 252: the cross-check
constexpr const char* kIssuer = "/v1/benchmarks/cdi/serie-diaria";

void Field(sdk::JsonText& json, const char* key, const std::optional<std::string>& number) {
    json.Key(key);
    number ? json.Raw(*number) : json.Null();
}

}  // namespace

sdk::Result HandleCdiDaily(const SeriesCatalog& catalog, const sdk::RequestContext& context) {
    const SeriesSpec* daily_spec = catalog.Find(kCdiDaily);
    if (!daily_spec) {
        throw sdk::Unavailable(
            "the CDI needs SGS series 12, which this installation's manifest does not declare");
    }
    const SeriesSpec* annual_spec = catalog.Find(kCdiAnnual);
    const SeriesQuery query = ReadSeriesQuery(context.params, Frequency::kDaily);
    CheckQuery(*daily_spec, query.frequency, query.transform);
    const bool with_annual = annual_spec && context.host.LatestRelease(annual_spec->dataset);
    sdk::Result result;
    result.meta = with_annual ? sdk::DatasetMeta(context.host, {daily_spec->dataset, annual_spec->dataset})
                              : sdk::DatasetMeta(context.host, {daily_spec->dataset});
    RequireRelease(result.meta, *daily_spec);
    const std::shared_ptr<const SeriesData> daily = LoadSeries(context, *daily_spec)->data;
    std::shared_ptr<const SeriesData> annual;
    if (with_annual) {
        annual = LoadSeries(context, *annual_spec)->data;
    }
    const std::shared_ptr<const CdiData> cdi = sdk::Remembered<CdiData>(
        context.host, "series.cdi", [&] { return std::make_shared<const CdiData>(daily, annual); });

    const std::size_t limit = sdk::PageLimit(context.params, 100);
    const auto position = sdk::ReadPosition<CdiAfter>(context.cursor_position, kIssuer);
    const std::size_t range_begin = RangeBegin(*daily, query);
    std::size_t first = range_begin;
    std::optional<Wide> accumulated = OneAccumulated();
    if (position) {
        const std::optional<std::size_t> after = IndexAfterPeriod(*daily, query.frequency, position->after);
        if (!after) {
            sdk::RejectCursor(kIssuer);
        }
        first = *after;
        accumulated =
            position->accumulated ? std::optional<Wide>(Wide(*position->accumulated)) : std::nullopt;
    }
    std::vector<PeriodSpan> periods = PeriodsInRange(*daily, query, first, limit + 1);
    const bool more = sdk::CutToPage(periods, limit);

    sdk::JsonText json;
    json.BeginArray();
    for (const PeriodSpan& period : periods) {
        const CdiRow row = ServeCdiRow(*cdi, query, period, range_begin, accumulated);
        json.BeginObject();
        json.Key("date").Value(row.base.date.ToString());
        json.Key("period").Value(row.base.period);
        Field(json, "annual_rate_pct", row.annual_rate_pct);
        Field(json, "rate_pct", row.rate_pct);
        Field(json, "factor", row.factor);
        Field(json, "daily_factor_from_annual", row.daily_factor_from_annual);
        Field(json, "accumulated_factor", row.accumulated_factor);
        Field(json, "value", row.base.value);
        json.Key("observations").Value(static_cast<std::int64_t>(row.base.observations));
        json.Key("partial").Value(row.base.partial);
        json.EndObject();
    }
    json.EndArray();

    result.data_json = json.Take();
    result.meta.row_count = periods.size();
    boost::json::object series = SeriesMeta(*daily, query);
    series["accumulation"] =
        "product of the daily factors from the range's first day, truncated to 16 decimals "
        "after each day (B3)";
    result.meta.extra["series"] = std::move(series);
    if (more) {
        CdiAfter next{periods.back().key, std::nullopt};
        if (accumulated) {
            next.accumulated = accumulated->str();
        }
        result.meta.next_position = sdk::PositionValue(next);
    }
    return result;
}

}  // namespace lastro::series
