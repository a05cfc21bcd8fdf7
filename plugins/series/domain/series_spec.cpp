#include "domain/series_spec.hpp"

#include <charconv>
#include <set>
#include <stdexcept>

namespace lastro::series {
namespace {

constexpr const char* kPrefix = "bcb.sgs.";

std::string Required(const std::string& dataset, const std::map<std::string, std::string>& properties,
                     const std::string& name) {
    auto it = properties.find(name);
    if (it == properties.end()) {
        throw std::invalid_argument(dataset + ": property '" + name + "' is missing");
    }
    return it->second;
}

[[noreturn]] void Invalid(const std::string& dataset, const std::string& name, const std::string& value,
                          const std::string& expected) {
    throw std::invalid_argument(dataset + ": property '" + name + "' is '" + value + "', expected " +
                                expected);
}

}  // namespace

std::string ToString(SeriesKind kind) {
    return kind == SeriesKind::kRate ? "rate" : "level";
}

std::string ToString(Frequency frequency) {
    switch (frequency) {
        case Frequency::kDaily:
            return "daily";
        case Frequency::kMonthly:
            return "monthly";
        case Frequency::kYearly:
            return "yearly";
    }
    return "daily";
}

std::string ToString(RatePer per) {
    switch (per) {
        case RatePer::kDay:
            return "day";
        case RatePer::kMonth:
            return "month";
        case RatePer::kYear:
            return "year";
    }
    return "day";
}

std::string PublishedUnit(const SeriesSpec& spec) {
    return "percent_per_" + ToString(spec.rate_per);
}

SeriesSpec ReadSeriesSpec(const std::string& dataset, const std::string& description,
                          const std::map<std::string, std::string>& properties) {
    static const std::set<std::string> kKnown = {"sgs_code", "name", "kind", "rate_per", "frequency"};
    for (const auto& [name, value] : properties) {
        if (!kKnown.count(name)) {
            throw std::invalid_argument(dataset + ": unknown property '" + name +
                                        "' (known: sgs_code, name, kind, rate_per, frequency)");
        }
    }
    SeriesSpec spec;
    spec.dataset = dataset;
    spec.description = description;
    const std::string code = Required(dataset, properties, "sgs_code");
    const auto [end, error] = std::from_chars(code.data(), code.data() + code.size(), spec.code);
    if (error != std::errc() || end != code.data() + code.size() || spec.code < 1 || spec.code > 99999999 ||
        code[0] == '0') {
        Invalid(dataset, "sgs_code", code, "an SGS code, 1..99999999");
    }
    if (dataset != kPrefix + code) {
        throw std::invalid_argument(dataset + ": an SGS series' dataset id is " + kPrefix + code);
    }
    spec.name = Required(dataset, properties, "name");
    const std::string kind = Required(dataset, properties, "kind");
    if (kind == "rate") {
        spec.kind = SeriesKind::kRate;
    } else if (kind == "level") {
        spec.kind = SeriesKind::kLevel;
    } else {
        Invalid(dataset, "kind", kind, "rate or level");
    }
    const std::string per = Required(dataset, properties, "rate_per");
    if (per == "day") {
        spec.rate_per = RatePer::kDay;
    } else if (per == "month") {
        spec.rate_per = RatePer::kMonth;
    } else if (per == "year") {
        spec.rate_per = RatePer::kYear;
    } else {
        Invalid(dataset, "rate_per", per, "day, month or year");
    }
    const std::string frequency = Required(dataset, properties, "frequency");
    if (frequency == "daily") {
        spec.frequency = Frequency::kDaily;
    } else if (frequency == "monthly") {
        spec.frequency = Frequency::kMonthly;
    } else {
        Invalid(dataset, "frequency", frequency, "daily or monthly (SGS' periodicities served)");
    }
    // A rate compounds over its observations only when each observation's span is known from
    // its quote: a daily rate observed daily, a monthly one monthly, or a yearly one converted.
    if (spec.kind == SeriesKind::kRate &&
        ((spec.frequency == Frequency::kDaily && spec.rate_per == RatePer::kMonth) ||
         (spec.frequency == Frequency::kMonthly && spec.rate_per == RatePer::kDay))) {
        throw std::invalid_argument(dataset + ": a rate per " + per + " observed " + frequency +
                                    " cannot be compounded (docs/transforms.md)");
    }
    return spec;
}

}  // namespace lastro::series
