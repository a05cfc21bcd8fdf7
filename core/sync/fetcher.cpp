#include "core/sync/fetcher.hpp"

#include <curl/curl.h>
#include <boost/json.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <thread>

namespace lastro::sync {

namespace {

namespace fs = std::filesystem;

// One attempt's outcome.
struct Attempt {
    long status = 0;      // HTTP status; 0 when no response came
    std::string failure;  // libcurl's error, when the transfer failed
    std::string content_type;
    Validators validators;
    std::optional<long> retry_after_s;
    std::string head;  // the first bytes of the body, to check its kind
    std::size_t bytes = 0;
};

struct Sink {
    std::ofstream* out = nullptr;
    Attempt* attempt = nullptr;
};

std::size_t OnBody(char* data, std::size_t size, std::size_t count, void* user) {
    auto* sink = static_cast<Sink*>(user);
    const std::size_t n = size * count;
    if (sink->attempt->head.size() < 512) {
        sink->attempt->head.append(data, std::min(n, 512 - sink->attempt->head.size()));
    }
    sink->out->write(data, static_cast<std::streamsize>(n));
    sink->attempt->bytes += n;
    return sink->out->good() ? n : 0;  // a short count makes libcurl stop with a write error
}

std::string Trimmed(std::string text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
        text.pop_back();
    }
    std::size_t start = 0;
    while (start < text.size() && std::isspace(static_cast<unsigned char>(text[start]))) {
        ++start;
    }
    return text.substr(start);
}

std::size_t OnHeader(char* data, std::size_t size, std::size_t count, void* user) {
    auto* attempt = static_cast<Attempt*>(user);
    const std::string line(data, size * count);
    const std::size_t colon = line.find(':');
    if (colon != std::string::npos) {
        std::string name = line.substr(0, colon);
        std::transform(name.begin(), name.end(), name.begin(),
                       [](unsigned char c) { return std::tolower(c); });
        const std::string value = Trimmed(line.substr(colon + 1));
        if (name == "etag") {
            attempt->validators.etag = value;
        } else if (name == "last-modified") {
            attempt->validators.last_modified = value;
        } else if (name == "content-type") {
            attempt->content_type = value;
        } else if (name == "retry-after" && !value.empty() &&
                   std::all_of(value.begin(), value.end(), [](unsigned char c) { return std::isdigit(c); })) {
            attempt->retry_after_s = std::stol(value.substr(0, 6));
        }
    }
    return size * count;
}

// curl_global_init once, before any handle (it is not thread-safe, and lastro is one thread).
void InitCurl() {
    static const bool done = [] { return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK; }();
    if (!done) {
        throw SyncError("libcurl could not be initialised");
    }
}

Attempt Get(const std::string& url, const Validators& known, const config::SyncConfig& config,
            const fs::path& into) {
    Attempt attempt;
    std::ofstream out(into, std::ios::binary | std::ios::trunc);
    if (!out) {
        throw SyncError(into.string() + ": cannot write");
    }
    std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), &curl_easy_cleanup);
    struct curl_slist* headers = nullptr;
    if (known.etag) {
        headers = curl_slist_append(headers, ("If-None-Match: " + *known.etag).c_str());
    }
    if (known.last_modified) {
        headers = curl_slist_append(headers, ("If-Modified-Since: " + *known.last_modified).c_str());
    }
    std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> header_list(headers, &curl_slist_free_all);
    Sink sink{&out, &attempt};
    char error[CURL_ERROR_SIZE] = {};
    CURL* h = curl.get();
    curl_easy_setopt(h, CURLOPT_URL, url.c_str());
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(h, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, header_list.get());
    curl_easy_setopt(h, CURLOPT_USERAGENT, "lastro-sync/" LASTRO_VERSION);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, static_cast<long>(config.connect_timeout_s));
    curl_easy_setopt(h, CURLOPT_TIMEOUT, static_cast<long>(config.timeout_s));
    curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");  // gzip/deflate when the server offers it
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &OnBody);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &sink);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, &OnHeader);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, &attempt);
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    const CURLcode code = curl_easy_perform(h);
    out.close();
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &attempt.status);
    if (code != CURLE_OK) {
        // A body cut short (CURLE_PARTIAL_FILE), a timeout, a refused connection...
        attempt.failure = error[0] ? error : curl_easy_strerror(code);
    }
    return attempt;
}

bool Retried(long status) {
    return status == 403 || status == 404 || status == 429 || status >= 500;
}

std::string Lowered(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    return text;
}

// What an origin's JSON error body says (SGS: {"error": "..."} or {"erro": {"detail": "..."}}),
// quoted for the failure line; empty when the body says nothing readable.
std::string ErrorSaid(const std::string& head) {
    boost::system::error_code ec;
    const boost::json::value body = boost::json::parse(head, ec);
    const boost::json::object* o = ec ? nullptr : body.if_object();
    if (!o) {
        return "";
    }
    const boost::json::value* said = o->if_contains("error");
    if (const boost::json::object* erro = o->contains("erro") ? o->at("erro").if_object() : nullptr) {
        said = erro->if_contains("detail");
    }
    if (!said || !said->is_string()) {
        return "";
    }
    std::string text(said->get_string());
    std::replace_if(text.begin(), text.end(), [](unsigned char c) { return c < 0x20; }, ' ');
    return " (\"" + text.substr(0, 200) + "\")";
}

}  // namespace

std::optional<std::string> WrongBody(const std::string& head, const std::string& content_type,
                                     plugins::SyncSpec::Format format) {
    const std::string start = Lowered(Trimmed(head.substr(0, 256)));
    const bool html = Lowered(content_type).rfind("text/html", 0) == 0 || start.rfind("<!doctype", 0) == 0 ||
                      start.rfind("<html", 0) == 0;
    if (html) {
        return "an HTML page (" + (content_type.empty() ? std::string("no Content-Type") : content_type) +
               ")";
    }
    switch (format) {
        case plugins::SyncSpec::Format::kZip:
            if (head.rfind("PK\x03\x04", 0) != 0 && head.rfind("PK\x05\x06", 0) != 0) {
                return "not a zip archive";
            }
            break;
        case plugins::SyncSpec::Format::kJson:
            if (start.empty() || (start[0] != '{' && start[0] != '[')) {
                return "not JSON";
            }
            break;
        case plugins::SyncSpec::Format::kCsv:
            if (start.empty()) {
                return "empty";
            }
            break;
    }
    return std::nullopt;
}

Fetcher::Fetcher(const config::SyncConfig& config, std::function<void(std::chrono::milliseconds)> sleep)
    : config_(config), sleep_(std::move(sleep)) {
    if (!sleep_) {
        sleep_ = [](std::chrono::milliseconds ms) { std::this_thread::sleep_for(ms); };
    }
}

std::string Fetcher::Resolve(const std::string& url) const {
    for (const auto& [from, to] : config_.origins) {
        if (url.rfind(from, 0) == 0) {
            return to + url.substr(from.size());
        }
    }
    return url;
}

Fetched Fetcher::Fetch(const std::string& url, const Validators& known, plugins::SyncSpec::Format format,
                       const fs::path& into) const {
    InitCurl();
    const std::string actual = Resolve(url);
    const fs::path part = into.string() + ".part";
    std::string last;
    long delay_ms = config_.backoff_ms;
    int made = 0;
    for (int attempt = 1; attempt <= config_.attempts; ++attempt) {
        made = attempt;
        if (attempt > 1) {
            sleep_(std::chrono::milliseconds(delay_ms));
            delay_ms *= 2;
        }
        const Attempt a = Get(actual, known, config_, part);
        if (a.retry_after_s) {
            // The server says when; never longer than a minute, so a timer run stays bounded.
            delay_ms = std::max(delay_ms, std::min<long>(*a.retry_after_s, 60) * 1000);
        }
        if (!a.failure.empty()) {
            last = a.failure;
            continue;
        }
        if (a.status == 304) {
            std::error_code ignored;
            fs::remove(part, ignored);
            return Fetched{Fetched::Status::kNotModified, known, 0, attempt};
        }
        if (a.status != 200) {
            last = "HTTP " + std::to_string(a.status) + ErrorSaid(a.head);
            if (Retried(a.status)) {
                if (a.status == 404 && attempt == config_.attempts) {
                    std::error_code ignored;
                    fs::remove(part, ignored);
                    return Fetched{Fetched::Status::kNotFound, {}, 0, attempt};
                }
                continue;
            }
            break;  // 401, 410...: asking again will not help
        }
        if (auto wrong = WrongBody(a.head, a.content_type, format)) {
            last = "the answer is " + *wrong + ", not the file";  // a maintenance page: ask again
            continue;
        }
        fs::rename(part, into);
        return Fetched{Fetched::Status::kFetched, a.validators, a.bytes, attempt};
    }
    std::error_code ignored;
    fs::remove(part, ignored);
    throw SyncError(url + (actual != url ? " (from " + actual + ")" : "") + ": " + last + " after " +
                    std::to_string(made) + " attempt" + (made == 1 ? "" : "s"));
}

}  // namespace lastro::sync
