#include "src/row_json.hpp"

#include <cstdint>

namespace lastro::series {

void WriteSeriesRow(sdk::JsonText& json, const ServedRow& row) {
    json.BeginObject();
    json.Key("date").Value(row.date.ToString());
    json.Key("period").Value(row.period);
    json.Key("value");
    row.value ? json.Raw(*row.value) : json.Null();  // decimal text, as published or computed
    json.Key("observations").Value(static_cast<std::int64_t>(row.observations));
    json.Key("last_observation").Value(row.last_observation.ToString());
    json.Key("partial").Value(row.partial);
    json.EndObject();
}

}  // namespace lastro::series
