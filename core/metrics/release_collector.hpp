// The freshness of the data, read from the release catalog (core_data_release) when Prometheus
// scrapes, so that it is right on every instance whoever ran the ingest: per dataset, the
// releases recorded (one per successful ingest), when the newest was ingested, and what that
// ingest read, wrote and rejected. `lastro_database_up` says whether the read succeeded.
#pragma once

#include <prometheus/collectable.h>
#include <prometheus/metric_family.h>

#include <odb/database.hxx>

#include <chrono>
#include <vector>

namespace lastro::metrics {

class ReleaseCollector : public prometheus::Collectable {
public:
    // `reply_timeout` bounds a scrape's read on a PostgreSQL that stops answering
    // (storage/reply_deadline.hpp): the scrape says `lastro_database_up 0` instead of holding
    // a pooled connection, which the /v1 calls need, for ever.
    ReleaseCollector(odb::database& db, std::chrono::milliseconds reply_timeout)
        : db_(db), reply_timeout_(reply_timeout) {}
    std::vector<prometheus::MetricFamily> Collect() const override;

private:
    odb::database& db_;
    std::chrono::milliseconds reply_timeout_;
};

}  // namespace lastro::metrics
