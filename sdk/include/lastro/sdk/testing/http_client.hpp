// A small blocking HTTP/1.1 client over libcurl for end-to-end tests. It only ever talks
// to 127.0.0.1 (never through a proxy) and hands back the status, the headers (looked up
// case-insensitively) and the body.
#pragma once

#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lastro::sdk::testing {

struct HttpRequest {
    std::string method = "GET";
    std::string target;                // path and query, percent-encoded as it goes on the wire
    std::vector<std::string> headers;  // "Name: value"
    std::optional<std::string> body;
};

struct HttpResponse {
    long status = 0;    // 0 when no response arrived
    std::string error;  // libcurl's message when no response arrived
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
    std::string target;  // what was asked, for messages

    // The first header of that name (case-insensitive).
    std::optional<std::string> Header(std::string_view name) const;
    bool Has(std::string_view name) const { return Header(name).has_value(); }
    // Header(name) as an integer; nullopt when absent or not an integer.
    std::optional<std::int64_t> IntHeader(std::string_view name) const;
    // The body parsed as JSON; throws std::runtime_error naming the target when it is not.
    boost::json::value Json() const;
    // "GET /v1/x -> 422 {...}" for assertion messages.
    std::string Describe() const;
};

class HttpClient {
public:
    explicit HttpClient(std::uint16_t port);
    ~HttpClient();
    HttpClient(const HttpClient&) = delete;
    HttpClient& operator=(const HttpClient&) = delete;

    HttpResponse Send(const HttpRequest& request);
    // GET target, with "Authorization: Bearer <key>" when a key is given.
    HttpResponse Get(const std::string& target, const std::optional<std::string>& key = std::nullopt);

    std::uint16_t Port() const { return port_; }
    // Every X-Request-Id this client received, in order.
    const std::vector<std::string>& RequestIds() const { return request_ids_; }
    std::size_t Sent() const { return sent_; }

private:
    std::uint16_t port_;
    void* curl_;  // CURL*
    std::vector<std::string> request_ids_;
    std::size_t sent_ = 0;
};

// Percent-encodes everything but RFC 3986's unreserved characters (for query values).
std::string UrlEncode(std::string_view text);

}  // namespace lastro::sdk::testing
