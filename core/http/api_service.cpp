#include "core/http/api_service.hpp"

#include "core/billing/wall_clock.hpp"
#include "core/catalog/catalog.hpp"
#include "core/catalog/docs_page.hpp"
#include "core/catalog/openapi_document.hpp"
#include "core/http/field_sources.hpp"
#include "core/request/percent_decoding.hpp"
#include "core/request/problem.hpp"
#include "core/request/request_id.hpp"
#include "core/request/safe_text.hpp"
#include "core/storage/backend_traits.hpp"
#include "core/storage/database.hpp"

#include <lastro/sdk/serving/json_text.hpp>
#include <lastro/sdk/text.hpp>

#include <boost/json.hpp>

#include <algorithm>
#include <chrono>
#include <optional>
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
    std::int64_t price = 0;                       // what the call costs: 0 for an included page or a refusal
    std::optional<auth::Caller> caller;           // authentication's
    std::optional<billing::CreditState> credits;  // admission's, for the headers
    std::optional<billing::RateDecision> rate;
    std::optional<billing::Reservation> reservation;
    std::int64_t charged = 0;  // the settlement's
    // Answering's: "hit" or "miss" when the response cache was asked; "outdated" when it answered
    // from a release that a newer one replaced before the call settled, and the call was answered
    // anew. And what its settlement must check (answering::Answer).
    const char* cache = nullptr;
    std::optional<billing::Precondition> settle_only_if;
    // How the answer is to be represented (format, coding, the client's entity tags), and for a
    // CSV page of a cursor operation the address of the next page but its cursor.
    answering::Representation representation;
    std::string next_link;
};

// A billed call between its answer and its settlement, with what answering it anew needs.
struct ApiService::Settling {
    Call call;
    OutgoingResponse response;
    Respond respond;
    std::optional<RouteMatch> match;  // set when an answer came from memory
    arguments::Arguments arguments;
};

namespace {

// Failures go to the same log as the access lines, also as one JSON object per line.
std::string ErrorLine(const std::string& request_id, const std::string& what) {
    return boost::json::serialize(
        boost::json::object{{"level", "error"}, {"request_id", request_id}, {"error", what}});
}

billing::LedgerWriterOptions LedgerOptions(const config::Config& config, const odb::database& db,
                                           metrics::ServerMetrics* metrics) {
    billing::LedgerWriterOptions options;
    options.instance = config.server.instance;
    options.stale_reservation_seconds = static_cast<std::time_t>(config.billing.stale_reservation_seconds);
    options.write_timeout = std::chrono::milliseconds(config.billing.write_timeout_ms);
    // One lastrod owns a SQLite database (storage::ServingLock, taken by lastrod's main), so
    // there admission is decided in this process; on PostgreSQL the database decides.
    options.decide_in_process = storage::OwnedByOneProcess(db);
    if (!storage::OwnedByOneProcess(db) && config.billing.lease_seconds > 0) {
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
    if (metrics) {
        options.on_batch = [metrics](std::size_t calls, std::chrono::steady_clock::duration took) {
            metrics->LedgerBatch(calls, took);
        };
    }
    return options;
}

}  // namespace

ApiParts ComposeParts(const config::Config& config, odb::database& db, odb::database& billing,
                      std::vector<std::string> cursor_secrets, metrics::ServerMetrics* metrics) {
    const auto reply_timeout =
        storage::ReplyTimeout(db, std::chrono::milliseconds(config.database.pgsql_reply_timeout_ms));
    ApiParts parts;
    parts.checks = std::make_unique<transport::RequestChecks>(config.server.max_request_bytes);
    auth::AuthenticationSettings auth;
    auth.reply_timeout = reply_timeout;
    auth.key_cache = std::chrono::milliseconds(config.auth.key_cache_ms);
    auth.unknown_key_cache = std::chrono::milliseconds(config.auth.unknown_key_cache_ms);
    auth.failed_auth_limit = config.auth.failed_auth_limit;
    auth.failed_auth_window_s = config.auth.failed_auth_window_s;
    auth.monthly_allowance = config.credits.monthly_allowance;
    auth.calls_per_minute = config.credits.calls_per_minute;
    parts.authentication = std::make_unique<auth::Authentication>(db, auth, metrics);
    parts.arguments = std::make_unique<arguments::ArgumentReader>(std::move(cursor_secrets));
    parts.answering = std::make_unique<answering::Answering>(
        db, answering::AnsweringSettings{static_cast<std::size_t>(config.server.response_cache_mb) << 20,
                                         reply_timeout});
    parts.admission = std::make_unique<admission::AdmissionGate>(billing, LedgerOptions(config, db, metrics));
    return parts;
}

ApiService::ApiService(const config::Config& config, const plugins::PluginSet& plugins, ApiParts parts,
                       std::shared_ptr<spdlog::logger> access_log, metrics::ServerMetrics* metrics)
    : config_(config),
      plugins_(plugins),
      parts_(std::move(parts)),
      access_log_(std::move(access_log)),
      metrics_(metrics),
      started_at_(billing::WallNow()),
      openapi_json_(std::make_shared<const std::string>(
          sdk::WriteJson(catalog::OpenApiDocument(plugins, config.server.base_url)))) {
    for (const auto& p : plugins.Plugins()) {
        for (const plugins::OperationSpec& op : p->manifest.operations) {
            auto it = p->handlers.find(op.id);
            routes_.Add(Route{&op, it == p->handlers.end() ? nullptr : &it->second,
                              RouteTable::Split(op.path), FieldSourcesMember(op),
                              std::string("lastro ") + LASTRO_VERSION + "; " + p->manifest.name + " " +
                                  p->manifest.version});
        }
    }
}

void ApiService::Handle(const IncomingRequest& request, Respond respond) {
    Call call;
    call.request_id = request::NewRequestId();
    call.started = std::chrono::steady_clock::now();
    call.now = billing::WallNow();
    call.instance = request::SafeText(request.resource);
    OutgoingResponse response;
    try {
        transport::CheckedRequest checked = parts_.checks->Check(request);
        call.is_v1 = checked.is_v1;
        const std::optional<std::string>& path = checked.path;
        if (checked.refusal) {
            response = Refuse(call, *checked.refusal);
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
                                    charged =
                                        billing::SettlementRequest{*call.reservation, call.caller->allowance,
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
            catalog::HealthDocument(plugins_, started_at_, call.now, parts_.admission->DatabaseAvailable()));
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
    if (!request.authorization) {
        return std::nullopt;  // no account to describe: the zeros of AddBillingHeaders
    }
    auto who = parts_.authentication->Authenticate(request.authorization, request.client_address, call.now);
    if (auto* refused = std::get_if<request::Refusal>(&who)) {
        if (refused->cause && access_log_) {
            access_log_->error(ErrorLine(call.request_id, *refused->cause));
        }
        return std::nullopt;  // no account to describe
    }
    call.caller = std::get<auth::Caller>(std::move(who));
    const admission::Decision decision =
        parts_.admission->Admit(call.request_id, *call.caller, "", 0, call.now);
    if (decision.refusal && decision.refusal->status == 503) {
        return Refuse(call, *decision.refusal);
    }
    call.rate = decision.rate;
    call.credits = decision.credits;
    return std::nullopt;
}

void ApiService::Undelivered(billing::SettlementRequest charged, const std::string& operation,
                             const std::string& request_id) {
    const std::int64_t credits = charged.reservation.price;
    charged.now = billing::WallNow();
    parts_.admission->TakeBack(std::move(charged));
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

// The /v1 parts, in order. Problems found before the admission are answered after it when the
// contract refunds them (a reservation is made and given back), and at once when nothing may be
// reserved (401, 429, 503).
std::optional<OutgoingResponse> ApiService::HandleV1(Call& call, const RouteMatch& match,
                                                     const IncomingRequest& request, Respond& respond) {
    call.operation = match.route->operation;
    call.price = call.operation->price;
    auto who = parts_.authentication->Authenticate(request.authorization, request.client_address, call.now);
    if (auto* refused = std::get_if<request::Refusal>(&who)) {
        call.price = 0;
        return Refuse(call, *refused);
    }
    call.caller = std::get<auth::Caller>(std::move(who));
    arguments::Arguments arguments = parts_.arguments->Read(*call.operation, match.path_params, request.query,
                                                            call.caller->principal.key_id, call.now);
    ChooseRepresentation(call, arguments, request);
    if (arguments.included_by) {
        call.price = 0;  // a later page the first one paid for
    }
    const admission::Decision decision =
        parts_.admission->Admit(call.request_id, *call.caller, call.operation->id, call.price, call.now);
    if (decision.refusal && decision.refusal->status == 503) {
        call.price = 0;
        return Refuse(call, *decision.refusal);
    }
    call.rate = decision.rate;
    call.credits = decision.credits;
    if (decision.refusal) {
        return Refuse(call, *decision.refusal);
    }
    call.reservation = decision.reservation;
    OutgoingResponse response = Dispatch(call, match, arguments);
    if (!call.reservation) {
        return response;
    }
    Settle(call, std::move(response), match, std::move(arguments), respond);
    return std::nullopt;
}

// What the answer will be: format= (arguments), else Accept when the operation offers CSV; the
// coding from Accept-Encoding; the tags of If-None-Match (core/answering/negotiation.hpp).
void ApiService::ChooseRepresentation(Call& call, const arguments::Arguments& arguments,
                                      const IncomingRequest& request) const {
    answering::Representation& r = call.representation;
    if (arguments.format) {
        r.format = *arguments.format;
    } else if (call.operation->response.OffersCsv() && answering::PrefersCsv(request.accept)) {
        r.format = arguments::Format::kCsv;
    }
    r.coding = answering::ChooseCoding(request.accept_encoding);
    r.if_none_match = request.if_none_match;
    if (r.format == arguments::Format::kCsv && call.operation->pagination == plugins::Pagination::kCursor) {
        // The query as the client wrote it (the framer let only URI characters through), cursor left out.
        std::string link = config_.server.base_url + request.resource + "?";
        for (const auto& [name, value] : request.query) {
            if (request::PercentDecode(name, true) == std::optional<std::string>("cursor")) {
                continue;
            }
            link += name + "=" + value + "&";
        }
        call.next_link = link + "cursor=";
    }
}

OutgoingResponse ApiService::Dispatch(Call& call, const RouteMatch& match,
                                      const arguments::Arguments& arguments) {
    const plugins::OperationSpec& op = *call.operation;
    if (!call.caller->principal.HasScope(op.scope)) {
        return Problem(call, 403, "this key lacks the scope '" + op.scope + "' needed by " + op.id);
    }
    if (arguments.problem) {
        return Refuse(call, *arguments.problem);
    }
    if (!match.route->handler) {
        return Problem(call, 500, "operation " + op.id + " has no handler");
    }
    // A call that will be settled may take its answer from memory at the newest release seen:
    // its settlement checks that release is still the newest.
    return Answer(call, match, arguments, call.reservation.has_value());
}

OutgoingResponse ApiService::Answer(Call& call, const RouteMatch& match,
                                    const arguments::Arguments& arguments, bool checked_at_settlement) {
    const Route& route = *match.route;
    const std::int64_t key_id = call.caller->principal.key_id;
    const std::time_t now = call.now;
    answering::Answer answer = parts_.answering->Run(
        answering::Operation{route.operation, route.handler, &route.field_sources, &route.build}, arguments,
        call.representation, call.request_id, checked_at_settlement,
        [&](const boost::json::value& next_position) {
            return parts_.arguments->NextCursor(*route.operation, arguments, key_id, now, next_position);
        });
    if (answer.cache) {
        call.cache = answer.cache;
    }
    call.settle_only_if = answer.settle_only_if;
    if (answer.refusal) {
        return Refuse(call, *answer.refusal);
    }
    OutgoingResponse response;
    response.status = answer.not_modified ? 304 : 200;
    response.content_type = answer.content_type;
    response.headers = std::move(answer.headers);
    response.body = std::move(answer.body);
    response.shared_body = answer.shared_body;
    response.shared_owner = std::move(answer.shared_owner);
    if (answer.next_cursor && !call.next_link.empty()) {
        // The cursor is base64url (cursor_codec.hpp): nothing in it needs escaping in a query.
        response.headers.emplace_back("Link", "<" + call.next_link + *answer.next_cursor + ">; rel=\"next\"");
    }
    return response;
}

void ApiService::Settle(Call& call, OutgoingResponse response, const RouteMatch& match,
                        arguments::Arguments arguments, Respond& respond) {
    auto settling = std::make_shared<Settling>();  // allocated before anything is moved into it
    settling->call = std::move(call);
    settling->response = std::move(response);
    settling->respond = std::move(respond);
    if (settling->call.settle_only_if) {
        settling->match = match;
        settling->arguments = std::move(arguments);
    }
    SettleThenAnswer(std::move(settling));
}

// Settle before the response leaves: it leaves from the writer's thread once the settlement is
// durable. When it cannot be recorded the call is answered 503 and its reservation is refunded
// (LedgerWriter). An answer from memory at a release that a newer one has replaced is not
// settled: the call is answered anew from the data on the answering part's own thread (it
// happens only to calls in flight when an ingest commits), and settled again.
void ApiService::SettleThenAnswer(std::shared_ptr<Settling> settling) {
    Call& call = settling->call;
    const billing::SettlementRequest settlement{*call.reservation, call.caller->allowance,
                                                settling->response.status, billing::WallNow(),
                                                call.settle_only_if};
    parts_.admission->Settle(settlement, [this, settling](billing::LedgerWriter::SettleOutcome outcome) {
        Call& c = settling->call;
        try {
            if (auto* result = std::get_if<billing::SettleResult>(&outcome);
                result && result->outdated && settling->match) {
                parts_.answering->Anew().Post([this, settling] { AnswerAnew(settling); });
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

void ApiService::AnswerAnew(const std::shared_ptr<Settling>& settling) {
    Call& c = settling->call;
    try {
        c.settle_only_if.reset();
        settling->response = Answer(c, *settling->match, settling->arguments, false);
        c.cache = "outdated";
        SettleThenAnswer(settling);
        return;
    } catch (const std::exception& e) {
        if (access_log_)
            access_log_->error(ErrorLine(c.request_id, e.what()));
        settling->response = Problem(c, 500, "an internal error occurred; quote request_id " + c.request_id);
    }
    Finish(c, std::move(settling->response), settling->respond);
}

void ApiService::Settled(Call& call, OutgoingResponse& response,
                         billing::LedgerWriter::SettleOutcome outcome) {
    if (auto* error = std::get_if<std::exception_ptr>(&outcome)) {
        call.charged = 0;
        try {
            std::rethrow_exception(*error);
        } catch (const std::exception& e) {
            response = Refuse(call, request::Unavailable(e.what()));
        }
        return;
    }
    const auto& settled = std::get<billing::SettleResult>(outcome);
    call.charged = settled.charged;
    call.credits = settled.credits;
    if (!settled.recorded) {
        response = Refuse(call, request::Unavailable("the reservation's transaction did not commit"));
    }
}

OutgoingResponse ApiService::Refuse(Call& call, const request::Refusal& refusal) {
    if (refusal.cause && access_log_) {
        access_log_->error(ErrorLine(call.request_id, *refusal.cause));
    }
    OutgoingResponse r = Problem(call, refusal.status, refusal.detail, refusal.parameter);
    for (const auto& header : refusal.headers) {
        r.headers.push_back(header);
    }
    if (refusal.media_type) {
        r.content_type = *refusal.media_type;
    }
    return r;
}

OutgoingResponse ApiService::Problem(Call& call, int status, const std::string& detail,
                                     const std::optional<std::string>& parameter) {
    OutgoingResponse r;
    r.status = status;
    r.content_type = "application/problem+json";
    r.body = request::ProblemBody(config_.server.base_url, status, detail, call.instance, call.request_id,
                                  parameter);
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
    line["key_id"] = call.caller ? boost::json::value(call.caller->principal.key_id) : nullptr;
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
