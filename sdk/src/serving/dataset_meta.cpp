#include <lastro/sdk/serving/dataset_meta.hpp>

#include <stdexcept>
#include <string>

namespace lastro::sdk {

Meta DatasetMeta(const Host& host, std::initializer_list<std::string_view> datasets) {
    if (datasets.size() == 0) {
        throw std::invalid_argument("DatasetMeta needs at least one dataset");
    }
    Meta meta;
    meta.sources.reserve(datasets.size());
    for (std::string_view dataset : datasets) {
        const std::size_t dot = dataset.find('.');
        if (dot == 0 || dot == std::string_view::npos || dot + 1 == dataset.size()) {
            throw std::invalid_argument("dataset id '" + std::string(dataset) + "' is not provider.dataset");
        }
        meta.sources.push_back({std::string(dataset.substr(0, dot)), std::string(dataset.substr(dot + 1))});
    }
    if (auto release = host.LatestRelease(std::string(*datasets.begin()))) {
        meta.data_release = std::move(release->label);
        meta.as_of = std::move(release->as_of);
    }
    return meta;
}

}  // namespace lastro::sdk
