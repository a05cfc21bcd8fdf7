#include "domain/fidc/fidc_values.hpp"

#include "domain/fidc/fidc_tables.hpp"

#include <lastro/sdk/ingest/values.hpp>
#include <lastro/sdk/serving/money.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <cmath>
#include <stdexcept>

namespace lastro::funds {

namespace {

MaybeNumber NumberOrNull(const boost::json::value& value) {
    if (value.is_null()) {
        return std::nullopt;
    }
    if (!value.is_number()) {
        throw std::runtime_error("bands_json holds a value that is neither a number nor null");
    }
    return value.to_number<double>();
}

// The delinquent bands of one table ("V" or "VI"); all null when the table is absent.
std::array<MaybeNumber, kOverdueBands> TableBands(const boost::json::object& bands, const char* table) {
    std::array<MaybeNumber, kOverdueBands> out{};
    const boost::json::value* section = bands.if_contains(table);
    if (!section || section->is_null()) {
        return out;
    }
    const boost::json::value* delinquent =
        section->is_object() ? section->as_object().if_contains("delinquent") : nullptr;
    if (!delinquent || !delinquent->is_array() || delinquent->as_array().size() != kOverdueBands) {
        throw std::runtime_error(std::string("bands_json.") + table + ".delinquent is not an array of " +
                                 std::to_string(kOverdueBands) + " values");
    }
    for (std::size_t i = 0; i < kOverdueBands; ++i) {
        out[i] = NumberOrNull(delinquent->as_array()[i]);
    }
    return out;
}

}  // namespace

MaybeNumber SumPresent(const std::vector<MaybeNumber>& values) {
    MaybeNumber sum;
    for (const MaybeNumber& value : values) {
        if (value) {
            sum = sum.value_or(0.0) + *value;
        }
    }
    return sum;
}

MaybeNumber SumOfAll(const std::vector<MaybeNumber>& values) {
    if (values.empty()) {
        return std::nullopt;
    }
    double sum = 0.0;
    for (const MaybeNumber& value : values) {
        if (!value) {
            return std::nullopt;
        }
        sum += *value;
    }
    return sum;
}

MaybeNumber Product(const MaybeNumber& a, const MaybeNumber& b) {
    if (!a || !b) {
        return std::nullopt;
    }
    return *a * *b;
}

MaybeNumber Difference(const MaybeNumber& a, const MaybeNumber& b) {
    if (!a || !b) {
        return std::nullopt;
    }
    return *a - *b;
}

MaybeNumber Ratio(const MaybeNumber& a, const MaybeNumber& b) {
    if (!a || !b || *b == 0.0) {
        return std::nullopt;
    }
    return *a / *b;
}

PartialSum SumOfComponents(const std::vector<NamedAmount>& components) {
    sdk::MoneySum sum;
    PartialSum out;
    for (const NamedAmount& component : components) {
        sum.Add(component.value);
        if (!component.value) {
            out.missing.push_back(boost::json::value(component.column));
        }
    }
    out.total = sum.Total();
    out.partial = sum.PartialTotal();
    return out;
}

std::vector<NamedAmount> ReceivableComponents(const std::string& published_json) {
    const boost::json::value parsed = boost::json::parse(published_json);
    if (!parsed.is_object()) {
        throw std::runtime_error("published_json is not a JSON object");
    }
    const boost::json::value* table = parsed.as_object().if_contains("I");
    const boost::json::object* fields = table ? table->if_object() : nullptr;
    const std::vector<FidcColumn>& columns = TypedColumnsOf(FidcTable::kI);
    std::vector<NamedAmount> components;
    for (std::size_t first : {tab_i::kComponentsWithRisk, tab_i::kComponentsWithoutRisk}) {
        for (std::size_t i = first; i < first + tab_i::kComponentCount; ++i) {
            NamedAmount component{columns.at(i).name, std::nullopt};
            const boost::json::value* text = fields ? fields->if_contains(component.column) : nullptr;
            if (text && text->is_string()) {
                const sdk::Parsed<double> value = sdk::ParseDecimal(sdk::TrimBlanks(text->get_string()));
                if (value.status == sdk::ValueStatus::kValue) {
                    component.value = value.value;
                }
            }
            components.push_back(std::move(component));
        }
    }
    return components;
}

std::string DelinquentBandColumn(const std::string& table, std::size_t band) {
    static constexpr std::array<const char*, kOverdueBands> kLimits = {
        "30", "60", "90", "120", "150", "180", "360", "720", "1080", "MAIOR_1080"};
    return "TAB_" + table + "_B" + std::to_string(band + 1) + "_VL_INAD_" + kLimits.at(band);
}

DelinquentBands ParseDelinquentBands(const std::optional<std::string>& bands_json) {
    DelinquentBands bands;
    if (!bands_json) {
        return bands;
    }
    const boost::json::value parsed = boost::json::parse(*bands_json);
    if (!parsed.is_object()) {
        throw std::runtime_error("bands_json is not a JSON object");
    }
    bands.with_risk = TableBands(parsed.as_object(), "V");
    bands.without_risk = TableBands(parsed.as_object(), "VI");
    return bands;
}

std::optional<std::string> SegmentName(const std::optional<std::string>& segments_json,
                                       const std::string& code) {
    if (!segments_json) {
        return std::nullopt;
    }
    const boost::json::value parsed = boost::json::parse(*segments_json);
    if (!parsed.is_array()) {
        throw std::runtime_error("segments_json is not a JSON array");
    }
    for (const boost::json::value& segment : parsed.as_array()) {
        const boost::json::object* object = segment.if_object();
        if (!object) {
            continue;
        }
        const boost::json::value* segment_code = object->if_contains("code");
        const boost::json::value* name = object->if_contains("name");
        if (segment_code && segment_code->is_string() && segment_code->get_string() == code && name &&
            name->is_string()) {
            return std::string(name->get_string());
        }
    }
    return std::nullopt;
}

}  // namespace lastro::funds
