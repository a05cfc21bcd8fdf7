#include "domain/series_data.hpp"

#include <algorithm>

namespace lastro::series {

SeriesData::SeriesData(SeriesSpec spec, std::vector<Observation> observations)
    : spec_(std::move(spec)), observations_(std::move(observations)) {
    missing_before_.reserve(observations_.size() + 1);
    missing_before_.push_back(0);
    if (spec_.kind == SeriesKind::kRate) {
        running_.reserve(observations_.size() + 1);
        running_.emplace_back(1);
    }
    for (const Observation& observation : observations_) {
        missing_before_.push_back(missing_before_.back() + (observation.value ? 0 : 1));
        if (spec_.kind == SeriesKind::kRate) {
            // A missing value leaves the product as it was; Growth refuses spans that hold one.
            running_.push_back(observation.value ? running_.back() * GrowthOf(*observation.value)
                                                 : running_.back());
        }
    }
}

std::size_t SeriesData::LowerBound(const sdk::Date& date) const {
    return static_cast<std::size_t>(
        std::lower_bound(observations_.begin(), observations_.end(), date,
                         [](const Observation& o, const sdk::Date& d) { return o.date < d; }) -
        observations_.begin());
}

std::size_t SeriesData::UpperBound(const sdk::Date& date) const {
    return static_cast<std::size_t>(
        std::upper_bound(observations_.begin(), observations_.end(), date,
                         [](const sdk::Date& d, const Observation& o) { return d < o.date; }) -
        observations_.begin());
}

std::optional<Real> SeriesData::Growth(std::size_t begin, std::size_t end) const {
    if (spec_.kind != SeriesKind::kRate || begin > end || end > observations_.size() ||
        missing_before_[end] != missing_before_[begin]) {
        return std::nullopt;
    }
    return running_[end] / running_[begin];
}

std::optional<Real> SeriesData::Compounded(std::size_t begin, std::size_t end) const {
    std::optional<Real> growth = Growth(begin, end);
    if (!growth || spec_.rate_per != RatePer::kYear) {
        return growth;
    }
    // (prod (1 + R_i))^(1/n) = prod (1 + R_i)^(1/n): one power for the whole span.
    const long double per_year = spec_.frequency == Frequency::kDaily ? 252.0L : 12.0L;
    return Power(*growth, 1.0L / per_year);
}

}  // namespace lastro::series
