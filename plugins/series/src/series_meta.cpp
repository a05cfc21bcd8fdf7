#include "src/series_meta.hpp"

namespace lastro::series {

boost::json::object SeriesMeta(const SeriesData& data, const SeriesQuery& query) {
    const SeriesSpec& spec = data.Spec();
    boost::json::object meta;
    meta["id"] = spec.code;
    meta["dataset"] = spec.dataset;
    meta["name"] = spec.name;
    meta["kind"] = ToString(spec.kind);
    meta["native_frequency"] = ToString(spec.frequency);
    meta["published_unit"] = PublishedUnit(spec);
    meta["frequency"] = ToString(query.frequency);
    meta["transform"] = ToString(query.transform);
    meta["unit"] = ServedUnit(spec, query.frequency, query.transform);
    if (const std::optional<int> decimals = ServedDecimals(spec, query.frequency, query.transform)) {
        meta["decimals"] = *decimals;
    } else {
        meta["decimals"] = nullptr;  // as published
    }
    meta["from_date"] = query.from ? boost::json::value(query.from->ToString()) : boost::json::value(nullptr);
    meta["to_date"] = query.to ? boost::json::value(query.to->ToString()) : boost::json::value(nullptr);
    if (data.Size() > 0) {
        meta["first_observation"] = data.DateAt(0).ToString();
        meta["last_observation"] = data.DateAt(data.Size() - 1).ToString();
    } else {
        meta["first_observation"] = nullptr;
        meta["last_observation"] = nullptr;
    }
    meta["source_url"] =
        "https://api.bcb.gov.br/dados/serie/bcdata.sgs." + std::to_string(spec.code) + "/dados";
    return meta;
}

}  // namespace lastro::series
