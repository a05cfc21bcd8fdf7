#include "src/common.hpp"

#include "ingest/registry_rules.hpp"

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
    sdk::Meta meta;
    meta.sources.push_back({"cvm", "registro_fundo_classe"});
    if (auto release = host.LatestRelease(std::string(kRegistryDataset))) {
        meta.data_release = release->label;
        meta.as_of = release->as_of;
    }
    return meta;
}

}  // namespace lastro::funds
