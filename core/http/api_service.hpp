// The request pipeline of lastrod, independent of Pistache so that it reads top to bottom.
// Handle: request id, size, path and body checks, /health and /pricing, routing (404/405); then
// for /v1 the named stages of HandleV1:
//   Authenticate (401, cached keys; nothing reserved) -> ReadArguments (decode and check against
//   the manifest) -> ReadCursor (signed position, included pages) -> Admit (per-minute limit and
//   credit reservation in one group commit; 429) -> Dispatch (scope 403, parameters 422/400,
//   both refunded; else the handler in a read transaction, or its answer from the response cache
//   while no ingest has committed since; 404 charged, 5xx refunded) -> Settle (durable before the
//   answer; the answer leaves from the ledger writer's thread once it is) -> Finish (headers,
//   access log).
// Authenticate answers 429 instead of 401 for a client address with too many failures.
// A database that is away gives 503 and charges nothing. One ApiService is shared by every
// worker thread; it holds no per-request state.
#pragma once

#include "core/auth/api_keys.hpp"
#include "core/auth/failed_auth_limiter.hpp"
#include "core/auth/key_cache.hpp"
#include "core/billing/ledger_writer.hpp"
#include "core/config/config.hpp"
#include "core/http/cursor_codec.hpp"
#include "core/http/http_messages.hpp"
#include "core/http/response_cache.hpp"
#include "core/http/router.hpp"
#include "core/ingest/release_cache.hpp"
#include "core/metrics/server_metrics.hpp"
#include "core/plugins/plugin_set.hpp"

#include <spdlog/logger.h>
#include <odb/database.hxx>

#include <atomic>
#include <ctime>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lastro::http {

class ApiService : public std::enable_shared_from_this<ApiService> {
public:
    // `cursor_secrets`: the first signs cursors, every one verifies (runtime/cursor_secret.hpp).
    // Starts the ledger writer, which first refunds the reservations a previous run of this
    // instance (config.server.instance, already resolved) left open.
    // `metrics`, when given, counts every answer and ledger commit (GET /metrics); it must
    // outlive the service.
    // `db` holds the data and the keys; `billing` the ledger (the same object on PostgreSQL, its
    // own file on SQLite: runtime::Runtime::Billing).
    ApiService(const config::Config& config, odb::database& db, odb::database& billing,
               const plugins::PluginSet& plugins, std::vector<std::string> cursor_secrets,
               std::shared_ptr<spdlog::logger> access_log, metrics::ServerMetrics* metrics = nullptr);

    std::size_t RecoveredReservations() const { return ledger_.RecoveredAtStart(); }

    // Answers `request` through `respond`, exactly once: on this thread, or, for a billed call,
    // on the ledger writer's thread as soon as its settlement is durable (the request thread
    // does not wait for the commit). `respond` must not throw.
    using Respond = std::function<void(OutgoingResponse)>;
    void Handle(const IncomingRequest& request, Respond respond);

    // Graceful shutdown: refuse new work with 503 while the requests in flight finish.
    void BeginDraining() { draining_ = true; }
    // After draining, with the transport stopped: the settlements still queued are written and
    // answered, then the ledger writer's thread ends. Its last callbacks may drop the last
    // references to this service but one, the caller's, so the service is never destroyed on
    // the writer's own thread (which would join itself).
    void StopBilling() { ledger_.Stop(); }
    // The transport counts a request from its arrival until its response is sent.
    void Enter() { ++in_flight_; }
    void Leave() { --in_flight_; }
    int InFlight() const { return in_flight_.load(); }

private:
    struct Call;      // the state of one request as it moves through the pipeline
    struct Settling;  // a billed call waiting for its settlement

    // What the request's parameters say: the checked values, or the problem to answer once the
    // call is admitted (422/400 are refunded, so they are answered after the reservation).
    struct Arguments {
        sdk::Params params;
        std::optional<std::pair<std::string, std::string>> decode_error;  // parameter ("" for none), detail
        std::optional<std::pair<std::string, std::string>> param_error;   // parameter, detail (422)
        std::string filters;                                              // digest binding a cursor
        std::optional<boost::json::value> position;                       // decoded from the cursor
        std::optional<std::string> cursor_problem;                        // 400
    };

    OutgoingResponse UnknownResource(Call& call, const IncomingRequest& request);
    // A /v1 call that no operation prices (a path none serves, a method other than GET): with a
    // valid key it counts in the key's minute and gets the key's own figures in its headers.
    // Returns the 503 to answer when billing is away.
    std::optional<OutgoingResponse> CountUnpriced(Call& call, const IncomingRequest& request);
    // The transport could not hand the answer of a charged call whole to the kernel: the charge
    // is taken back (LedgerWriter::TakeBack), logged and counted.
    void Undelivered(billing::SettlementRequest charged, const std::string& operation,
                     const std::string& request_id);
    // /health, /pricing, /openapi.json and the /docs page: no key, not billed; nullopt for
    // another path.
    // Sets the call's metrics label.
    std::optional<OutgoingResponse> PublicDocument(Call& call, const std::string& path) const;
    // The /v1 stages, in order. HandleV1 returns the response, or nullopt when the call went on
    // to its settlement, which answers it.
    std::optional<OutgoingResponse> HandleV1(Call& call, const RouteMatch& match,
                                             const IncomingRequest& request, Respond& respond);
    std::optional<OutgoingResponse> Authenticate(Call& call, const IncomingRequest& request);
    Arguments ReadArguments(const plugins::OperationSpec& op, const RouteMatch& match,
                            const IncomingRequest& request) const;
    void ReadCursor(Call& call, Arguments& arguments) const;
    std::optional<OutgoingResponse> Admit(Call& call);
    OutgoingResponse Dispatch(Call& call, const RouteMatch& match, const Arguments& arguments);
    void Settle(Call& call, OutgoingResponse response, const RouteMatch& match, Arguments arguments,
                Respond& respond);
    // Settles the call, then answers it from the writer's thread.
    void SettleThenAnswer(std::shared_ptr<Settling> settling);
    // Applies the settlement's outcome to the call's response.
    void Settled(Call& call, OutgoingResponse& response, billing::LedgerWriter::SettleOutcome outcome);
    // Request id, billing headers, access log line; then `respond`.
    void Finish(Call& call, OutgoingResponse response, const Respond& respond);
    // The handler's answer, from the response cache when it holds one. With
    // `checked_at_settlement` a cached answer of the newest release seen is taken without
    // reading the database, and the call's settlement checks that release is still the newest.
    OutgoingResponse RunHandler(Call& call, const RouteMatch& match, const sdk::Params& params,
                                const std::string& filters, const std::optional<boost::json::value>& position,
                                bool checked_at_settlement);
    void SawRelease(std::int64_t id);  // raises newest_seen_
    // The envelope of `answer` for this call: its request_id and, when paginated, its cursor.
    std::string Envelope(const Call& call, const plugins::OperationSpec& op, const sdk::Params& params,
                         const std::string& filters, const FrozenAnswer& answer) const;
    OutgoingResponse Unavailable(Call& call, const std::string& what);
    OutgoingResponse Problem(Call& call, int status, const std::string& detail,
                             const std::optional<std::string>& parameter = std::nullopt);
    void AddBillingHeaders(Call& call, OutgoingResponse& response);
    void Log(const Call& call, const OutgoingResponse& response);

    const config::Config& config_;
    odb::database& db_;
    const plugins::PluginSet& plugins_;
    RouteTable routes_;
    auth::KeyStore keys_;
    auth::KeyCache key_cache_;
    auth::FailedAuthLimiter failed_auths_;
    // Before ledger_: its batches report the newest release id they read (SawRelease).
    std::atomic<std::int64_t> newest_seen_{0};  // the newest release id a read has seen
    ingest::ReleaseCache releases_;             // PostgreSQL: the releases at newest_seen_
    ingest::KeptData kept_;                     // what handlers keep between calls
    billing::LedgerWriter ledger_;
    CursorCodec cursors_;
    ResponseCache answers_;
    std::shared_ptr<spdlog::logger> access_log_;
    metrics::ServerMetrics* metrics_;
    std::time_t started_at_;
    // The manifests do not change while serving: written once, shared by every answer.
    std::shared_ptr<const std::string> openapi_json_;
    std::atomic<bool> draining_{false};
    std::atomic<int> in_flight_{0};
};

}  // namespace lastro::http
