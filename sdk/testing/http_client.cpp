#include <lastro/sdk/testing/http_client.hpp>

#include <curl/curl.h>
#include <boost/json/parse.hpp>

#include <cctype>
#include <charconv>
#include <mutex>
#include <stdexcept>

namespace lastro::sdk::testing {
namespace {

std::string Lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

std::string_view Trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
        text.remove_prefix(1);
    }
    while (!text.empty() &&
           (text.back() == ' ' || text.back() == '\t' || text.back() == '\r' || text.back() == '\n')) {
        text.remove_suffix(1);
    }
    return text;
}

std::size_t OnBody(char* data, std::size_t size, std::size_t count, void* user) {
    static_cast<HttpResponse*>(user)->body.append(data, size * count);
    return size * count;
}

std::size_t OnHeader(char* data, std::size_t size, std::size_t count, void* user) {
    auto* response = static_cast<HttpResponse*>(user);
    std::string_view line(data, size * count);
    if (line.rfind("HTTP/", 0) == 0) {
        response->headers.clear();  // a new response (after 100 Continue, say)
    } else if (auto colon = line.find(':'); colon != std::string_view::npos) {
        response->headers.emplace_back(std::string(Trim(line.substr(0, colon))),
                                       std::string(Trim(line.substr(colon + 1))));
    }
    return size * count;
}

void GlobalInit() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

}  // namespace

std::optional<std::string> HttpResponse::Header(std::string_view name) const {
    const std::string wanted = Lower(name);
    for (const auto& [key, value] : headers) {
        if (Lower(key) == wanted) {
            return value;
        }
    }
    return std::nullopt;
}

std::optional<std::int64_t> HttpResponse::IntHeader(std::string_view name) const {
    auto text = Header(name);
    if (!text || text->empty()) {
        return std::nullopt;
    }
    std::int64_t value = 0;
    auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
    if (ec != std::errc() || end != text->data() + text->size()) {
        return std::nullopt;
    }
    return value;
}

boost::json::value HttpResponse::Json() const {
    boost::system::error_code ec;
    boost::json::value v = boost::json::parse(body, ec);
    if (ec) {
        throw std::runtime_error("the body of " + target + " is not JSON (" + ec.message() + "): " + body);
    }
    return v;
}

std::string HttpResponse::Describe() const {
    std::string text = target + " -> ";
    if (status == 0) {
        return text + "no response: " + error;
    }
    text += std::to_string(status);
    for (const auto& [k, v] : headers) {
        text += "\n  " + k + ": " + v;
    }
    text += "\n  " + (body.size() > 2000 ? body.substr(0, 2000) + "..." : body);
    return text;
}

HttpClient::HttpClient(std::uint16_t port) : port_(port) {
    GlobalInit();
    curl_ = curl_easy_init();
    if (!curl_) {
        throw std::runtime_error("curl_easy_init failed");
    }
}

HttpClient::~HttpClient() {
    curl_easy_cleanup(static_cast<CURL*>(curl_));
}

HttpResponse HttpClient::Send(const HttpRequest& request) {
    CURL* curl = static_cast<CURL*>(curl_);
    curl_easy_reset(curl);  // keeps the connection cache
    HttpResponse response;
    response.target = request.method + " " + request.target;
    const std::string url = "http://127.0.0.1:" + std::to_string(port_) + request.target;
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_PROXY, "");  // never a proxy, whatever the environment says
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, 5000L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, 30000L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &OnBody);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &response);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, &OnHeader);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &response);
    curl_slist* headers = curl_slist_append(nullptr, "Expect:");
    for (const std::string& h : request.headers) {
        headers = curl_slist_append(headers, h.c_str());
    }
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    if (request.body) {
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body->data());
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body->size()));
    }
    if (request.method == "HEAD") {
        curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
    } else if (request.method != "GET" || request.body) {
        curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.c_str());
    }
    const CURLcode code = curl_easy_perform(curl);
    ++sent_;
    if (code == CURLE_OK) {
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
    } else {
        response.status = 0;
        response.error = curl_easy_strerror(code);
    }
    curl_slist_free_all(headers);
    if (auto id = response.Header("X-Request-Id")) {
        request_ids_.push_back(*id);
    }
    return response;
}

HttpResponse HttpClient::Get(const std::string& target, const std::optional<std::string>& key) {
    HttpRequest request;
    request.target = target;
    if (key) {
        request.headers.push_back("Authorization: Bearer " + *key);
    }
    return Send(request);
}

std::string UrlEncode(std::string_view text) {
    static const char* kHex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : text) {
        if ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '-' ||
            c == '.' || c == '_' || c == '~') {
            out.push_back(static_cast<char>(c));
        } else {
            out.push_back('%');
            out.push_back(kHex[c >> 4]);
            out.push_back(kHex[c & 0x0F]);
        }
    }
    return out;
}

}  // namespace lastro::sdk::testing
