// What lastrod counts for GET /metrics (docs/operations.md): requests by operation and status,
// their latency, the credits charged and refunded, and the credit ledger's group commits. The
// counters live in a prometheus-cpp registry; the request path only increments counters it
// resolved at start (one per operation and status class seen), so counting costs a few atomic
// additions and no lock on the way of a call.
#pragma once

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace lastro::metrics {

class ServerMetrics {
public:
    // `operations`: the operation ids of the loaded manifests. Every other request is counted
    // under one of the fixed names of OperationLabel (so a path never becomes a label).
    explicit ServerMetrics(const std::vector<std::string>& operations);

    // The label of a request: its operation id, "health", "pricing", "openapi", "docs" (the
    // page and its files), or "unmatched" for a path no operation serves.
    static constexpr std::string_view kHealth = "health";
    static constexpr std::string_view kPricing = "pricing";
    static constexpr std::string_view kOpenApi = "openapi";
    static constexpr std::string_view kDocs = "docs";
    static constexpr std::string_view kUnmatched = "unmatched";

    // One answered request: counted by operation and HTTP status, its time observed; the
    // credits of a billed call (`reserved` its price when it was reserved, else 0) counted as
    // charged or refunded.
    void Answered(std::string_view operation, int status, std::chrono::steady_clock::duration took,
                  std::int64_t charged, std::int64_t reserved);
    // One group commit of the ledger writer: the calls it settled or admitted, and its time.
    void LedgerBatch(std::size_t calls, std::chrono::steady_clock::duration took);

    // A /v1 call refused before any key was accepted: 401 without a bearer key ("missing") or
    // with one the key table does not accept ("invalid"), or 429 for its address's failed
    // authentications ("throttled").
    enum class AuthRefusal { kMissing, kInvalid, kThrottled };
    void AuthRefused(AuthRefusal reason);
    // One read of the key table (a key hash neither cache held).
    void KeyLookup();
    // An access log line that could not be written (a full disk): lost, the call unharmed.
    void AccessLogLost();
    // A charged answer that never reached the kernel whole (its connection ended first): its
    // `credits` are taken back, so they move from charged to refunded.
    void Undelivered(std::string_view operation, std::int64_t credits);

    std::shared_ptr<prometheus::Registry> Registry() const { return registry_; }

private:
    struct Operation {
        std::string name;
        prometheus::Histogram* duration = nullptr;
        prometheus::Counter* charged = nullptr;
        prometheus::Counter* refunded = nullptr;
        prometheus::Counter* undelivered = nullptr;
        // Requests by status, made on first use (HTTP statuses are 100..599).
        std::array<std::atomic<prometheus::Counter*>, 500> by_status{};
    };

    Operation& Find(std::string_view operation);
    prometheus::Counter& RequestsOf(Operation& operation, int status);

    std::shared_ptr<prometheus::Registry> registry_;
    prometheus::Family<prometheus::Counter>& requests_;
    prometheus::Family<prometheus::Histogram>& durations_;
    prometheus::Family<prometheus::Counter>& charged_;
    prometheus::Family<prometheus::Counter>& refunded_;
    prometheus::Family<prometheus::Counter>& undelivered_;
    prometheus::Histogram& batch_calls_;
    prometheus::Histogram& batch_seconds_;
    std::array<prometheus::Counter*, 3> auth_refused_{};
    prometheus::Counter& key_lookups_;
    prometheus::Counter& access_log_lost_;
    // Looked up by string_view without making a string.
    struct NameHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view name) const { return std::hash<std::string_view>{}(name); }
    };
    // Filled at construction and never changed after: read without a lock.
    std::unordered_map<std::string, std::unique_ptr<Operation>, NameHash, std::equal_to<>> operations_;
    std::mutex adding_;  // Family::Add of a status seen for the first time
};

}  // namespace lastro::metrics
