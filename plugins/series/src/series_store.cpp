#include "src/series_store.hpp"

#include "series_model-odb.hxx"
#include "series_model.hxx"

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/remembered.hpp>

#include <odb/database.hxx>
#include <odb/result.hxx>

#include <stdexcept>
#include <string>
#include <vector>

namespace lastro::series {

std::shared_ptr<const SeriesData> LoadSeries(const sdk::RequestContext& context, const SeriesSpec& spec) {
    if (!context.host.LatestRelease(spec.dataset)) {
        throw sdk::Unavailable("series " + std::to_string(spec.code) + " (" + spec.dataset +
                               ") has not been ingested yet");
    }
    return sdk::Remembered<SeriesData>(context.host, "series.data." + std::to_string(spec.code), [&] {
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
        return SeriesData(spec, std::move(observations));
    });
}

}  // namespace lastro::series
