// GET /v1/macroeconomia?series=11,12,433: several series aligned by period
// (docs/api/macroeconomia.md, "Several series").
#include "src/handlers.hpp"
#include "src/series_meta.hpp"
#include "src/series_request.hpp"
#include "src/series_store.hpp"

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>
#include <lastro/sdk/serving/json_text.hpp>
#include <lastro/sdk/serving/pagination.hpp>

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

namespace lastro::series {
namespace {

constexpr std::size_t kMaxSeries = 10;
constexpr const char* kIssuer = "/v1/macroeconomia";

// The codes of `series`, in the order asked: 1..kMaxSeries distinct served codes.
std::vector<const SeriesSpec*> ReadSeriesList(const SeriesCatalog& catalog, const std::string& text) {
    std::vector<const SeriesSpec*> specs;
    std::set<std::int64_t> seen;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string item = text.substr(start, comma - start);
        std::int64_t code = 0;
        const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), code);
        if (item.empty() || error != std::errc() || end != item.data() + item.size() || code < 1) {
            throw sdk::InvalidParameter(
                "series",
                "expected SGS codes separated by commas (11,12,433), found '" + item + "' in '" + text + "'");
        }
        const SeriesSpec* spec = catalog.Find(code);
        if (!spec) {
            throw sdk::InvalidParameter(
                "series",
                "series " + item + " is not served; the served SGS series are " + catalog.ServedCodes());
        }
        if (!seen.insert(code).second) {
            throw sdk::InvalidParameter("series", "series " + item + " is asked twice");
        }
        specs.push_back(spec);
        start = comma + 1;
    }
    if (specs.size() > kMaxSeries) {
        throw sdk::InvalidParameter("series", "at most " + std::to_string(kMaxSeries) + " series, found " +
                                                  std::to_string(specs.size()));
    }
    return specs;
}

struct Column {
    const SeriesSpec* spec = nullptr;
    std::shared_ptr<const SeriesData> data;
    std::vector<PeriodSpan> periods;  // of the range
    std::size_t range_begin = 0;
};

}  // namespace

sdk::Result HandleMacroTable(const SeriesCatalog& catalog, const sdk::RequestContext& context) {
    const std::vector<const SeriesSpec*> specs =
        ReadSeriesList(catalog, context.params.String("series").value_or(""));
    std::optional<Frequency> common = specs.front()->frequency;
    for (const SeriesSpec* spec : specs) {
        if (spec->frequency != *common) {
            common.reset();
            break;
        }
    }
    const SeriesQuery query = ReadSeriesQuery(context.params, common);
    std::vector<Column> columns;
    for (const SeriesSpec* spec : specs) {
        CheckQuery(*spec, query.frequency, query.transform);
    }
    for (const SeriesSpec* spec : specs) {
        Column column;
        column.spec = spec;
        RequireRelease(context.host, *spec);
        column.data = LoadSeries(context, *spec)->data;
        column.periods = PeriodsInRange(*column.data, query);
        column.range_begin = RangeBegin(*column.data, query);
        columns.push_back(std::move(column));
    }

    const std::size_t limit = sdk::PageLimit(context.params, 100);
    const auto position = sdk::ReadPosition<PeriodAfter>(context.cursor_position, kIssuer);
    // The page's keys: the union of the columns' periods after the cursor, in order.
    std::set<std::string> keys;
    for (const Column& column : columns) {
        auto it = column.periods.begin();
        if (position) {
            it = std::upper_bound(
                column.periods.begin(), column.periods.end(), position->after,
                [](const std::string& key, const PeriodSpan& span) { return key < span.key; });
        }
        for (std::size_t n = 0; it != column.periods.end() && n <= limit; ++it, ++n) {
            keys.insert(it->key);
        }
    }
    std::vector<std::string> page(keys.begin(), keys.end());
    const bool more = sdk::CutToPage(page, limit);

    sdk::JsonText json;
    json.BeginArray();
    for (const std::string& key : page) {
        json.BeginObject();
        std::optional<sdk::Date> date;
        std::vector<std::pair<std::string, std::optional<std::string>>> values;
        std::vector<std::string> partial;
        for (const Column& column : columns) {
            const std::string code = std::to_string(column.spec->code);
            auto it =
                std::lower_bound(column.periods.begin(), column.periods.end(), key,
                                 [](const PeriodSpan& span, const std::string& k) { return span.key < k; });
            if (it == column.periods.end() || it->key != key) {
                values.emplace_back(code, std::nullopt);
                continue;
            }
            const ServedRow row = ServeRow(*column.data, query, *it, column.range_begin);
            date = date ? std::min(*date, row.date) : row.date;
            values.emplace_back(code, row.value);
            if (row.partial) {
                partial.push_back(code);
            }
        }
        json.Key("date").Value(date->ToString());
        json.Key("period").Value(key);
        json.Key("values").BeginObject();
        for (const auto& [code, value] : values) {
            json.Key(code);
            value ? json.Raw(*value) : json.Null();
        }
        json.EndObject();
        json.Key("partial").BeginArray();
        for (const std::string& code : partial) {
            json.Value(code);
        }
        json.EndArray();
        json.EndObject();
    }
    json.EndArray();

    sdk::Result result;
    result.data_json = json.Take();
    result.meta = sdk::DatasetMeta(context.host, {columns.front().spec->dataset});
    for (std::size_t i = 1; i < columns.size(); ++i) {
        result.meta.sources.push_back({"bcb", columns[i].spec->dataset.substr(4)});
    }
    boost::json::array series;
    for (const Column& column : columns) {
        series.push_back(SeriesMeta(*column.data, query));
    }
    result.meta.extra["series"] = std::move(series);
    result.meta.row_count = page.size();
    if (more) {
        result.meta.next_position = sdk::PositionValue(PeriodAfter{page.back()});
    }
    return result;
}

}  // namespace lastro::series
