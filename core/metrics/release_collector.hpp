// The freshness of the data, read from the release catalog (core_data_release) when Prometheus
// scrapes, so that it is right on every instance whoever ran the ingest: per dataset, the
// releases recorded (one per successful ingest), when the newest was ingested, and what that
// ingest read, wrote and rejected. `lastro_database_up` says whether the read succeeded.
#pragma once

#include <prometheus/collectable.h>
#include <prometheus/metric_family.h>

#include <odb/database.hxx>

#include <vector>

namespace lastro::metrics {

class ReleaseCollector : public prometheus::Collectable {
public:
    explicit ReleaseCollector(odb::database& db) : db_(db) {}
    std::vector<prometheus::MetricFamily> Collect() const override;

private:
    odb::database& db_;
};

}  // namespace lastro::metrics
