// Data releases: recorded by every ingest in the same transaction as its data, read by
// handlers for meta.data_release and meta.as_of (the SDK's Host services).
#pragma once

#include <lastro/sdk/plugin.hpp>

#include <odb/database.hxx>

#include <optional>
#include <string>
#include <vector>

namespace lastro::ingest {

// A release with its id, which orders releases of every dataset (ReleaseCache).
struct NumberedRelease {
    std::int64_t id = 0;
    sdk::Release release;
};

class ReleaseCatalog : public sdk::Host {
public:
    explicit ReleaseCatalog(odb::database& db) : db_(db) {}
    // Reads inside the caller's transaction.
    std::optional<sdk::Release> LatestRelease(const std::string& dataset) const override;
    // The same with its id.
    std::optional<NumberedRelease> LatestNumberedRelease(const std::string& dataset) const;
    // The id of the newest release of any dataset (0 before the first ingest), read inside the
    // caller's transaction: it changes exactly when an ingest commits new data.
    std::int64_t NewestReleaseId() const;
    // When release `id` was ingested (RFC 3339, UTC), read inside the caller's transaction;
    // nullopt when there is no such release (0: nothing ingested yet).
    std::optional<std::string> IngestedAt(std::int64_t id) const;
    // The same on PostgreSQL, read alone on a pooled connection outside any transaction (one
    // round trip instead of three): for the response cache, before it knows whether a
    // transaction is needed at all.
    static std::int64_t NewestReleaseIdOnPostgres(odb::database& db);
    // The newest release id now, on `connection` of `db`, which has no transaction open: on
    // PostgreSQL one round trip as above, on SQLite a read transaction of its own.
    static std::int64_t NewestReleaseIdNow(odb::database& db, odb::connection& connection);

private:
    odb::database& db_;
};

}  // namespace lastro::ingest
