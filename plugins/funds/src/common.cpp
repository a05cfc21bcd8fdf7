#include "src/common.hpp"

#include "ingest/registry_rules.hpp"

#include <lastro/sdk/problem.hpp>

namespace lastro::funds {

boost::json::value JsonOrNull(const std::optional<std::string>& value) {
    if (!value) {
        return nullptr;
    }
    return boost::json::value(*value);
}

boost::json::value JsonOrNull(const std::optional<std::int64_t>& value) {
    if (!value) {
        return nullptr;
    }
    return boost::json::value(*value);
}

boost::json::value JsonOrNull(const std::optional<double>& value) {
    if (!value) {
        return nullptr;
    }
    return boost::json::value(*value);
}

sdk::Meta RegistryMeta(const sdk::Host& host) {
    const std::string dataset(kRegistryDataset);
    auto release = host.LatestRelease(dataset);
    if (!release) {
        throw sdk::Unavailable("the fund registry (" + dataset + ") has not been ingested yet");
    }
    sdk::Meta meta;
    meta.data_release = release->label;
    meta.as_of = release->as_of;
    meta.sources.push_back({"cvm", "registro_fundo_classe"});
    return meta;
}

}  // namespace lastro::funds
