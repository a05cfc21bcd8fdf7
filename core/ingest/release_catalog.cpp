#include "core/ingest/release_catalog.hpp"

#include "core/storage/core_model.hxx"
#include "core_model-odb.hxx"

namespace lastro::ingest {

std::optional<sdk::Release> ReleaseCatalog::LatestRelease(const std::string& dataset) const {
    using Query = odb::query<storage::DataRelease>;
    auto result = db_.query<storage::DataRelease>((Query::dataset == dataset) + "ORDER BY" + Query::id +
                                                  "DESC LIMIT 1");
    for (const storage::DataRelease& r : result) {
        return sdk::Release{r.dataset, r.label, r.as_of, r.ingested_at};
    }
    return std::nullopt;
}

}  // namespace lastro::ingest
