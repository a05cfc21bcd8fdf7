#include "core/http/field_sources.hpp"

#include <lastro/sdk/serving/json_text.hpp>

#include <boost/json/object.hpp>

namespace lastro::http {

std::string FieldSourcesMember(const plugins::OperationSpec& op) {
    boost::json::object sources;
    for (const plugins::FieldSpec& field : op.response.fields) {
        if (field.source) {
            sources[field.name] = *field.source;
        }
    }
    if (sources.empty()) {
        return "";
    }
    return ",\"field_sources\":" + sdk::WriteJson(sources);
}

}  // namespace lastro::http
