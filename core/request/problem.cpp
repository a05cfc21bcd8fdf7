#include "core/request/problem.hpp"

#include <boost/json.hpp>

namespace lastro::request {

int StatusOf(sdk::ProblemCode code) {
    switch (code) {
        case sdk::ProblemCode::kBadRequest:
            return 400;
        case sdk::ProblemCode::kForbidden:
            return 403;
        case sdk::ProblemCode::kNotFound:
            return 404;
        case sdk::ProblemCode::kInvalidParameter:
            return 422;
        case sdk::ProblemCode::kUnavailable:
            return 503;
    }
    return 500;
}

const char* ProblemTitle(int status) {
    for (const ProblemStatus& p : kProblemStatuses) {
        if (p.status == status) {
            return p.title;
        }
    }
    return "Error";
}

std::string MinimalProblemBody(int status, const std::string& detail) {
    return boost::json::serialize(
        boost::json::object{{"title", ProblemTitle(status)}, {"status", status}, {"detail", detail}});
}

std::string ProblemBody(const std::string& base_url, int status, const std::string& detail,
                        const std::string& instance, const std::string& request_id,
                        const std::optional<std::string>& parameter) {
    boost::json::object o;
    o["type"] = base_url + "/problems/http-" + std::to_string(status);
    o["title"] = ProblemTitle(status);
    o["status"] = status;
    o["detail"] = detail;
    o["instance"] = instance;
    o["request_id"] = request_id;
    if (parameter) {
        o["parameter"] = *parameter;
    } else {
        o["parameter"] = nullptr;
    }
    return boost::json::serialize(o);
}

}  // namespace lastro::request
