#include "core/http/field_sources.hpp"

#include "core/http/json_writer.hpp"

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
    return ",\"field_sources\":" + WriteJson(sources);
}

}  // namespace lastro::http
