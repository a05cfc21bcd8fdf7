#include <lastro/sdk/testing/checks.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <random>
#include <stdexcept>

namespace lastro::sdk::testing {
namespace {

bool IsHex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool IsDigit(char c) {
    return c >= '0' && c <= '9';
}

}  // namespace

bool IsUuid(std::string_view text) {
    if (text.size() != 36) {
        return false;
    }
    for (std::size_t i = 0; i < text.size(); ++i) {
        const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? text[i] != '-' : !IsHex(text[i])) {
            return false;
        }
    }
    return true;
}

bool IsRequestId(std::string_view text) {
    return IsUuid(text) && text[14] == '7' &&
           std::string_view("89abAB").find(text[19]) != std::string_view::npos;
}

bool IsIsoDate(std::string_view text) {
    if (text.size() != 10 || text[4] != '-' || text[7] != '-') {
        return false;
    }
    for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
        if (!IsDigit(text[i])) {
            return false;
        }
    }
    const int year = std::stoi(std::string(text.substr(0, 4)));
    const int month = std::stoi(std::string(text.substr(5, 2)));
    const int day = std::stoi(std::string(text.substr(8, 2)));
    if (month < 1 || month > 12 || day < 1) {
        return false;
    }
    static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return day <= kDays[month - 1] + (month == 2 && leap ? 1 : 0);
}

std::string RandomUuid() {
    std::random_device device;
    std::mt19937_64 rng(device());
    static const char* kHex = "0123456789abcdef";
    std::string id;
    for (int i = 0; i < 32; ++i) {
        if (i == 8 || i == 12 || i == 16 || i == 20) {
            id.push_back('-');
        }
        unsigned nibble = static_cast<unsigned>(rng() & 0xF);
        if (i == 12) {
            nibble = 4;
        }
        if (i == 16) {
            nibble = 8 | (nibble & 3);
        }
        id.push_back(kHex[nibble]);
    }
    return id;
}

std::string TitleFor(int status) {
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
            return "(no fixed title)";
    }
}

::testing::AssertionResult IsProblem(const HttpResponse& response, int status, const std::string& base_url,
                                     const std::string& instance,
                                     const std::optional<std::string>& parameter) {
    auto fail = [&](const std::string& why) {
        return ::testing::AssertionFailure() << why << "\n" << response.Describe();
    };
    if (response.status != status) {
        return fail("status " + std::to_string(response.status) + ", expected " + std::to_string(status));
    }
    if (response.Header("Content-Type") != "application/problem+json") {
        return fail("Content-Type is not application/problem+json");
    }
    boost::system::error_code ec;
    boost::json::value body = boost::json::parse(response.body, ec);
    if (ec || !body.is_object()) {
        return fail("the body is not a JSON object");
    }
    const boost::json::object& o = body.as_object();
    auto string_member = [&](std::string_view key) -> std::optional<std::string> {
        const boost::json::value* v = o.if_contains(key);
        if (!v || !v->is_string()) {
            return std::nullopt;
        }
        return std::string(v->get_string());
    };
    const std::string type = base_url + "/problems/http-" + std::to_string(status);
    if (string_member("type") != type) {
        return fail("type is not " + type);
    }
    if (string_member("title") != TitleFor(status)) {
        return fail("title is not \"" + TitleFor(status) + "\"");
    }
    const boost::json::value* s = o.if_contains("status");
    if (!s || !s->is_int64() || s->get_int64() != status) {
        return fail("member status is not the integer " + std::to_string(status));
    }
    if (!string_member("detail") || string_member("detail")->empty()) {
        return fail("detail is not a non-empty string");
    }
    if (string_member("instance") != instance) {
        return fail("instance is not " + instance);
    }
    auto request_id = string_member("request_id");
    if (!request_id || !IsUuid(*request_id)) {
        return fail("request_id is not a UUID");
    }
    if (response.Header("X-Request-Id") != request_id) {
        return fail("request_id differs from X-Request-Id");
    }
    const boost::json::value* p = o.if_contains("parameter");
    if (!p) {
        return fail("member parameter is missing (it must be a string or null)");
    }
    if (parameter) {
        if (!p->is_string() || p->get_string() != *parameter) {
            return fail("parameter is not \"" + *parameter + "\"");
        }
    } else if (!p->is_null()) {
        return fail("parameter is not null");
    }
    return ::testing::AssertionSuccess();
}

::testing::AssertionResult HasBillingHeaders(const HttpResponse& response) {
    for (std::string_view name : kBillingHeaders) {
        if (!response.IntHeader(name)) {
            return ::testing::AssertionFailure() << "header " << name << " is missing or not an integer\n"
                                                 << response.Describe();
        }
    }
    return ::testing::AssertionSuccess();
}

::testing::AssertionResult CreditsAre(const HttpResponse& response, std::int64_t cost, std::int64_t charged,
                                      std::int64_t remaining) {
    if (response.IntHeader("X-Credits-Cost") == cost && response.IntHeader("X-Credits-Charged") == charged &&
        response.IntHeader("X-Credits-Remaining") == remaining) {
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "expected X-Credits-Cost " << cost << ", X-Credits-Charged "
                                         << charged << ", X-Credits-Remaining " << remaining << "\n"
                                         << response.Describe();
}

::testing::AssertionResult IsEnvelope(const HttpResponse& response) {
    auto fail = [&](const std::string& why) {
        return ::testing::AssertionFailure() << why << "\n" << response.Describe();
    };
    if (response.status != 200) {
        return fail("status is not 200");
    }
    auto type = response.Header("Content-Type");
    if (!type || type->rfind("application/json", 0) != 0) {
        return fail("Content-Type is not application/json");
    }
    boost::system::error_code ec;
    boost::json::value body = boost::json::parse(response.body, ec);
    if (ec || !body.is_object()) {
        return fail("the body is not a JSON object");
    }
    const boost::json::object& o = body.as_object();
    const boost::json::value* data = o.if_contains("data");
    if (!data || !(data->is_array() || data->is_object())) {
        return fail("data is not an array or object");
    }
    const boost::json::value* meta_value = o.if_contains("meta");
    if (!meta_value || !meta_value->is_object()) {
        return fail("meta is not an object");
    }
    const boost::json::object& meta = meta_value->get_object();
    const boost::json::value* id = meta.if_contains("request_id");
    if (!id || !id->is_string() || !IsRequestId(id->get_string())) {
        return fail("meta.request_id is not a UUID");
    }
    if (response.Header("X-Request-Id") != std::string(id->get_string())) {
        return fail("meta.request_id differs from X-Request-Id");
    }
    const boost::json::value* rows = meta.if_contains("row_count");
    if (!rows || !rows->is_int64() || rows->get_int64() < 0) {
        return fail("meta.row_count is not an integer >= 0");
    }
    if (data->is_array() && static_cast<std::size_t>(rows->get_int64()) != data->get_array().size()) {
        return fail("meta.row_count differs from the size of data");
    }
    const boost::json::value* sources = meta.if_contains("sources");
    if (!sources || !sources->is_array()) {
        return fail("meta.sources is not an array");
    }
    for (const boost::json::value& s : sources->get_array()) {
        const boost::json::object* so = s.if_object();
        if (!so || so->size() != 2 || !so->contains("provider") || !so->at("provider").is_string() ||
            !so->contains("dataset") || !so->at("dataset").is_string()) {
            return fail("a meta.sources item is not {provider: string, dataset: string}");
        }
    }
    for (const char* key : {"data_release", "as_of"}) {
        const boost::json::value* v = meta.if_contains(key);
        if (!v || !(v->is_string() || v->is_null())) {
            return fail(std::string("meta.") + key + " is not a string or null");
        }
    }
    return ::testing::AssertionSuccess();
}

const boost::json::object& AsObject(const boost::json::value& v) {
    if (!v.is_object()) {
        throw std::runtime_error("expected a JSON object, found " + boost::json::serialize(v));
    }
    return v.get_object();
}

const boost::json::value& At(const boost::json::object& o, std::string_view key) {
    const boost::json::value* v = o.if_contains(key);
    if (!v) {
        throw std::runtime_error("no member " + std::string(key) + " in " + boost::json::serialize(o));
    }
    return *v;
}

std::string Str(const boost::json::object& o, std::string_view key) {
    const boost::json::value& v = At(o, key);
    if (!v.is_string()) {
        throw std::runtime_error("member " + std::string(key) + " is not a string in " +
                                 boost::json::serialize(o));
    }
    return std::string(v.get_string());
}

}  // namespace lastro::sdk::testing
