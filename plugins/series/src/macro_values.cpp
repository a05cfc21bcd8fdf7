// GET /v1/macroeconomia/{serie_id}: one series, a page of rows (docs/api/macroeconomia.md).
#include "src/handlers.hpp"
#include "src/series_meta.hpp"
#include "src/series_request.hpp"
#include "src/series_store.hpp"

#include <lastro/sdk/serving/dataset_meta.hpp>
#include <lastro/sdk/serving/json_text.hpp>
#include <lastro/sdk/serving/pagination.hpp>

namespace lastro::series {

sdk::Result HandleMacroValues(const SeriesCatalog& catalog, const sdk::RequestContext& context) {
    const SeriesSpec& spec = catalog.Require(context.params.Integer("serie_id").value_or(0), "serie_id");
    const SeriesQuery query = ReadSeriesQuery(context.params, spec.frequency);
    CheckQuery(spec, query.frequency, query.transform);
    const std::shared_ptr<const SeriesData> data = LoadSeries(context, spec);
    const std::size_t limit = sdk::PageLimit(context.params, 100);
    const auto position =
        sdk::ReadPosition<PeriodAfter>(context.cursor_position, "/v1/macroeconomia/{serie_id}");

    std::size_t first = RangeBegin(*data, query);
    if (position) {
        const std::optional<std::size_t> after = IndexAfterPeriod(*data, query.frequency, position->after);
        if (!after) {
            sdk::RejectCursor("/v1/macroeconomia/{serie_id}");
        }
        first = *after;
    }
    std::vector<PeriodSpan> periods = PeriodsInRange(*data, query, first, limit + 1);
    const bool more = sdk::CutToPage(periods, limit);

    const std::size_t range_begin = RangeBegin(*data, query);
    sdk::JsonText json;
    json.BeginArray();
    for (const PeriodSpan& period : periods) {
        const ServedRow row = ServeRow(*data, query, period, range_begin);
        json.BeginObject();
        json.Key("date").Value(row.date.ToString());
        json.Key("period").Value(row.period);
        json.Key("value");
        row.value ? json.Raw(*row.value) : json.Null();
        json.Key("observations").Value(static_cast<std::int64_t>(row.observations));
        json.Key("last_observation").Value(row.last_observation.ToString());
        json.Key("partial").Value(row.partial);
        json.EndObject();
    }
    json.EndArray();

    sdk::Result result;
    result.data_json = json.Take();
    result.meta = sdk::DatasetMeta(context.host, {spec.dataset});
    result.meta.row_count = periods.size();
    result.meta.extra["series"] = SeriesMeta(*data, query);
    if (more) {
        result.meta.next_position = sdk::PositionValue(PeriodAfter{periods.back().key});
    }
    return result;
}

}  // namespace lastro::series
