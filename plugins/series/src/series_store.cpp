#include "src/series_store.hpp"

#include "series_model-odb.hxx"
#include "series_model.hxx"
#include "src/row_json.hpp"

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/json_text.hpp>
#include <lastro/sdk/serving/remembered.hpp>

#include <odb/database.hxx>
#include <odb/result.hxx>

#include <stdexcept>
#include <string>
#include <vector>

namespace lastro::series {
namespace {

[[noreturn]] void NotIngested(const SeriesSpec& spec) {
    throw sdk::Unavailable("series " + std::to_string(spec.code) + " (" + spec.dataset +
                           ") has not been ingested yet");
}

}  // namespace

void RequireRelease(const sdk::Meta& meta, const SeriesSpec& spec) {
    if (!meta.data_release) {
        NotIngested(spec);
    }
}

void RequireRelease(const sdk::Host& host, const SeriesSpec& spec) {
    if (!host.LatestRelease(spec.dataset)) {
        NotIngested(spec);
    }
}

std::shared_ptr<const ServedSeries> LoadSeries(const sdk::RequestContext& context, const SeriesSpec& spec) {
    return sdk::Remembered<ServedSeries>(context.host, "series.data." + std::to_string(spec.code), [&] {
        using Query = odb::query<StoredObservation>;
        std::vector<Observation> observations;
        odb::result<StoredObservation> rows(context.db.query<StoredObservation>(
            (Query::series_code == spec.code) + "ORDER BY" + Query::date));
        for (const StoredObservation& row : rows) {
            const std::optional<sdk::Date> date = sdk::Date::Parse(row.date);
            if (!date) {
                throw std::runtime_error("series_observation holds a malformed date '" + row.date + "'");
            }
            observations.push_back({*date, row.value});
        }
        ServedSeries served;
        served.data = std::make_shared<const SeriesData>(spec, std::move(observations));
        const SeriesQuery native{std::nullopt, std::nullopt, spec.frequency, Transform::kNone};
        for (const PeriodSpan& period : PeriodsInRange(*served.data, native)) {
            sdk::JsonText json;
            WriteSeriesRow(json, ServeRow(*served.data, native, period, 0));
            served.native_rows.push_back(json.Take());
        }
        return served;
    });
}

}  // namespace lastro::series
