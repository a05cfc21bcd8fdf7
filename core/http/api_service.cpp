#include "core/http/api_service.hpp"

#include "core/billing/wall_clock.hpp"

#include "core/catalog/catalog.hpp"
#include "core/catalog/docs_page.hpp"
#include "core/catalog/openapi_document.hpp"
#include "core/http/field_sources.hpp"
#include "core/http/percent_decoding.hpp"
#include "core/http/problem.hpp"
#include "core/http/request_id.hpp"
#include "core/ingest/release_catalog.hpp"
#include "core/plugins/param_conversion.hpp"
#include "core/storage/database.hpp"
#include "core/storage/reply_deadline.hpp"

#include <lastro/sdk/serving/json_text.hpp>
#include <lastro/sdk/text.hpp>

#include <openssl/evp.h>
#include <boost/json.hpp>
#include <odb/exceptions.hxx>
#include <odb/transaction.hxx>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <optional>
#include <set>
#include <stdexcept>

namespace lastro::http {

struct ApiService::Call {
    std::string request_id;
    std::string instance;
    std::chrono::steady_clock::time_point started;
    std::time_t now = 0;
    bool is_v1 = false;
    // What the metrics count the request under when it has no operation: health or pricing
    // (ServerMetrics), else unmatched.
    std::string_view unbilled_label = metrics::ServerMetrics::kUnmatched;
    const plugins::OperationSpec* operation = nullptr;
    std::optional<auth::Principal> principal;
    std::int64_t allowance = 0;   // the key's monthly credits, once authenticated
    std::int64_t per_minute = 0;  // the key's calls per minute
    std::int64_t price = 0;
    // Set for an included later page: when the page that paid for it was answered, and its limit.
    std::optional<std::pair<std::time_t, std::int64_t>> included_by;
    std::optional<billing::Reservation> reservation;
    std::optional<billing::CreditState> credits;
    std::optional<billing::RateDecision> rate;
    std::int64_t charged = 0;
    // "hit" or "miss" when the response cache was asked; "outdated" when it answered from a
    // release that a newer one replaced before the call settled, and the call was answered anew.
    const char* cache = nullptr;
    // Set when the answer came from the response cache without reading the database, or its
    // releases from memory (ingest::ReleaseCache): the release id it was cached under, checked
    // by the call's settlement (LedgerWriter).
    std::optional<std::int64_t> answered_at_generation;
};

// A billed call between its answer and its settlement, with what answering it anew needs.
struct ApiService::Settling {
    Call call;
    OutgoingResponse response;
    Respond respond;
    std::optional<RouteMatch> match;  // set when a handler answered
    sdk::Params params;
    std::string filters;
    std::optional<boost::json::value> position;
};

namespace {

constexpr std::size_t kMaxQueryParams = 32;

// The request path made safe to echo in `instance`: bytes outside printable ASCII are
// percent-encoded (the raw target may carry anything).
std::string SafeInstance(const std::string& raw) {
    static const char* kHex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : raw) {
        if (c < 0x21 || c > 0x7E || c == '"' || c == '\\') {
            out.push_back('%');
            out.push_back(kHex[c >> 4]);
            out.push_back(kHex[c & 0x0F]);
        } else {
            out.push_back(static_cast<char>(c));
        }
    }
    return out;
}

bool HasEncodedSlash(std::string_view raw) {
    for (std::size_t at = raw.find('%'); at != std::string_view::npos; at = raw.find('%', at + 1)) {
        if (at + 2 < raw.size() && raw[at + 1] == '2' && (raw[at + 2] == 'F' || raw[at + 2] == 'f')) {
            return true;
        }
    }
    return false;
}

std::string ParamText(const sdk::ParamValue& value) {
    struct Visitor {
        std::string operator()(const std::string& s) const { return s; }
        std::string operator()(std::int64_t i) const { return std::to_string(i); }
        std::string operator()(double d) const {
            char buffer[32];
            auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, d);
            return ec == std::errc() ? std::string(buffer, end) : std::string();
        }
        std::string operator()(bool b) const { return b ? "true" : "false"; }
        std::string operator()(const sdk::Month& m) const { return m.ToString(); }
        std::string operator()(const sdk::Date& d) const { return d.ToString(); }
    };
    return std::visit(Visitor{}, value);
}

// A digest of the filters (every parameter but cursor and limit), binding a cursor to them. A
// text the operation matches folded (ParamSpec::folded) is digested folded: two spellings that
// find the same rows take each other's cursors.
std::string FiltersDigest(const plugins::OperationSpec& op, const sdk::Params& params) {
    std::string canonical;
    for (const auto& [name, value] : params.All()) {
        if (name == "cursor" || name == "limit")
            continue;
        std::string text = ParamText(value);
        if (const plugins::ParamSpec* spec = op.FindParam(name); spec && spec->folded) {
            std::string_view trimmed = text;
            while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.front()))) {
                trimmed.remove_prefix(1);
            }
            while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.back()))) {
                trimmed.remove_suffix(1);
            }
            text = sdk::FoldForSearch(trimmed);
        }
        canonical += name + "=" + text + "\n";
    }
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    EVP_Digest(canonical.data(), canonical.size(), digest, &size, EVP_sha256(), nullptr);
    return Base64UrlEncode(std::string(reinterpret_cast<char*>(digest), 12));
}

struct ParamsOutcome {
    sdk::Params params;
    std::optional<std::pair<std::string, std::string>> error;  // parameter, detail (422)
};

ParamsOutcome ValidateParams(const plugins::OperationSpec& op, const std::map<std::string, std::string>& path,
                             const std::vector<std::pair<std::string, std::string>>& query) {
    ParamsOutcome out;
    std::map<std::string, std::string> given;
    for (const auto& [name, value] : query) {
        const plugins::ParamSpec* spec = op.FindParam(name);
        if (!spec || spec->in != plugins::ParamLocation::kQuery) {
            std::string shown = sdk::IsValidUtf8(name) ? name : SafeInstance(name);
            out.error = {shown, "unknown parameter '" + shown + "' for " + op.path};
            return out;
        }
        given[name] = value;
    }
    for (const plugins::ParamSpec& spec : op.params) {
        std::optional<std::string> raw;
        if (spec.in == plugins::ParamLocation::kPath) {
            auto it = path.find(spec.name);
            if (it != path.end())
                raw = it->second;
        } else if (auto it = given.find(spec.name); it != given.end()) {
            raw = it->second;
        }
        if (raw) {
            // One spelling of each text (NFC): "E" + combining acute is "É" for every check,
            // search and cursor after this. A value that shows nothing is refused like an
            // empty one, so that a filter that went blank never widens a query.
            *raw = sdk::NormalizeNfc(*raw);
            if (sdk::IsBlank(*raw)) {
                out.error = {spec.name, spec.name + (raw->empty() ? " must not be empty"
                                                                  : " must not be blank (white space only)")};
                return out;
            }
        }
        if (!raw) {
            if (spec.required) {
                out.error = {spec.name, spec.name + " is required"};
                return out;
            }
            if (!spec.default_value)
                continue;
            raw = spec.default_value;
        }
        auto converted = plugins::ConvertParam(spec, *raw);
        if (auto* error = std::get_if<plugins::ParamError>(&converted)) {
            out.error = {spec.name, error->detail};
            return out;
        }
        out.params.Set(spec.name, std::get<sdk::ParamValue>(std::move(converted)));
    }
    return out;
}

// What identifies a handler's answer besides the data: the operation, every parameter (defaults
// included, the cursor replaced by the position it carries).
std::string AnswerKey(const plugins::OperationSpec& op, const sdk::Params& params,
                      const std::optional<boost::json::value>& position) {
    std::string key = op.id;
    for (const auto& [name, value] : params.All()) {
        if (name == "cursor")
            continue;
        key += '\n';
        key += name;
        key += '=';
        key += ParamText(value);
    }
    if (position) {
        key += "\n@";
        key += boost::json::serialize(*position);
    }
    return key;
}

// A handler's result as the JSON text that every call answered by it shares, with the
// operation's field_sources member (Route::field_sources) after the handler's own members.
std::shared_ptr<const FrozenAnswer> Freeze(sdk::Result result, const Route& route) {
    if (result.meta.extra.contains("field_sources")) {
        throw std::logic_error("the handler of " + route.operation->id +
                               " sets meta.field_sources; the host answers it from the manifest's "
                               "response fields (source:)");
    }
    auto frozen = std::make_shared<FrozenAnswer>();
    boost::json::object meta;
    meta["data_release"] = result.meta.data_release ? boost::json::value(*result.meta.data_release) : nullptr;
    meta["as_of"] = result.meta.as_of ? boost::json::value(*result.meta.as_of) : nullptr;
    meta["row_count"] = result.data.is_array()
                            ? result.data.as_array().size()
                            : result.meta.row_count.value_or(result.data.is_null() ? 0 : 1);
    boost::json::array sources;
    for (const sdk::Source& s : result.meta.sources) {
        sources.push_back(boost::json::object{{"provider", s.provider}, {"dataset", s.dataset}});
    }
    meta["sources"] = std::move(sources);
    for (const auto& [key, value] : result.meta.extra) {
        meta[key] = value;
    }
    const std::string members = sdk::WriteJson(meta);  // "{...}", never empty: data_release is always there
    frozen->meta = "," + members.substr(1, members.size() - 2) + route.field_sources;
    if (result.data_json) {
        if (!result.data.is_null()) {
            throw std::logic_error("the handler of " + route.operation->id + " sets both data and data_json");
        }
        frozen->data = std::move(*result.data_json);
    } else {
        frozen->data = sdk::WriteJson(result.data);
    }
    frozen->next_position = std::move(result.meta.next_position);
    return frozen;
}

// Failures go to the same log as the access lines, also as one JSON object per line.
std::string ErrorLine(const std::string& request_id, const std::string& what) {
    return boost::json::serialize(
        boost::json::object{{"level", "error"}, {"request_id", request_id}, {"error", what}});
}

billing::LedgerWriterOptions LedgerOptions(const config::Config& config, odb::database& db,
                                           metrics::ServerMetrics* metrics,
                                           std::function<void(std::int64_t)> saw_newest) {
    billing::LedgerWriterOptions options;
    options.instance = config.server.instance;
    options.stale_reservation_seconds = static_cast<std::time_t>(config.billing.stale_reservation_seconds);
    options.write_timeout = std::chrono::milliseconds(config.billing.write_timeout_ms);
    // One lastrod owns a SQLite database (storage::ServingLock, taken by lastrod's main), so
    // there admission is decided in this process; on PostgreSQL the database decides.
    options.decide_in_process = db.id() == odb::id_sqlite;
    if (db.id() == odb::id_pgsql && config.billing.lease_seconds > 0) {
        // Several instances share PostgreSQL: each decides in memory against what it leased.
        billing::LeaseSettings leases;
        leases.ttl = std::chrono::seconds(config.billing.lease_seconds);
        // Spent only while every call of the lease settles, or gets its reservation written,
        // before the database's expiry: a third of the time, or the write delay and two batches.
        leases.margin = std::min<std::chrono::steady_clock::duration>(
            std::max<std::chrono::steady_clock::duration>(
                leases.ttl / 3, options.reservation_write_delay + 2 * options.write_timeout),
            leases.ttl * 2 / 3);
        options.leases = leases;
    }
    // On the writer's connection when billing shares the data's database (PostgreSQL: one round
    // trip on a connection that is warm); otherwise on one of the data's.
    // Every id read is reported to `saw_newest`: calls answered after an ingest start at its release.
    options.newest_generation = [&db, saw_newest](odb::connection& connection) {
        std::int64_t newest = 0;
        if (&connection.database() == &db) {
            newest = ingest::ReleaseCatalog::NewestReleaseIdNow(db, connection);
        } else {
            odb::connection_ptr data(db.connection());
            newest = ingest::ReleaseCatalog::NewestReleaseIdNow(db, *data);
        }
        saw_newest(newest);
        return newest;
    };
    if (metrics) {
        options.on_batch = [metrics](std::size_t calls, std::chrono::steady_clock::duration took) {
            metrics->LedgerBatch(calls, took);
        };
    }
    return options;
}

// How long a call's reads wait for the database: bounded on PostgreSQL, which may stop
// answering; SQLite's waits are bounded by its busy timeout.
std::chrono::milliseconds ReplyTimeout(const config::Config& config, const odb::database& db) {
    return db.id() == odb::id_pgsql ? std::chrono::milliseconds(config.database.pgsql_reply_timeout_ms)
                                    : std::chrono::milliseconds::zero();
}

}  // namespace

void ApiService::SawRelease(std::int64_t id) {
    std::int64_t seen = newest_seen_.load(std::memory_order_relaxed);
    while (seen < id && !newest_seen_.compare_exchange_weak(seen, id, std::memory_order_relaxed)) {
    }
}

ApiService::ApiService(const config::Config& config, odb::database& db, odb::database& billing,
                       const plugins::PluginSet& plugins, std::vector<std::string> cursor_secrets,
                       std::shared_ptr<spdlog::logger> access_log, metrics::ServerMetrics* metrics)
    : config_(config),
      db_(db),
      plugins_(plugins),
      keys_(db, ReplyTimeout(config, db)),
      key_cache_(keys_, std::chrono::milliseconds(config.auth.key_cache_ms),
                 std::chrono::milliseconds(config.auth.unknown_key_cache_ms)),
      failed_auths_(config.auth.failed_auth_limit, config.auth.failed_auth_window_s),
      ledger_(billing, LedgerOptions(config, db, metrics, [this](std::int64_t id) { SawRelease(id); })),
      cursors_(std::move(cursor_secrets)),
      answers_(static_cast<std::size_t>(config.server.response_cache_mb) << 20),
      access_log_(std::move(access_log)),
      metrics_(metrics),
      started_at_(billing::WallNow()),
      openapi_json_(std::make_shared<const std::string>(
          sdk::WriteJson(catalog::OpenApiDocument(plugins, config.server.base_url)))) {
    for (const auto& p : plugins.Plugins()) {
        for (const plugins::OperationSpec& op : p->manifest.operations) {
            auto it = p->handlers.find(op.id);
            routes_.Add(Route{&op, it == p->handlers.end() ? nullptr : &it->second,
                              RouteTable::Split(op.path), FieldSourcesMember(op)});
        }
    }
}

void ApiService::Handle(const IncomingRequest& request, Respond respond) {
    Call call;
    call.request_id = NewRequestId();
    call.started = std::chrono::steady_clock::now();
    call.now = billing::WallNow();
    call.instance = SafeInstance(request.resource);
    OutgoingResponse response;
    try {
        // One canonical path, the decoded one, before anything looks at it: "/%761/fundos" is
        // "/v1/fundos" for the /v1 rules as for routing.
        auto path = PercentDecode(request.resource, false);
        call.is_v1 = path && (*path == "/v1" || path->rfind("/v1/", 0) == 0);
        if (request.wire_problem) {
            response = Problem(call, request.wire_problem->first, request.wire_problem->second);
        } else if (draining_) {
            response = Problem(call, 503, "the server is shutting down; retry on another instance");
            response.headers.emplace_back("Retry-After", "1");
        } else if (request.size_bytes > config_.server.max_request_bytes) {
            response =
                Problem(call, 413,
                        "the request is about " + std::to_string(request.size_bytes) +
                            " bytes; the limit is " + std::to_string(config_.server.max_request_bytes));
        } else if (!path || !sdk::IsValidUtf8(*path)) {
            response = Problem(call, 400, "the request path is not validly percent-encoded UTF-8");
        } else if (HasEncodedSlash(request.resource)) {
            // A segment never holds a '/': decoding one would let "/v1%2Ffundos" reach a route
            // that a rule on the raw path (a proxy's) did not see.
            response = Problem(call, 400, "the request path holds an encoded '/' (%2F); no resource has one");
        } else if (request.has_body &&
                   (!request.content_type || request.content_type->rfind("application/json", 0) != 0)) {
            response = Problem(call, 415, "requests carry no body; a body must be application/json");
            response.content_type = "application/json";
        } else if (auto document = PublicDocument(call, *path)) {
            if (request.method != "GET") {
                response = Problem(call, 405, "only GET is allowed on " + *path);
                response.headers.emplace_back("Allow", "GET");
            } else {
                response = std::move(*document);
            }
        } else if (auto match = routes_.Match(*path)) {
            if (request.method != "GET") {
                // Costs nothing, but the key's headers are its own (a client that backs off on a
                // zero must not stop): counted in its minute like a path no operation serves.
                if (auto away = CountUnpriced(call, request)) {
                    response = std::move(*away);
                } else {
                    response = Problem(call, 405, "only GET is allowed on " + match->route->operation->path);
                    response.headers.emplace_back("Allow", "GET");
                }
            } else {
                std::optional<OutgoingResponse> answered = HandleV1(call, *match, request, respond);
                if (!answered) {
                    return;  // the settlement answers
                }
                response = std::move(*answered);
            }
        } else {
            response = UnknownResource(call, request);
        }
    } catch (const std::exception& e) {
        if (access_log_)
            access_log_->error(ErrorLine(call.request_id, e.what()));
        response = Problem(call, 500, "an internal error occurred; quote request_id " + call.request_id);
    }
    Finish(call, std::move(response), respond);
}

void ApiService::Finish(Call& call, OutgoingResponse response, const Respond& respond) {
    try {
        response.headers.emplace_back("X-Request-Id", call.request_id);
        if (call.is_v1) {
            AddBillingHeaders(call, response);
        }
        if (call.charged > 0 && call.reservation && call.operation) {
            // Charged only if the answer reaches the kernel whole (docs/billing.md).
            response.undelivered = [self = weak_from_this(),
                                    charged = billing::SettlementRequest{*call.reservation, call.allowance,
                                                                         response.status, call.now},
                                    operation = call.operation->id, request_id = call.request_id]() mutable {
                if (auto service = self.lock()) {
                    service->Undelivered(std::move(charged), operation, request_id);
                }
            };
        }
        Log(call, response);
        if (metrics_) {
            metrics_->Answered(call.operation ? std::string_view(call.operation->id) : call.unbilled_label,
                               response.status, std::chrono::steady_clock::now() - call.started, call.charged,
                               call.reservation ? call.reservation->price : 0);
        }
    } catch (const std::exception&) {
        // Out of memory while decorating: the response goes as it is.
    }
    respond(std::move(response));
}

std::optional<OutgoingResponse> ApiService::PublicDocument(Call& call, const std::string& path) const {
    OutgoingResponse response;
    if (path == "/health") {
        call.unbilled_label = metrics::ServerMetrics::kHealth;
        response.body = sdk::WriteJson(
            catalog::HealthDocument(plugins_, started_at_, call.now, ledger_.DatabaseAvailable()));
    } else if (path == "/pricing") {
        call.unbilled_label = metrics::ServerMetrics::kPricing;
        response.body = sdk::WriteJson(catalog::PricingDocument(plugins_, config_.credits));
    } else if (path == "/openapi.json") {
        call.unbilled_label = metrics::ServerMetrics::kOpenApi;
        response.shared_body = *openapi_json_;
        response.shared_owner = openapi_json_;
    } else if (const catalog::DocsFile* file = catalog::FindDocsFile(path)) {
        call.unbilled_label = metrics::ServerMetrics::kDocs;
        response.content_type = file->content_type;
        response.shared_body = file->body;  // static storage, never copied
        response.headers.emplace_back("Content-Security-Policy", catalog::kDocsContentSecurityPolicy);
    } else {
        return std::nullopt;
    }
    return response;
}

// A path no operation serves: 404, costing nothing. Under /v1 with a valid key the call counts
// in the key's minute like any other, and the headers carry the key's own figures; a caller we
// cannot identify gets the zeros of AddBillingHeaders (docs/billing.md).
OutgoingResponse ApiService::UnknownResource(Call& call, const IncomingRequest& request) {
    if (call.is_v1) {
        if (auto away = CountUnpriced(call, request)) {
            return std::move(*away);
        }
    }
    return Problem(call, 404, "no resource at " + call.instance);
}

std::optional<OutgoingResponse> ApiService::CountUnpriced(Call& call, const IncomingRequest& request) {
    call.price = 0;
    if (!request.authorization || Authenticate(call, request)) {
        return std::nullopt;  // no account to describe: the zeros of AddBillingHeaders
    }
    try {
        const billing::Admission admission = ledger_.Admit(billing::AdmissionRequest{
            call.request_id, call.principal->key_id, "", 0, call.allowance, call.per_minute, call.now});
        call.rate = admission.rate;
        call.credits = admission.credits;
    } catch (const billing::BillingUnavailable& e) {
        return Unavailable(call, e.what());
    }
    return std::nullopt;
}

void ApiService::Undelivered(billing::SettlementRequest charged, const std::string& operation,
                             const std::string& request_id) {
    const std::int64_t credits = charged.reservation.price;
    charged.now = billing::WallNow();
    ledger_.TakeBack(std::move(charged));
    if (metrics_) {
        metrics_->Undelivered(operation, credits);
    }
    if (access_log_) {
        access_log_->warn(boost::json::serialize(boost::json::object{{"level", "warn"},
                                                                     {"request_id", request_id},
                                                                     {"operation", operation},
                                                                     {"undelivered", true},
                                                                     {"credits_refunded", credits}}));
    }
}

// The /v1 pipeline, one named stage each (docs/architecture.md). Problems found before the
// admission are answered after it when the contract refunds them (a reservation is made and
// given back), and at once when nothing may be reserved (401, 429, 503).
std::optional<OutgoingResponse> ApiService::HandleV1(Call& call, const RouteMatch& match,
                                                     const IncomingRequest& request, Respond& respond) {
    call.operation = match.route->operation;
    call.price = call.operation->price;
    if (auto refused = Authenticate(call, request)) {
        return refused;
    }
    Arguments arguments = ReadArguments(*call.operation, match, request);
    ReadCursor(call, arguments);
    if (auto refused = Admit(call)) {
        return refused;
    }
    OutgoingResponse response = Dispatch(call, match, arguments);
    if (!call.reservation) {
        return response;
    }
    Settle(call, std::move(response), match, std::move(arguments), respond);
    return std::nullopt;
}

// Exactly "Bearer <key>"; nothing is reserved before it succeeds, so a failure costs nothing. A
// client address with too many failures is answered 429 without reading the key table, unless
// its key is one this instance has seen valid (docs/billing.md, "Failed authentications").
std::optional<OutgoingResponse> ApiService::Authenticate(Call& call, const IncomingRequest& request) {
    using Refusal = metrics::ServerMetrics::AuthRefusal;
    const std::string& header = request.authorization.value_or("");
    // The scheme is case-insensitive (RFC 9110 11.1): "bearer KEY" is "Bearer KEY".
    const bool bearer = header.size() > 7 && header[6] == ' ' &&
                        std::equal(header.begin(), header.begin() + 6, "bearer", [](char a, char b) {
                            return std::tolower(static_cast<unsigned char>(a)) == b;
                        });
    if (auto wait = failed_auths_.Throttled(request.client_address, call.now)) {
        if (!bearer || !key_cache_.SeenValid(header.substr(7))) {
            call.price = 0;
            if (metrics_)
                metrics_->AuthRefused(Refusal::kThrottled);
            OutgoingResponse r = Problem(call, 429,
                                         "too many failed authentications from this address; retry after " +
                                             std::to_string(*wait) + " seconds with a valid API key");
            r.headers.emplace_back("Retry-After", std::to_string(*wait));
            return r;
        }
    }
    if (!bearer) {
        call.price = 0;
        failed_auths_.Failed(request.client_address, call.now);
        if (metrics_)
            metrics_->AuthRefused(Refusal::kMissing);
        return Problem(call, 401,
                       request.authorization
                           ? "the Authorization header must be 'Bearer <API key>'"
                           : "this operation needs an API key: Authorization: Bearer <key>");
    }
    bool looked_up = false;
    try {
        call.principal = key_cache_.Authenticate(header.substr(7), &looked_up);
    } catch (const std::exception& e) {
        if (!storage::IsUnavailable(e))
            throw;
        call.price = 0;
        return Unavailable(call, e.what());
    }
    if (looked_up && metrics_) {
        metrics_->KeyLookup();
    }
    if (!call.principal) {
        call.price = 0;
        failed_auths_.Failed(request.client_address, call.now);
        if (metrics_)
            metrics_->AuthRefused(Refusal::kInvalid);
        return Problem(call, 401, "the API key is not valid (unknown, revoked or malformed)");
    }
    call.allowance = call.principal->monthly_credits.value_or(config_.credits.monthly_allowance);
    call.per_minute = call.principal->calls_per_minute.value_or(config_.credits.calls_per_minute);
    return std::nullopt;
}

// Percent-decoding and the manifest's checks; a problem is kept for Dispatch to answer.
ApiService::Arguments ApiService::ReadArguments(const plugins::OperationSpec& op, const RouteMatch& match,
                                                const IncomingRequest& request) const {
    Arguments arguments;
    std::vector<std::pair<std::string, std::string>> query;
    if (request.query.size() > kMaxQueryParams) {
        arguments.decode_error = {
            "", "too many query parameters (at most " + std::to_string(kMaxQueryParams) + ")"};
    }
    for (const auto& [raw_name, raw_value] : request.query) {
        auto name = PercentDecode(raw_name, true);
        auto value = PercentDecode(raw_value, true);
        if (!name || !value) {
            std::string shown = name && sdk::IsValidUtf8(*name) ? *name : SafeInstance(raw_name);
            arguments.decode_error = {shown, "parameter '" + shown + "' is not validly percent-encoded"};
            break;
        }
        query.emplace_back(std::move(*name), std::move(*value));
    }
    if (arguments.decode_error) {
        return arguments;
    }
    ParamsOutcome checked = ValidateParams(op, match.path_params, query);
    arguments.params = std::move(checked.params);
    arguments.param_error = std::move(checked.error);
    if (!arguments.param_error) {
        arguments.filters = FiltersDigest(op, arguments.params);
    }
    return arguments;
}

// The position a cursor carries, bound to the operation, filters and key it was issued for. A
// later page within the included-pages window of the page that paid, asking for no more rows than
// it did, costs nothing; its own cursor carries that paid page's time and limit on, so a chain of
// included pages never outlasts the window nor grows its pages (docs/billing.md).
void ApiService::ReadCursor(Call& call, Arguments& arguments) const {
    const plugins::OperationSpec& op = *call.operation;
    if (arguments.decode_error || arguments.param_error || op.pagination != plugins::Pagination::kCursor) {
        return;
    }
    auto cursor = arguments.params.String("cursor");
    if (!cursor) {
        return;
    }
    auto decoded = cursors_.Decode(*cursor, op.id, arguments.filters, call.principal->key_id, call.now);
    if (auto* payload = std::get_if<CursorPayload>(&decoded)) {
        arguments.position = payload->position;
        const std::int64_t limit = arguments.params.Integer("limit").value_or(0);
        if (op.included_pages && payload->paid_limit && limit <= *payload->paid_limit &&
            payload->issued_at >= call.now - catalog::kIncludedPagesWindowSeconds) {
            call.price = 0;
            call.included_by = std::make_pair(payload->issued_at, *payload->paid_limit);
        }
        return;
    }
    switch (std::get<CursorError>(decoded)) {
        case CursorError::kMalformed:
            arguments.cursor_problem = "the cursor is not one this API issued, or it was altered";
            break;
        case CursorError::kOtherOperation:
            arguments.cursor_problem = "the cursor belongs to another operation";
            break;
        case CursorError::kOtherFilters:
            arguments.cursor_problem =
                "the cursor was issued for other filters; repeat the first page's filters";
            break;
        case CursorError::kOtherKey:
            arguments.cursor_problem =
                "the cursor was issued to another API key; start again from the first page with this key";
            break;
        case CursorError::kFuture:
            arguments.cursor_problem =
                "the cursor's issue time is in the future; it was not issued by this API";
            break;
    }
}

// The per-minute count and the reservation, in one group commit (429 and 503 reserve nothing).
std::optional<OutgoingResponse> ApiService::Admit(Call& call) {
    billing::Admission admission;
    try {
        admission = ledger_.Admit(billing::AdmissionRequest{call.request_id, call.principal->key_id,
                                                            call.operation->id, call.price, call.allowance,
                                                            call.per_minute, call.now});
    } catch (const billing::BillingUnavailable& e) {
        call.price = 0;
        return Unavailable(call, e.what());
    }
    call.rate = admission.rate;
    call.credits = admission.credits;
    if (!admission.rate.allowed) {
        OutgoingResponse r = Problem(call, 429,
                                     "per-minute rate limit of " + std::to_string(call.per_minute) +
                                         " calls reached for this key; retry after the window resets");
        r.headers.emplace_back("Retry-After",
                               std::to_string(std::max<std::time_t>(1, call.rate->reset_at - call.now)));
        return r;
    }
    if (!admission.reserved) {
        return Problem(call, 429,
                       "the monthly allowance of " + std::to_string(call.allowance) +
                           " credits cannot cover " + std::to_string(call.price) +
                           " more; it resets at the start of the next month (UTC)");
    }
    call.reservation = admission.reservation;
    return std::nullopt;
}

// The answer of an admitted call: the refunded problems found earlier, in the contract's order
// (scope, then parameters, then cursor), or the handler's answer.
OutgoingResponse ApiService::Dispatch(Call& call, const RouteMatch& match, const Arguments& arguments) {
    const plugins::OperationSpec& op = *call.operation;
    if (!call.principal->HasScope(op.scope)) {
        return Problem(call, 403, "this key lacks the scope '" + op.scope + "' needed by " + op.id);
    }
    if (const auto& error = arguments.decode_error) {
        return Problem(call, error->first.empty() ? 400 : 422, error->second,
                       error->first.empty() ? std::nullopt : std::optional(error->first));
    }
    if (const auto& error = arguments.param_error) {
        return Problem(call, 422, error->second, error->first);
    }
    if (arguments.cursor_problem) {
        return Problem(call, 400, *arguments.cursor_problem, std::string("cursor"));
    }
    if (!match.route->handler) {
        return Problem(call, 500, "operation " + op.id + " has no handler");
    }
    // A call that will be settled may take its answer from the cache on the newest release seen:
    // its settlement checks that release is still the newest.
    return RunHandler(call, match, arguments.params, arguments.filters, arguments.position,
                      call.reservation.has_value());
}

void ApiService::Settle(Call& call, OutgoingResponse response, const RouteMatch& match, Arguments arguments,
                        Respond& respond) {
    auto settling = std::make_shared<Settling>();  // allocated before anything is moved into it
    settling->call = std::move(call);
    settling->response = std::move(response);
    settling->respond = std::move(respond);
    if (settling->call.answered_at_generation) {
        settling->match = match;
        settling->params = std::move(arguments.params);
        settling->filters = std::move(arguments.filters);
        settling->position = std::move(arguments.position);
    }
    SettleThenAnswer(std::move(settling));
}

// Settle before the response leaves: it leaves from the writer's thread once the settlement is
// durable. When it cannot be recorded the call is answered 503 and its reservation is refunded
// (LedgerWriter). An answer from a cached release that a newer one has replaced is not
// settled: the call is answered anew from the data, here on the writer's thread (it happens
// only to calls in flight when an ingest commits), and settled again.
void ApiService::SettleThenAnswer(std::shared_ptr<Settling> settling) {
    Call& call = settling->call;
    const billing::SettlementRequest settlement{*call.reservation, call.allowance, settling->response.status,
                                                billing::WallNow(), call.answered_at_generation};
    ledger_.SettleAsync(settlement, [this, settling](billing::LedgerWriter::SettleOutcome outcome) {
        Call& c = settling->call;
        try {
            if (auto* result = std::get_if<billing::SettleResult>(&outcome);
                result && result->outdated && settling->match) {
                c.answered_at_generation.reset();
                settling->response = RunHandler(c, *settling->match, settling->params, settling->filters,
                                                settling->position, false);
                c.cache = "outdated";
                SettleThenAnswer(settling);
                return;
            }
            Settled(c, settling->response, std::move(outcome));
        } catch (const std::exception& e) {
            settling->response =
                Problem(c, 500, "an internal error occurred; quote request_id " + c.request_id);
        }
        Finish(c, std::move(settling->response), settling->respond);
    });
}

void ApiService::Settled(Call& call, OutgoingResponse& response,
                         billing::LedgerWriter::SettleOutcome outcome) {
    if (auto* error = std::get_if<std::exception_ptr>(&outcome)) {
        call.charged = 0;
        try {
            std::rethrow_exception(*error);
        } catch (const std::exception& e) {
            response = Unavailable(call, e.what());
        }
        return;
    }
    const auto& settled = std::get<billing::SettleResult>(outcome);
    call.charged = settled.charged;
    call.credits = settled.credits;
    if (!settled.recorded) {
        response = Unavailable(call, "the reservation's transaction did not commit");
    }
}

OutgoingResponse ApiService::RunHandler(Call& call, const RouteMatch& match, const sdk::Params& params,
                                        const std::string& filters,
                                        const std::optional<boost::json::value>& position,
                                        bool checked_at_settlement) {
    const plugins::OperationSpec& op = *match.route->operation;
    OutgoingResponse response;
    try {
        const std::string key = answers_.Enabled() ? AnswerKey(op, params, position) : std::string();
        std::int64_t generation = 0;
        std::shared_ptr<const FrozenAnswer> answer;
        bool computed = false;  // by the handler, on this call
        if (answers_.Enabled() && checked_at_settlement) {
            // No database read at all: the settlement's batch reads the newest release id once
            // for all its calls (docs/performance.md, "Response cache").
            const std::int64_t seen = newest_seen_.load(std::memory_order_relaxed);
            answer = answers_.Find(key, seen);
            if (answer) {
                call.cache = "hit";
                call.answered_at_generation = seen;
            }
        }
        // Every read below is on this connection, bounded on PostgreSQL: a server that stops
        // answering costs the call a 503 (storage/reply_deadline.hpp).
        odb::connection_ptr connection;
        std::optional<storage::ReplyDeadline> bound;
        if (!answer) {
            connection = db_.connection();
            if (const auto timeout = ReplyTimeout(config_, db_); timeout.count() > 0) {
                bound.emplace(*connection, std::chrono::steady_clock::now() + timeout);
            }
        }
        if (!answer && answers_.Enabled() && db_.id() == odb::id_pgsql && !checked_at_settlement) {
            // A call not settled (an included page) checks the release itself: a hit needs
            // only the newest id, one round trip outside any transaction (a transaction is three). A miss
            // reads it again below, in the handler's transaction, so that the answer stored is of the release
            // it is stored under.
            const std::int64_t newest = ingest::ReleaseCatalog::NewestReleaseIdNow(db_, *connection);
            SawRelease(newest);
            answer = answers_.Find(key, newest);
            call.cache = answer ? "hit" : "miss";
        }
        if (!answer) {
            ingest::ReleaseCatalog releases(db_);
            odb::transaction t(storage::BeginRead(connection));
            if (answers_.Enabled()) {
                // Read before the handler reads the data, in its transaction: on SQLite one
                // snapshot, so the answer is of the release it is stored under; on PostgreSQL
                // (a statement a transaction) of that release or a newer one, never an older.
                generation = releases.NewestReleaseId();
                SawRelease(generation);
                answer = answers_.Find(key, generation);
                call.cache = answer ? "hit" : "miss";
            }
            if (!answer) {
                // On PostgreSQL the releases for meta, and what handlers keep, come from memory,
                // a round trip fewer each (release_cache.hpp): with the response cache at the id
                // just read; without it at the newest id seen, which this call's settlement
                // checks when something was remembered. On SQLite what handlers keep is of the
                // newest id in the call's snapshot.
                std::optional<ingest::CachedReleases> remembered;
                std::optional<ingest::SnapshotReleases> snapshot;
                const sdk::Host* host = &releases;
                const std::int64_t at =
                    answers_.Enabled() ? generation : newest_seen_.load(std::memory_order_relaxed);
                if (db_.id() == odb::id_pgsql) {
                    if (answers_.Enabled() || checked_at_settlement) {
                        host = &remembered.emplace(db_, releases_, kept_, at,
                                                   [this](std::int64_t id) { SawRelease(id); });
                    }
                } else {
                    host = &snapshot.emplace(db_, kept_,
                                             answers_.Enabled() ? std::optional(generation) : std::nullopt);
                }
                sdk::RequestContext context{op.id, call.request_id, params, db_, *host, position};
                answer = Freeze((*match.route->handler)(context), *match.route);
                computed = true;
                if (remembered && remembered->Remembered() && !answers_.Enabled()) {
                    call.answered_at_generation = at;
                }
            }
            t.commit();
        }
        if (answers_.Enabled() && computed) {
            answers_.Store(key, generation, answer);
        }
        response.body = Envelope(call, op, params, filters, *answer);
    } catch (const sdk::Problem& p) {
        response = Problem(call, StatusOf(p.Code()), p.what(), p.Parameter());
    } catch (const std::exception& e) {
        if (storage::IsUnavailable(e)) {
            return Unavailable(call, e.what());
        }
        if (access_log_)
            access_log_->error(ErrorLine(call.request_id, e.what()));
        response = Problem(call, 500, "an internal error occurred; quote request_id " + call.request_id);
    }
    return response;
}

std::string ApiService::Envelope(const Call& call, const plugins::OperationSpec& op,
                                 const sdk::Params& params, const std::string& filters,
                                 const FrozenAnswer& answer) const {
    std::string body;
    body.reserve(answer.data.size() + answer.meta.size() + 256);
    body += "{\"data\":";
    body += answer.data;
    body += ",\"meta\":{\"request_id\":";
    body += sdk::WriteJson(boost::json::value(call.request_id));
    body += answer.meta;
    if (op.pagination == plugins::Pagination::kCursor) {
        boost::json::object pagination;
        pagination["limit"] = params.Integer("limit").value_or(0);
        pagination["has_more"] = answer.next_position.has_value();
        if (answer.next_position) {
            // An included page hands on the time and limit of the page that paid; any other
            // page paid itself.
            const auto [paid_at, paid_limit] =
                call.included_by.value_or(std::make_pair(call.now, params.Integer("limit").value_or(0)));
            pagination["next_cursor"] = cursors_.Encode(
                {op.id, filters, call.principal->key_id, paid_at, paid_limit, *answer.next_position});
        } else {
            pagination["next_cursor"] = nullptr;
        }
        body += ",\"pagination\":";
        body += sdk::WriteJson(pagination);
    }
    body += "}}";
    return body;
}

OutgoingResponse ApiService::Unavailable(Call& call, const std::string& what) {
    if (access_log_)
        access_log_->error(ErrorLine(call.request_id, what));
    OutgoingResponse r = Problem(call, 503, "the database is temporarily unavailable; retry shortly");
    r.headers.emplace_back("Retry-After", "1");
    return r;
}

OutgoingResponse ApiService::Problem(Call& call, int status, const std::string& detail,
                                     const std::optional<std::string>& parameter) {
    OutgoingResponse r;
    r.status = status;
    r.content_type = "application/problem+json";
    r.body = ProblemBody(config_.server.base_url, status, detail, call.instance, call.request_id, parameter);
    return r;
}

void ApiService::AddBillingHeaders(Call& call, OutgoingResponse& response) {
    // Every /v1 answer carries all eight headers; a caller we could not identify has no
    // account, so its account figures are 0 (docs/billing.md).
    const billing::CreditState credits =
        call.credits.value_or(billing::CreditState{0, 0, billing::NextMonthStart(call.now)});
    const billing::RateDecision rate =
        call.rate.value_or(billing::RateDecision{false, 0, 0, call.now - call.now % 60 + 60});
    auto& h = response.headers;
    h.emplace_back("X-Credits-Cost", std::to_string(call.price));
    h.emplace_back("X-Credits-Charged", std::to_string(call.charged));
    h.emplace_back("X-Credits-Remaining", std::to_string(credits.remaining));
    h.emplace_back("X-Credits-Limit", std::to_string(credits.limit));
    h.emplace_back("X-Credits-Reset", std::to_string(credits.reset_at));
    h.emplace_back("X-RateLimit-Limit", std::to_string(rate.limit));
    h.emplace_back("X-RateLimit-Remaining", std::to_string(rate.remaining));
    h.emplace_back("X-RateLimit-Reset", std::to_string(rate.reset_at));
}

void ApiService::Log(const Call& call, const OutgoingResponse& response) {
    if (!access_log_ || !access_log_->should_log(spdlog::level::info))
        return;
    const auto micros =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - call.started)
            .count();
    boost::json::object line;
    line["ts"] = storage::Rfc3339(call.now);
    line["request_id"] = call.request_id;
    line["key_id"] = call.principal ? boost::json::value(call.principal->key_id) : nullptr;
    line["operation"] = call.operation ? boost::json::value(call.operation->id) : nullptr;
    line["path"] = call.instance;
    line["status"] = response.status;
    line["credits_charged"] = call.charged;
    if (call.cache)
        line["cache"] = call.cache;
    line["us"] = micros;
    access_log_->info(boost::json::serialize(line));
}

}  // namespace lastro::http
