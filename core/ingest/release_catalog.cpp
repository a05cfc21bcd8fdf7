#include "core/ingest/release_catalog.hpp"

#include "core/storage/core_model.hxx"
#include "core/storage/pgsql_statements.hpp"
#include "core_model-odb.hxx"

#include <lastro/sdk/cached_query.hpp>

#include <odb/transaction.hxx>

#include <memory>

namespace lastro::ingest {

std::optional<sdk::Release> ReleaseCatalog::LatestRelease(const std::string& dataset) const {
    std::optional<NumberedRelease> latest = LatestNumberedRelease(dataset);
    return latest ? std::optional<sdk::Release>(std::move(latest->release)) : std::nullopt;
}

std::optional<NumberedRelease> ReleaseCatalog::LatestNumberedRelease(const std::string& dataset) const {
    // Asked on nearly every call: prepared once per connection.
    using Query = odb::query<storage::DataRelease>;
    struct OfDataset {
        std::string dataset;
    };
    auto q =
        sdk::CachedQuery<storage::DataRelease, OfDataset>(db_, "core.latest_release", [](const OfDataset& p) {
            return (Query::dataset == Query::_ref(p.dataset)) + "ORDER BY" + Query::id + "DESC LIMIT 1";
        });
    q.params.dataset = dataset;
    storage::DataRelease r;
    if (!q.ExecuteOne(r)) {
        return std::nullopt;
    }
    return NumberedRelease{r.id, sdk::Release{r.dataset, r.label, r.as_of, r.ingested_at}};
}

std::int64_t ReleaseCatalog::NewestReleaseId() const {
    struct NoParams {};
    auto q = sdk::CachedQuery<storage::NewestRelease, NoParams>(
        db_, "core.newest_release", [](const NoParams&) { return odb::query<storage::NewestRelease>(true); });
    storage::NewestRelease newest;
    return q.ExecuteOne(newest) ? newest.id.value_or(0) : 0;
}

std::optional<std::string> ReleaseCatalog::IngestedAt(std::int64_t id) const {
    if (id <= 0) {
        return std::nullopt;
    }
    std::unique_ptr<storage::DataRelease> release(db_.find<storage::DataRelease>(id));
    return release ? std::optional<std::string>(release->ingested_at) : std::nullopt;
}

namespace {

constexpr const char* kNewestReleaseName = "lastro_newest_release";
constexpr const char* kNewestReleaseSql = "SELECT max(id) FROM core_data_release";

std::int64_t NewestOf(const storage::PgRows& rows) {
    return rows.empty() || rows.front().empty() || !rows.front().front() ? 0
                                                                         : std::stoll(*rows.front().front());
}

}  // namespace

std::int64_t ReleaseCatalog::NewestReleaseIdOnPostgres(odb::database& db) {
    return NewestOf(storage::RunPgStatementAlone(db, kNewestReleaseName, kNewestReleaseSql));
}

std::int64_t ReleaseCatalog::NewestReleaseIdNow(odb::database& db, odb::connection& connection) {
    if (db.id() == odb::id_pgsql) {
        return NewestOf(storage::RunPgStatementAlone(connection, kNewestReleaseName, kNewestReleaseSql));
    }
    odb::transaction t(connection.begin());
    const std::int64_t newest = ReleaseCatalog(db).NewestReleaseId();
    t.commit();
    return newest;
}

}  // namespace lastro::ingest
