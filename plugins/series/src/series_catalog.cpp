#include "src/series_catalog.hpp"

#include <lastro/sdk/problem.hpp>

#include <stdexcept>

namespace lastro::series {

SeriesCatalog::SeriesCatalog(const std::vector<sdk::DeclaredDataset>& declared) {
    for (const sdk::DeclaredDataset& dataset : declared) {
        if (dataset.id == kInfDiarioDataset) {
            continue;
        }
        if (dataset.derived || dataset.id.rfind("bcb.sgs.", 0) != 0) {
            throw std::invalid_argument(dataset.id +
                                        ": the series plugin reads SGS series only, bcb.sgs.<code>");
        }
        SeriesSpec spec = ReadSeriesSpec(dataset.id, dataset.description, dataset.properties);
        const std::int64_t code = spec.code;
        specs_.emplace(code, std::move(spec));
    }
}

std::vector<SeriesSpec> SeriesCatalog::Specs() const {
    std::vector<SeriesSpec> specs;
    for (const auto& [code, spec] : specs_) {
        specs.push_back(spec);
    }
    return specs;
}

const SeriesSpec* SeriesCatalog::Find(std::int64_t code) const {
    auto it = specs_.find(code);
    return it == specs_.end() ? nullptr : &it->second;
}

const SeriesSpec& SeriesCatalog::Require(std::int64_t code, const std::string& parameter) const {
    if (const SeriesSpec* spec = Find(code)) {
        return *spec;
    }
    throw sdk::NotFound(
        "series " + std::to_string(code) + " is not served; the served SGS series are " + ServedCodes(),
        parameter);
}

std::string SeriesCatalog::ServedCodes() const {
    std::string codes;
    for (const auto& [code, spec] : specs_) {
        codes += (codes.empty() ? "" : ", ") + std::to_string(code);
    }
    return codes;
}

}  // namespace lastro::series
