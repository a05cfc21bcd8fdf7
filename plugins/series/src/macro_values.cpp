// GET /v1/macroeconomia/{serie_id}: one series, a page of rows (docs/api/macroeconomia.md).
#include "src/handlers.hpp"
#include "src/row_json.hpp"
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
    sdk::Result result;
    result.meta = sdk::DatasetMeta(context.host, {spec.dataset});
    RequireRelease(result.meta, spec);
    const std::shared_ptr<const ServedSeries> served = LoadSeries(context, spec);
    const std::shared_ptr<const SeriesData>& data = served->data;
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
    // A row as published depends on no parameter: its JSON was written with the series.
    const bool as_published = query.frequency == spec.frequency && query.transform == Transform::kNone;
    sdk::JsonText json;
    json.BeginArray();
    for (const PeriodSpan& period : periods) {
        if (as_published) {
            json.Raw(served->native_rows[period.begin]);
        } else {
            WriteSeriesRow(json, ServeRow(*data, query, period, range_begin));
        }
    }
    json.EndArray();

    result.data_json = json.Take();
    result.meta.row_count = periods.size();
    result.meta.extra["series"] = SeriesMeta(*data, query);
    if (more) {
        result.meta.next_position = sdk::PositionValue(PeriodAfter{periods.back().key});
    }
    return result;
}

}  // namespace lastro::series
