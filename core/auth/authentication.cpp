#include "core/auth/authentication.hpp"

#include "core/metrics/server_metrics.hpp"
#include "core/storage/database.hpp"

#include <algorithm>
#include <cctype>

namespace lastro::auth {

Authentication::Authentication(odb::database& db, const AuthenticationSettings& settings,
                               metrics::ServerMetrics* metrics)
    : settings_(settings),
      keys_(db, settings.reply_timeout),
      key_cache_(keys_, settings.key_cache, settings.unknown_key_cache),
      failed_auths_(settings.failed_auth_limit, settings.failed_auth_window_s),
      metrics_(metrics) {}

std::variant<Caller, request::Refusal> Authentication::Authenticate(
    const std::optional<std::string>& authorization, const std::string& client_address, std::time_t now) {
    using Reason = metrics::ServerMetrics::AuthRefusal;
    const auto refused = [&](Reason reason, request::Refusal refusal) {
        if (metrics_) {
            metrics_->AuthRefused(reason);
        }
        return refusal;
    };
    const std::string& header = authorization.value_or("");
    // The scheme is case-insensitive (RFC 9110 11.1): "bearer KEY" is "Bearer KEY".
    const bool bearer = header.size() > 7 && header[6] == ' ' &&
                        std::equal(header.begin(), header.begin() + 6, "bearer", [](char a, char b) {
                            return std::tolower(static_cast<unsigned char>(a)) == b;
                        });
    if (auto wait = failed_auths_.Throttled(client_address, now)) {
        if (!bearer || !key_cache_.SeenValid(header.substr(7))) {
            request::Refusal r{429, "too many failed authentications from this address; retry after " +
                                        std::to_string(*wait) + " seconds with a valid API key"};
            r.With("Retry-After", std::to_string(*wait));
            return refused(Reason::kThrottled, std::move(r));
        }
    }
    if (!bearer) {
        failed_auths_.Failed(client_address, now);
        return refused(Reason::kMissing,
                       {401, authorization ? "the Authorization header must be 'Bearer <API key>'"
                                           : "this operation needs an API key: Authorization: Bearer <key>"});
    }
    bool looked_up = false;
    std::optional<Principal> principal;
    try {
        principal = key_cache_.Authenticate(header.substr(7), &looked_up);
    } catch (const std::exception& e) {
        if (!storage::IsUnavailable(e)) {
            throw;
        }
        return request::Unavailable(e.what());
    }
    if (looked_up && metrics_) {
        metrics_->KeyLookup();
    }
    if (!principal) {
        failed_auths_.Failed(client_address, now);
        return refused(Reason::kInvalid, {401, "the API key is not valid (unknown, revoked or malformed)"});
    }
    Caller caller;
    caller.allowance = principal->monthly_credits.value_or(settings_.monthly_allowance);
    caller.per_minute = principal->calls_per_minute.value_or(settings_.calls_per_minute);
    caller.principal = std::move(*principal);
    return caller;
}

}  // namespace lastro::auth
