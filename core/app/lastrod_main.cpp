// lastrod: the HTTP server. Configuration from LASTRO_CONFIG (default /etc/lastro/lastro.yaml);
// it never migrates the database by itself (`lastro db migrate` does).
#include "core/billing/wall_clock.hpp"
#include "core/http/api_service.hpp"
#include "core/metrics/release_collector.hpp"
#include "core/metrics/server_metrics.hpp"
#include "core/runtime/cursor_secret.hpp"
#include "core/runtime/runtime.hpp"
#include "core/storage/serving_lock.hpp"
#include "core/transport/http_server.hpp"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <prometheus/exposer.h>

#include <pthread.h>
#include <unistd.h>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>

namespace {

std::shared_ptr<spdlog::logger> MakeAccessLog(const lastro::config::LogConfig& config) {
    std::shared_ptr<spdlog::logger> logger;
    if (config.access_log == "stderr") {
        logger = spdlog::stderr_logger_mt("access");
    } else if (config.access_log == "off") {
        logger = std::make_shared<spdlog::logger>("access", std::make_shared<spdlog::sinks::null_sink_mt>());
    } else {
        logger = spdlog::basic_logger_mt("access", config.access_log);
    }
    logger->set_pattern("%v");
    logger->set_level(spdlog::level::from_str(config.level));
    logger->flush_on(spdlog::level::info);
    if (config.access_log == "off") {
        logger->set_level(spdlog::level::off);  // and ApiService skips building the lines
    }
    return logger;
}

// A line the access log cannot write (a full disk) is lost, never the call: counted, and said
// on stderr (the journal) once a minute at most, with how many were lost since. spdlog calls
// the handler instead of throwing; its file sink writes whole lines again once space returns.
void WatchAccessLog(spdlog::logger& log, lastro::metrics::ServerMetrics* metrics) {
    struct Lost {
        std::mutex mutex;
        std::chrono::steady_clock::time_point said{};
        std::uint64_t since = 0;
    };
    auto lost = std::make_shared<Lost>();
    log.set_error_handler([lost, metrics](const std::string& why) {
        if (metrics) {
            metrics->AccessLogLost();
        }
        std::lock_guard lock(lost->mutex);
        ++lost->since;
        const auto now = std::chrono::steady_clock::now();
        if (lost->said == std::chrono::steady_clock::time_point{} ||
            now - lost->said >= std::chrono::minutes(1)) {
            std::fprintf(stderr, "lastrod: access log: %s (%llu lines lost since the last report)\n",
                         why.c_str(), static_cast<unsigned long long>(lost->since));
            lost->said = now;
            lost->since = 0;
        }
    });
}

// GET /metrics on its own address (config metrics.listen), when one is set.
struct MetricsEndpoint {
    std::unique_ptr<lastro::metrics::ServerMetrics> counters;
    std::shared_ptr<lastro::metrics::ReleaseCollector> releases;
    std::unique_ptr<prometheus::Exposer> exposer;
};

MetricsEndpoint StartMetrics(const lastro::runtime::Runtime& runtime) {
    MetricsEndpoint endpoint;
    const lastro::config::MetricsConfig& config = runtime.config.metrics;
    if (config.listen_host.empty()) {
        return endpoint;
    }
    std::vector<std::string> operations;
    for (const auto& plugin : runtime.plugins->Plugins()) {
        for (const auto& operation : plugin->manifest.operations) {
            operations.push_back(operation.id);
        }
    }
    endpoint.counters = std::make_unique<lastro::metrics::ServerMetrics>(operations);
    endpoint.releases = std::make_shared<lastro::metrics::ReleaseCollector>(
        *runtime.db, std::chrono::milliseconds(runtime.config.database.pgsql_reply_timeout_ms));
    const std::string address = config.listen_host + ":" + std::to_string(config.listen_port);
    try {
        endpoint.exposer = std::make_unique<prometheus::Exposer>(address, 1);
    } catch (const std::exception& e) {
        throw std::runtime_error("metrics.listen " + address + ": cannot listen (" + e.what() + ")");
    }
    endpoint.exposer->RegisterCollectable(endpoint.counters->Registry());
    endpoint.exposer->RegisterCollectable(endpoint.releases);
    return endpoint;
}

}  // namespace

int main() {
    // Block the stop signals in every thread (Pistache's included); main waits for them.
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGTERM);
    sigaddset(&stop_signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
    std::signal(SIGPIPE, SIG_IGN);

    try {
        if (const auto start = lastro::billing::TestClockStart()) {
            std::fprintf(stderr,
                         "lastrod: LASTRO_TEST_CLOCK: billing's wall clock started at %s (tests only)\n",
                         start->c_str());
        }
        auto runtime = lastro::runtime::Boot();
        lastro::runtime::RequireMigrated(*runtime);
        // Both files: admission is decided in this process, which is only right when no other
        // lastrod serves either the data or the usage rows.
        std::optional<lastro::storage::ServingLock> serving_lock;
        std::optional<lastro::storage::ServingLock> billing_lock;
        if (runtime->config.database.backend == lastro::config::Backend::kSqlite) {
            serving_lock.emplace(runtime->config.database.sqlite_path);
            billing_lock.emplace(runtime->config.database.sqlite_billing_path);
        }
        // Before anything serves: a secret an older version kept in the database moves to its
        // file here too, and without a file lastrod refuses to start.
        std::vector<std::string> cursor_secrets =
            lastro::runtime::EnsureCursorSecrets(*runtime->db, runtime->config.cursors.secret_file, false);
        auto access_log = MakeAccessLog(runtime->config.log);
        runtime->plugins->StartAll();
        if (runtime->config.server.instance.empty()) {
            char host[256] = {};
            gethostname(host, sizeof host - 1);
            // Port 0 (a port the kernel picks, used by tests) names nothing stable: the process id
            // keeps such instances apart, at the price of their recovery at start.
            const std::uint16_t port = runtime->config.server.listen_port;
            runtime->config.server.instance =
                std::string(host) + ":" +
                (port != 0 ? std::to_string(port) : "pid" + std::to_string(getpid()));
        }
        MetricsEndpoint metrics = StartMetrics(*runtime);
        WatchAccessLog(*access_log, metrics.counters.get());
        // The request pipeline's parts (core/http/api_service.hpp), composed once here.
        lastro::http::ApiParts parts =
            lastro::http::ComposeParts(runtime->config, *runtime->db, runtime->Billing(),
                                       std::move(cursor_secrets), metrics.counters.get());
        auto service = std::make_shared<lastro::http::ApiService>(
            runtime->config, *runtime->plugins, std::move(parts), access_log, metrics.counters.get());
        lastro::transport::HttpServer server(runtime->config.server, service);
        const std::uint16_t port = server.Start();
        std::fprintf(stderr, "lastrod %s: listening on http://%s:%u\n", LASTRO_VERSION,
                     runtime->config.server.listen_host.c_str(), port);
        if (metrics.exposer) {
            const std::vector<int> ports = metrics.exposer->GetListeningPorts();
            std::fprintf(stderr, "lastrod: metrics on http://%s:%d/metrics\n",
                         runtime->config.metrics.listen_host.c_str(), ports.empty() ? 0 : ports.front());
        }
        if (service->RecoveredReservations() > 0) {
            std::fprintf(stderr, "lastrod: refunded %zu reservations left open by instance %s's last run\n",
                         service->RecoveredReservations(), runtime->config.server.instance.c_str());
        }
        std::fflush(stderr);

        int signal = 0;
        sigwait(&stop_signals, &signal);
        std::fprintf(stderr, "lastrod: %s received, draining requests\n",
                     signal == SIGTERM ? "SIGTERM" : "SIGINT");
        server.Stop();
        metrics.exposer.reset();  // before the service and the counters it reads go
        runtime->plugins->StopAll();
        access_log->flush();
        std::fprintf(stderr, "lastrod: stopped\n");
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "lastrod: %s\n", e.what());
        return 1;
    }
}
