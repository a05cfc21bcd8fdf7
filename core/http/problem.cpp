#include "core/http/problem.hpp"

#include <boost/json.hpp>

namespace lastro::http {

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
    switch (status) {
        case 400:
            return "Invalid parameter or filter combination";
        case 401:
            return "Missing or invalid API key";
        case 403:
            return "Insufficient scope for the resource";
        case 404:
            return "Entity, month or resource not found";
        case 405:
            return "Method not allowed";
        case 408:
            return "Request timeout";
        case 413:
            return "Request too large";
        case 415:
            return "Unsupported media type";
        case 422:
            return "Invalid parameter";
        case 429:
            return "Insufficient monthly credits";
        case 500:
            return "Internal API error";
        case 503:
            return "Data source temporarily unavailable";
        default:
            return "Error";
    }
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

}  // namespace lastro::http
