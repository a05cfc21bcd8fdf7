// What the plugin knows of one SGS series: the `properties:` of its dataset entry in
// manifest.yaml (docs/datasets/sgs.md), checked once when the plugin registers. The rules of
// compounding and aggregation (transforms.hpp) read only this, never a series code.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace lastro::series {

// How observations combine over a period (docs/transforms.md).
enum class SeriesKind {
    kRate,   // a percentage rate: compounded, the product of (1 + r/100)
    kLevel,  // a level (the Selic target): a period takes its last value
};

enum class Frequency { kDaily, kMonthly, kYearly };

// The span a rate is quoted over: % a day, % a month, % a year (base 252 business days).
enum class RatePer { kDay, kMonth, kYear };

struct SeriesSpec {
    std::int64_t code = 0;  // the SGS code: 11
    std::string dataset;    // "bcb.sgs.11"
    std::string name;       // "Selic (effective rate)"
    std::string description;
    SeriesKind kind = SeriesKind::kRate;
    RatePer rate_per = RatePer::kDay;
    Frequency frequency = Frequency::kDaily;  // how often SGS publishes it (daily: business days)
};

std::string ToString(SeriesKind kind);      // "rate" | "level"
std::string ToString(Frequency frequency);  // "daily" | "monthly" | "yearly"
std::string ToString(RatePer per);          // "day" | "month" | "year"

// The unit of the published values: "percent_per_day", "percent_per_month", "percent_per_year".
std::string PublishedUnit(const SeriesSpec& spec);

// One spec from a dataset id and its manifest properties (sgs_code, name, kind, rate_per,
// frequency; all required, no other). Throws std::invalid_argument naming the dataset and the
// property for a missing, unknown or invalid one, or a code that disagrees with the id.
SeriesSpec ReadSeriesSpec(const std::string& dataset, const std::string& description,
                          const std::map<std::string, std::string>& properties);

}  // namespace lastro::series
