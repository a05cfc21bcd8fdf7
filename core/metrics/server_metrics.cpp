#include "core/metrics/server_metrics.hpp"

namespace lastro::metrics {

namespace {

// Seconds, from a tenth of a millisecond (an answer from the response cache) to ten seconds
// (the client-facing timeouts).
const prometheus::Histogram::BucketBoundaries& LatencyBuckets() {
    static const prometheus::Histogram::BucketBoundaries kBuckets{
        0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
    return kBuckets;
}

double Seconds(std::chrono::steady_clock::duration took) {
    return std::chrono::duration<double>(took).count();
}

}  // namespace

ServerMetrics::ServerMetrics(const std::vector<std::string>& operations)
    : registry_(std::make_shared<prometheus::Registry>()),
      requests_(prometheus::BuildCounter()
                    .Name("lastro_http_requests_total")
                    .Help("Requests answered, by operation and HTTP status")
                    .Register(*registry_)),
      durations_(prometheus::BuildHistogram()
                     .Name("lastro_http_request_duration_seconds")
                     .Help("Time from a request's arrival to its answer, by operation")
                     .Register(*registry_)),
      charged_(prometheus::BuildCounter()
                   .Name("lastro_credits_charged_total")
                   .Help("Credits charged, by operation")
                   .Register(*registry_)),
      refunded_(prometheus::BuildCounter()
                    .Name("lastro_credits_refunded_total")
                    .Help("Credits reserved and given back, by operation")
                    .Register(*registry_)),
      undelivered_(prometheus::BuildCounter()
                       .Name("lastro_answers_undelivered_total")
                       .Help("Charged answers that never reached the kernel whole (their charge taken back), "
                             "by operation")
                       .Register(*registry_)),
      batch_calls_(prometheus::BuildHistogram()
                       .Name("lastro_ledger_batch_calls")
                       .Help("Calls admitted or settled by one group commit of the credit ledger")
                       .Register(*registry_)
                       .Add({}, prometheus::Histogram::BucketBoundaries{1, 2, 4, 8, 16, 32, 64, 128, 256})),
      batch_seconds_(prometheus::BuildHistogram()
                         .Name("lastro_ledger_commit_duration_seconds")
                         .Help("Time of one group commit of the credit ledger, disk sync included")
                         .Register(*registry_)
                         .Add({}, LatencyBuckets())),
      key_lookups_(prometheus::BuildCounter()
                       .Name("lastro_auth_key_lookups_total")
                       .Help("Reads of the key table: key hashes that neither key cache held")
                       .Register(*registry_)
                       .Add({})),
      access_log_lost_(
          prometheus::BuildCounter()
              .Name("lastro_access_log_lines_lost_total")
              .Help("Access log lines that could not be written (a full disk); the calls were served")
              .Register(*registry_)
              .Add({})) {
    auto& refused = prometheus::BuildCounter()
                        .Name("lastro_auth_refused_total")
                        .Help("/v1 calls refused before a key was accepted, by reason")
                        .Register(*registry_);
    auth_refused_[static_cast<std::size_t>(AuthRefusal::kMissing)] = &refused.Add({{"reason", "missing"}});
    auth_refused_[static_cast<std::size_t>(AuthRefusal::kInvalid)] = &refused.Add({{"reason", "invalid"}});
    auth_refused_[static_cast<std::size_t>(AuthRefusal::kThrottled)] =
        &refused.Add({{"reason", "throttled"}});
    std::vector<std::string> names(operations);
    names.emplace_back(kHealth);
    names.emplace_back(kPricing);
    names.emplace_back(kOpenApi);
    names.emplace_back(kDocs);
    names.emplace_back(kUnmatched);
    for (const std::string& name : names) {
        auto operation = std::make_unique<Operation>();
        operation->name = name;
        operation->duration = &durations_.Add({{"operation", name}}, LatencyBuckets());
        operation->charged = &charged_.Add({{"operation", name}});
        operation->refunded = &refunded_.Add({{"operation", name}});
        operation->undelivered = &undelivered_.Add({{"operation", name}});
        operations_.emplace(name, std::move(operation));
    }
}

ServerMetrics::Operation& ServerMetrics::Find(std::string_view operation) {
    auto it = operations_.find(operation);
    return it != operations_.end() ? *it->second : *operations_.find(kUnmatched)->second;
}

prometheus::Counter& ServerMetrics::RequestsOf(Operation& operation, int status) {
    const std::size_t slot = status >= 100 && status <= 599 ? static_cast<std::size_t>(status - 100) : 0;
    std::atomic<prometheus::Counter*>& counter = operation.by_status[slot];
    if (prometheus::Counter* known = counter.load(std::memory_order_acquire)) {
        return *known;
    }
    std::lock_guard lock(adding_);
    prometheus::Counter* made =
        &requests_.Add({{"operation", operation.name}, {"status", std::to_string(slot + 100)}});
    counter.store(made, std::memory_order_release);
    return *made;
}

void ServerMetrics::Answered(std::string_view operation, int status, std::chrono::steady_clock::duration took,
                             std::int64_t charged, std::int64_t reserved) {
    Operation& op = Find(operation);
    RequestsOf(op, status).Increment();
    op.duration->Observe(Seconds(took));
    if (charged > 0) {
        op.charged->Increment(static_cast<double>(charged));
    }
    if (reserved > charged) {
        op.refunded->Increment(static_cast<double>(reserved - charged));
    }
}

void ServerMetrics::LedgerBatch(std::size_t calls, std::chrono::steady_clock::duration took) {
    batch_calls_.Observe(static_cast<double>(calls));
    batch_seconds_.Observe(Seconds(took));
}

void ServerMetrics::AuthRefused(AuthRefusal reason) {
    auth_refused_[static_cast<std::size_t>(reason)]->Increment();
}

void ServerMetrics::KeyLookup() {
    key_lookups_.Increment();
}

void ServerMetrics::Undelivered(std::string_view operation, std::int64_t credits) {
    Operation& op = Find(operation);
    op.undelivered->Increment();
    // Counters never go down: the charge stays counted as charged, and counts as refunded too.
    op.refunded->Increment(static_cast<double>(credits));
}

void ServerMetrics::AccessLogLost() {
    access_log_lost_.Increment();
}

}  // namespace lastro::metrics
