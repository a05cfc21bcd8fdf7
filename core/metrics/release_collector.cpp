#include "core/metrics/release_collector.hpp"

#include "core/storage/reply_deadline.hpp"
#include "core_model-odb.hxx"

#include <odb/transaction.hxx>

#include <ctime>
#include <exception>
#include <string>

namespace lastro::metrics {

namespace {

prometheus::MetricFamily Family(const char* name, const char* help, prometheus::MetricType type) {
    prometheus::MetricFamily family;
    family.name = name;
    family.help = help;
    family.type = type;
    return family;
}

prometheus::ClientMetric Sample(double value, std::vector<prometheus::ClientMetric::Label> labels) {
    prometheus::ClientMetric metric;
    metric.label = std::move(labels);
    metric.gauge.value = value;
    metric.counter.value = value;
    return metric;
}

// Seconds since the epoch of "2026-11-22T01:02:03Z"; nullopt for anything else.
std::optional<double> EpochOf(const std::string& rfc3339) {
    std::tm tm{};
    const char* end = strptime(rfc3339.c_str(), "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (!end || *end != '\0') {
        return std::nullopt;
    }
    return static_cast<double>(timegm(&tm));
}

}  // namespace

std::vector<prometheus::MetricFamily> ReleaseCollector::Collect() const {
    using prometheus::MetricType;
    auto releases =
        Family("lastro_dataset_releases_total",
               "Releases recorded for the dataset: one per successful ingest", MetricType::Counter);
    auto ingested = Family("lastro_dataset_last_ingest_timestamp_seconds",
                           "When the dataset's newest release was ingested (Unix time)", MetricType::Gauge);
    auto rows = Family("lastro_dataset_last_ingest_rows",
                       "Rows of the dataset's newest ingest: read, inserted, updated, removed, rejected",
                       MetricType::Gauge);
    auto failures =
        Family("lastro_ingest_failures_total",
               "Ingests of the dataset that failed and were rolled back whole, by lastro ingest or sync",
               MetricType::Counter);
    auto failed_at = Family("lastro_dataset_last_ingest_failure_timestamp_seconds",
                            "When an ingest of the dataset last failed (Unix time)", MetricType::Gauge);
    auto synced = Family("lastro_sync_files_total",
                         "Files lastro sync asked for the dataset, by outcome: fetched, unchanged, "
                         "not_published, failed",
                         MetricType::Counter);
    auto up = Family("lastro_database_up", "1 when this scrape could read the release catalog, else 0",
                     MetricType::Gauge);
    try {
        odb::connection_ptr connection(db_.connection());
        storage::ReplyDeadline bound(*connection, std::chrono::steady_clock::now() + reply_timeout_);
        odb::transaction transaction(connection->begin());
        for (const storage::DatasetReleases& dataset : db_.query<storage::DatasetReleases>(true)) {
            releases.metric.push_back(
                Sample(static_cast<double>(dataset.releases), {{"dataset", dataset.dataset}}));
            storage::DataRelease newest;
            if (!db_.find<storage::DataRelease>(dataset.newest_id, newest)) {
                continue;
            }
            if (const auto at = EpochOf(newest.ingested_at)) {
                ingested.metric.push_back(Sample(*at, {{"dataset", dataset.dataset}}));
            }
            const std::pair<const char*, std::int64_t> counts[] = {{"read", newest.rows_read},
                                                                   {"inserted", newest.inserted},
                                                                   {"updated", newest.updated},
                                                                   {"removed", newest.removed},
                                                                   {"rejected", newest.rejected}};
            for (const auto& [kind, count] : counts) {
                rows.metric.push_back(
                    Sample(static_cast<double>(count), {{"dataset", dataset.dataset}, {"kind", kind}}));
            }
        }
        for (const storage::RunOutcomeTotals& run : db_.query<storage::RunOutcomeTotals>(true)) {
            const double count = static_cast<double>(run.count);
            if (run.command == "sync") {
                synced.metric.push_back(Sample(count, {{"dataset", run.dataset}, {"outcome", run.outcome}}));
            } else if (run.outcome == "failed") {
                failures.metric.push_back(Sample(count, {{"dataset", run.dataset}}));
                if (const auto at = EpochOf(run.last_at)) {
                    failed_at.metric.push_back(Sample(*at, {{"dataset", run.dataset}}));
                }
            }
        }
        transaction.commit();
        up.metric.push_back(Sample(1, {}));
    } catch (const std::exception&) {
        // The database is unreachable or busy: say so, and serve what the other families hold.
        releases.metric.clear();
        ingested.metric.clear();
        rows.metric.clear();
        failures.metric.clear();
        failed_at.metric.clear();
        synced.metric.clear();
        up.metric.push_back(Sample(0, {}));
    }
    return {std::move(releases),  std::move(ingested), std::move(rows), std::move(failures),
            std::move(failed_at), std::move(synced),   std::move(up)};
}

}  // namespace lastro::metrics
