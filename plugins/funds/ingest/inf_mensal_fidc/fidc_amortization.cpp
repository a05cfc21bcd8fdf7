#include "ingest/inf_mensal_fidc/fidc_amortization.hpp"

#include <cmath>

namespace lastro::funds {

namespace {

bool Near(double figure, double quotas) {
    return std::fabs(figure - quotas) <= kReadingTolerance * std::fabs(quotas);
}

}  // namespace

std::string_view ReadingName(FidcReading reading) {
    switch (reading) {
        case FidcReading::kAsPublished:
            return "as_published";
        case FidcReading::kSwapped:
            return "swapped";
        case FidcReading::kUnverified:
            break;
    }
    return "unverified";
}

FidcReadAmount ReadAmortization(std::optional<double> value, std::optional<double> quota_count,
                                std::optional<double> series_quotas) {
    if (!value && !quota_count) {
        return {FidcReading::kAsPublished, std::nullopt};
    }
    if (value && quota_count && *value == 0 && *quota_count == 0) {
        return {FidcReading::kAsPublished, 0.0};  // nothing amortized reads the same either way
    }
    if (value && quota_count && *value != 0 && *quota_count == 0) {
        // Swapped, this would be an amount per quota with a total of 0: only the names fit.
        return {FidcReading::kAsPublished, *value};
    }
    if (!value || !quota_count || !series_quotas || *series_quotas == 0) {
        return {FidcReading::kUnverified, std::nullopt};
    }
    const bool swapped = *value != 0 && Near(*quota_count / *value, *series_quotas);
    const bool as_published = Near(*quota_count, *series_quotas);
    if (swapped && !as_published) {
        return {FidcReading::kSwapped, *quota_count};
    }
    if (as_published && !swapped) {
        return {FidcReading::kAsPublished, *value};
    }
    return {FidcReading::kUnverified, std::nullopt};
}

}  // namespace lastro::funds
