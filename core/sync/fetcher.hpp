// One file fetched over HTTP(S) with libcurl, the way `lastro sync` needs it (docs/sync.md):
// a conditional request (If-None-Match / If-Modified-Since from the last fetch), retries with
// exponential backoff on network errors, timeouts, truncated bodies, 403, 404, 429 and 5xx
// (Retry-After honoured), and a body that must be what the manifest says (a zip, CSV or JSON;
// an HTML page never is) before it is kept.
#pragma once

#include "core/config/config.hpp"
#include "core/plugins/manifest.hpp"

#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

namespace lastro::sync {

// A file that could not be fetched; the message names the URL and why.
class SyncError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct Validators {
    std::optional<std::string> etag;
    std::optional<std::string> last_modified;
};

struct Fetched {
    enum class Status { kFetched, kNotModified, kNotFound };
    Status status = Status::kFetched;
    Validators validators;  // the response's, for the next conditional request
    std::size_t bytes = 0;
    int attempts = 0;
};

class Fetcher {
public:
    // `sleep` waits between attempts (a test can make it instant); by default it sleeps.
    explicit Fetcher(const config::SyncConfig& config,
                     std::function<void(std::chrono::milliseconds)> sleep = nullptr);

    // `url` (after the configured origin replacement) into `into` (written whole or not at
    // all). kNotFound: still 404 after every attempt. Throws SyncError on anything else that
    // is not a usable file after the last attempt.
    Fetched Fetch(const std::string& url, const Validators& known, plugins::SyncSpec::Format format,
                  const std::filesystem::path& into) const;

    // The URL actually fetched for `url`.
    std::string Resolve(const std::string& url) const;

private:
    const config::SyncConfig& config_;
    std::function<void(std::chrono::milliseconds)> sleep_;
};

// Why a body is not of `format` ("an HTML page", "not a zip archive"...), nullopt when it is.
std::optional<std::string> WrongBody(const std::string& head, const std::string& content_type,
                                     plugins::SyncSpec::Format format);

}  // namespace lastro::sync
