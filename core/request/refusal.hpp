// What a part of the request pipeline answers when the call goes no further: the status, the
// problem's detail and parameter, the headers it adds (Retry-After, Allow) and, for a database
// that is away or an internal error, the error behind it for the log. Each part (transport checks,
// authentication, arguments, admission, answering) returns its own state or a Refusal; the pipeline
// (http/api_service) writes it as problem+json. The vocabulary every part shares, so that none includes
// another.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lastro::request {

struct Refusal {
    Refusal(int status_, std::string detail_, std::optional<std::string> parameter_ = std::nullopt)
        : status(status_), detail(std::move(detail_)), parameter(std::move(parameter_)) {}

    int status = 500;
    std::string detail;
    std::optional<std::string> parameter;
    std::vector<std::pair<std::string, std::string>> headers;
    // The error behind a 503 (the database away) or a 500: logged, never shown to the client.
    std::optional<std::string> cause;
    // The body's media type when the contract names one other than application/problem+json
    // (contract 7: a 415's is application/json).
    std::optional<std::string> media_type;

    Refusal& With(std::string name, std::string value) {
        headers.emplace_back(std::move(name), std::move(value));
        return *this;
    }
};

// 503: the database is temporarily away; `cause` goes to the log.
inline Refusal Unavailable(std::string cause) {
    Refusal r(503, "the database is temporarily unavailable; retry shortly");
    r.cause = std::move(cause);
    r.With("Retry-After", "1");
    return r;
}

}  // namespace lastro::request
