// The request pipeline of lastrod: it sequences the parts, each of which owns its state and
// answers "go on" or a refusal (core/request/refusal.hpp):
//   transport checks (transport/request_checks.hpp: framing, draining, size, path, body) ->
//   /health, /pricing, /openapi.json, /docs; routing 404/405 -> authentication (auth/authentication.hpp: 401,
//   429, no cost) -> arguments (arguments/arguments.hpp: parameters and cursor; their 400/422 are answered
//   after the admission, refunded) -> admission (admission/admission_gate.hpp: the per-minute count and the
//   reservation; 429, 503) -> answering (answering/answering.hpp: scope 403, then the handler's answer or the
//   response cache's) -> the settlement, durable before the answer leaves from the ledger writer's thread ->
//   finish (billing headers, access log, metrics).
// The parts are composed once, by lastrod's main, and handed over here. One ApiService is
// shared by every worker thread; the per-request state is each part's own result, gathered in
// one Call for the headers and the log.
#pragma once

#include "core/admission/admission_gate.hpp"
#include "core/answering/answering.hpp"
#include "core/arguments/arguments.hpp"
#include "core/auth/authentication.hpp"
#include "core/config/config.hpp"
#include "core/http/router.hpp"
#include "core/metrics/server_metrics.hpp"
#include "core/plugins/plugin_set.hpp"
#include "core/request/refusal.hpp"
#include "core/transport/request_checks.hpp"
#include "core/transport/request_handler.hpp"

#include <spdlog/logger.h>

#include <atomic>
#include <ctime>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace lastro::http {

// The parts a request goes through, composed by lastrod's main (ComposeParts does it the usual
// way); each must outlive the service.
struct ApiParts {
    std::unique_ptr<transport::RequestChecks> checks;
    std::unique_ptr<auth::Authentication> authentication;
    std::unique_ptr<arguments::ArgumentReader> arguments;
    std::unique_ptr<answering::Answering> answering;
    // Its batches check the preconditions answering's answers name, so it is destroyed first.
    std::unique_ptr<admission::AdmissionGate> admission;
};

// The parts for `config`: keys and data on `db`, the ledger on `billing` (the same object on
// PostgreSQL, its own file on SQLite: runtime::Runtime::Billing). `cursor_secrets`: the first
// signs cursors, every one verifies. Starts the ledger writer, which first refunds the
// reservations a previous run of this instance (config.server.instance, already resolved) left
// open. `metrics`, when given, counts refusals, key reads and ledger commits.
ApiParts ComposeParts(const config::Config& config, odb::database& db, odb::database& billing,
                      std::vector<std::string> cursor_secrets, metrics::ServerMetrics* metrics);

using transport::IncomingRequest;
using transport::OutgoingResponse;

class ApiService final : public transport::RequestHandler, public std::enable_shared_from_this<ApiService> {
public:
    // `metrics`, when given, counts every answer; it must outlive the service.
    ApiService(const config::Config& config, const plugins::PluginSet& plugins, ApiParts parts,
               std::shared_ptr<spdlog::logger> access_log, metrics::ServerMetrics* metrics = nullptr);

    std::size_t RecoveredReservations() const { return parts_.admission->RecoveredReservations(); }

    // Answers `request` through `respond`, exactly once: on this thread, or, for a billed call,
    // on the ledger writer's thread as soon as its settlement is durable (the request thread
    // does not wait for the commit). `respond` must not throw.
    void Handle(const IncomingRequest& request, Respond respond) override;

    // Graceful shutdown: refuse new work with 503 while the requests in flight finish.
    void BeginDraining() override { parts_.checks->BeginDraining(); }
    // After draining, with the transport stopped: the settlements still queued are written and
    // answered, then the ledger writer's thread ends. Its last callbacks may drop the last
    // references to this service but one, the caller's, so the service is never destroyed on
    // the writer's own thread (which would join itself). The calls its last outcomes send to
    // be answered anew are answered then (refused 503: the writer has stopped).
    void FinishQueued() override {
        parts_.admission->Stop();
        parts_.answering->Anew().Stop();
    }
    ~ApiService() override { FinishQueued(); }
    void Enter() override { ++in_flight_; }
    void Leave() override { --in_flight_; }
    int InFlight() const override { return in_flight_.load(); }

private:
    struct Call;      // what each part said of one request, for its headers and log line
    struct Settling;  // a billed call waiting for its settlement

    OutgoingResponse UnknownResource(Call& call, const IncomingRequest& request);
    // A /v1 call that no operation prices (a path none serves, a method other than GET): with a
    // valid key it counts in the key's minute and gets the key's own figures in its headers.
    // Returns the 503 to answer when billing is away.
    std::optional<OutgoingResponse> CountUnpriced(Call& call, const IncomingRequest& request);
    // The transport could not hand the answer of a charged call whole to the kernel: the charge
    // is taken back, logged and counted.
    void Undelivered(billing::SettlementRequest charged, const std::string& operation,
                     const std::string& request_id);
    // /health, /pricing, /openapi.json and the /docs page: no key, not billed; nullopt for
    // another path. Sets the call's metrics label.
    std::optional<OutgoingResponse> PublicDocument(Call& call, const std::string& path) const;
    // The /v1 parts, in order. Returns the response, or nullopt when the call went on to its
    // settlement, which answers it.
    std::optional<OutgoingResponse> HandleV1(Call& call, const RouteMatch& match,
                                             const IncomingRequest& request, Respond& respond);
    // The answer of an admitted call: its scope (403), the refunded problems its arguments had,
    // or the answering part's answer.
    void ChooseRepresentation(Call& call, const arguments::Arguments& arguments,
                              const IncomingRequest& request) const;
    OutgoingResponse Dispatch(Call& call, const RouteMatch& match, const arguments::Arguments& arguments);
    OutgoingResponse Answer(Call& call, const RouteMatch& match, const arguments::Arguments& arguments,
                            bool checked_at_settlement);
    void Settle(Call& call, OutgoingResponse response, const RouteMatch& match,
                arguments::Arguments arguments, Respond& respond);
    // Settles the call, then answers it from the writer's thread.
    void SettleThenAnswer(std::shared_ptr<Settling> settling);
    // The call's answer from memory was of a replaced release: answered from the data, settled again.
    void AnswerAnew(const std::shared_ptr<Settling>& settling);
    // Applies the settlement's outcome to the call's response.
    void Settled(Call& call, OutgoingResponse& response, billing::LedgerWriter::SettleOutcome outcome);
    // Request id, billing headers, access log line; then `respond`.
    void Finish(Call& call, OutgoingResponse response, const Respond& respond);
    // A part's refusal as problem+json; its cause, if any, logged.
    OutgoingResponse Refuse(Call& call, const request::Refusal& refusal);
    OutgoingResponse Problem(Call& call, int status, const std::string& detail,
                             const std::optional<std::string>& parameter = std::nullopt);
    void AddBillingHeaders(Call& call, OutgoingResponse& response);
    void Log(const Call& call, const OutgoingResponse& response);

    const config::Config& config_;
    const plugins::PluginSet& plugins_;
    ApiParts parts_;
    RouteTable routes_;
    std::shared_ptr<spdlog::logger> access_log_;
    metrics::ServerMetrics* metrics_;
    std::time_t started_at_;
    // The manifests do not change while serving: written once, shared by every answer.
    std::shared_ptr<const std::string> openapi_json_;
    std::atomic<int> in_flight_{0};
};

}  // namespace lastro::http
