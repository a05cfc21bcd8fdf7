// The /v1/screening handler as it was before funds schema 5 (main at 0bd4fb3,
// src/screening.cpp): every call read the month's reports joined to the registry and filtered,
// sorted and paged them in memory. Kept verbatim as the reference the precomputed ranking must
// answer byte for byte (screening_ranking_test.cpp); not built into the plugin.
#pragma once

#include "src/screening.hpp"

#include "domain/fidc/fidc_values.hpp"
#include "domain/registry/registry_rules.hpp"
#include "funds_model-odb.hxx"
#include "src/class_reports.hpp"

#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>
#include <lastro/sdk/serving/json_values.hpp>
#include <lastro/sdk/serving/pagination.hpp>
#include <lastro/sdk/uuid.hpp>

#include <boost/describe/class.hpp>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <map>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace lastro::funds::testing::reference {

using sdk::JsonOrNull;

namespace {

enum class SortField { kNav, kDelinquency, kSubordination, kPdd, kName };

// The shortest text that reads back as exactly `value` (std::to_chars).
std::string ShortestText(double value) {
    char buffer[32];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, ec == std::errc() ? end : buffer);
}

// One class's report of the screened month, with its registry fund.
struct Candidate {
    std::int64_t report_id = 0;
    std::string cnpj;
    std::string class_id;
    std::optional<std::string> class_name;
    std::string fund_id;
    std::optional<std::string> fund_name;
    std::optional<std::string> fund_type;  // canonical when the registry's spelling is known
    std::optional<std::string> manager;
    std::optional<std::string> administrator;
    std::optional<std::string> status;
    std::optional<std::string> manager_folded;
    std::optional<std::string> administrator_folded;
    std::optional<std::string> status_folded;
    MaybeNumber nav;
    std::optional<std::int64_t> investor_count;
    MaybeNumber delinquency_ratio;
    MaybeNumber pdd_ratio;
    MaybeNumber subordination_with_mezzanine_ratio;
    MaybeNumber subordination_without_mezzanine_ratio;
    std::optional<std::string> primary_segment_code;
    MaybeNumber primary_segment_ratio;
};

template <typename Row>
Candidate FromRow(const Row& row) {
    Candidate c;
    c.report_id = row.report_id;
    c.cnpj = row.cnpj;
    c.class_id = row.class_id;
    c.class_name = row.class_name;
    c.fund_id = row.fund_id;
    c.fund_name = row.fund_name;
    c.fund_type = row.fund_type ? CanonicalFidcType(*row.fund_type).value_or(*row.fund_type) : row.fund_type;
    c.manager = row.manager;
    c.administrator = row.administrator;
    c.status = row.status;
    c.manager_folded = row.manager_folded;
    c.administrator_folded = row.administrator_folded;
    c.status_folded = row.status_folded;
    c.nav = row.nav;
    c.investor_count = row.investor_count;
    c.delinquency_ratio = row.delinquency_ratio;
    c.pdd_ratio = row.pdd_ratio;
    c.subordination_with_mezzanine_ratio = row.subordination_with_mezzanine_ratio;
    c.subordination_without_mezzanine_ratio = row.subordination_without_mezzanine_ratio;
    c.primary_segment_code = row.primary_segment_code;
    c.primary_segment_ratio = row.primary_segment_ratio;
    return c;
}

// Every class of a FIDC-universe fund with a report in `month`, once, by class_id: the report
// under the class's own CNPJ, else the one under its fund's CNPJ when it is the fund's only
// class (the rule of class_reports.hpp).
std::vector<Candidate> Candidates(odb::database& db, const std::string& month) {
    std::map<std::string, Candidate> by_class;
    using OwnQuery = odb::query<ScreeningByClassCnpj>;
    odb::result<ScreeningByClassCnpj> own(db.query<ScreeningByClassCnpj>(
        OwnQuery::FidcReport::month == month && OwnQuery::Fund::fidc_universe == true));
    for (const ScreeningByClassCnpj& row : own) {
        by_class.try_emplace(row.class_id, FromRow(row));
    }

    using FundQuery = odb::query<ScreeningByFundCnpj>;
    std::vector<ScreeningByFundCnpj> through_fund;
    odb::result<ScreeningByFundCnpj> rows(db.query<ScreeningByFundCnpj>(
        FundQuery::FidcReport::month == month && FundQuery::Fund::fidc_universe == true));
    for (const ScreeningByFundCnpj& row : rows) {
        through_fund.push_back(row);
    }
    // The join yields every class of the fund: a report of a fund with one class only.
    std::map<std::pair<std::int64_t, std::string>, int> classes_of_fund;
    for (const ScreeningByFundCnpj& row : through_fund) {
        ++classes_of_fund[{row.report_id, row.fund_id}];
    }
    for (const ScreeningByFundCnpj& row : through_fund) {
        if (classes_of_fund[{row.report_id, row.fund_id}] == 1) {
            by_class.try_emplace(row.class_id, FromRow(row));  // the class's own report wins
        }
    }

    std::vector<Candidate> out;
    out.reserve(by_class.size());
    for (auto& [class_id, candidate] : by_class) {
        out.push_back(std::move(candidate));
    }
    return out;
}

struct Bounds {
    std::optional<double> min;
    std::optional<double> max;
};

Bounds ReadBounds(const sdk::Params& params, const std::string& min_name, const std::string& max_name) {
    Bounds bounds{params.Number(min_name), params.Number(max_name)};
    if (bounds.min && bounds.max && *bounds.min > *bounds.max) {
        throw sdk::BadRequest("'" + min_name + "' (" + ShortestText(*bounds.min) + ") is greater than '" +
                                  max_name + "' (" + ShortestText(*bounds.max) + ")",
                              min_name);
    }
    return bounds;
}

// A metric filter keeps rows whose value is known and inside the bounds (inclusive).
bool Within(const Bounds& bounds, const MaybeNumber& value) {
    if (!bounds.min && !bounds.max) {
        return true;
    }
    return value && (!bounds.min || *value >= *bounds.min) && (!bounds.max || *value <= *bounds.max);
}

std::optional<std::string> FoldedFilter(const std::optional<std::string>& value) {
    if (!value) {
        return std::nullopt;
    }
    std::string folded = FoldedText(*value);
    if (folded.empty()) {
        return std::nullopt;
    }
    return folded;
}

struct Filters {
    std::optional<std::string> fund_type;
    Bounds nav;
    Bounds delinquency;
    Bounds subordination;
    std::optional<std::string> segment;
    std::optional<std::string> manager;        // folded
    std::optional<std::string> administrator;  // folded
    std::optional<std::string> status;         // folded

    bool Keep(const Candidate& c) const {
        auto contains = [](const std::optional<std::string>& haystack, const std::string& needle) {
            return haystack && haystack->find(needle) != std::string::npos;
        };
        return (!fund_type || c.fund_type == fund_type) && Within(nav, c.nav) &&
               Within(delinquency, c.delinquency_ratio) &&
               Within(subordination, c.subordination_with_mezzanine_ratio) &&
               (!segment || c.primary_segment_code == segment) &&
               (!manager || contains(c.manager_folded, *manager)) &&
               (!administrator || contains(c.administrator_folded, *administrator)) &&
               (!status || c.status_folded == status);
    }
};

// The keyset: the sort value (null sorts last in both orders), then class_id ascending.
struct SortKey {
    bool present = false;
    double number = 0;
    std::string text;  // for the name sort
    std::string class_id;
};

SortKey KeyOf(const Candidate& c, SortField sort) {
    SortKey key;
    key.class_id = c.class_id;
    MaybeNumber number;
    switch (sort) {
        case SortField::kNav:
            number = c.nav;
            break;
        case SortField::kDelinquency:
            number = c.delinquency_ratio;
            break;
        case SortField::kSubordination:
            number = c.subordination_with_mezzanine_ratio;
            break;
        case SortField::kPdd:
            number = c.pdd_ratio;
            break;
        case SortField::kName:
            if (c.fund_name) {
                key.present = true;
                key.text = FoldedText(*c.fund_name);
            }
            return key;
    }
    if (number) {
        key.present = true;
        key.number = *number;
    }
    return key;
}

bool Precedes(const SortKey& a, const SortKey& b, bool descending) {
    if (a.present != b.present) {
        return a.present;
    }
    if (a.present) {
        if (a.number != b.number) {
            return descending ? a.number > b.number : a.number < b.number;
        }
        if (a.text != b.text) {
            return descending ? a.text > b.text : a.text < b.text;
        }
    }
    return a.class_id < b.class_id;
}

struct Position {
    std::string month;
    SortKey after;
};

constexpr std::string_view kIssuer = "/v1/screening";

// A position as it travels in the cursor: the screened month, the sort value of the page's last
// row (null when it has none) and its class_id. Numbers travel as their shortest round-trip
// text: a JSON number read back by the host's parser may differ in the last bit, and the keyset
// compares values exactly.
struct ScreeningAfter {
    std::string month;
    std::optional<std::string> value;
    std::string class_id;
    bool Valid() const { return sdk::Month::Parse(month) && sdk::IsUuid(class_id); }
};
BOOST_DESCRIBE_STRUCT(ScreeningAfter, (), (month, value, class_id))

std::optional<Position> PositionFrom(const std::optional<boost::json::value>& position, SortField sort) {
    std::optional<ScreeningAfter> read = sdk::ReadPosition<ScreeningAfter>(position, kIssuer);
    if (!read) {
        return std::nullopt;
    }
    Position out;
    out.month = std::move(read->month);
    out.after.class_id = std::move(read->class_id);
    if (read->value) {
        out.after.present = true;
        const std::string_view text = *read->value;
        if (sort == SortField::kName) {
            out.after.text = std::string(text);
        } else {
            auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out.after.number);
            if (ec != std::errc() || end != text.data() + text.size()) {
                sdk::RejectCursor(kIssuer);
            }
        }
    }
    return out;
}

boost::json::value PositionJson(const std::string& month, const SortKey& key, SortField sort) {
    std::optional<std::string> value;
    if (key.present) {
        value = sort == SortField::kName ? key.text : ShortestText(key.number);
    }
    return sdk::PositionValue(ScreeningAfter{month, std::move(value), key.class_id});
}

SortField SortFrom(const std::optional<std::string>& sort) {
    const std::string name = sort.value_or("nav_brl");
    if (name == "delinquency_ratio") {
        return SortField::kDelinquency;
    }
    if (name == "subordination_ratio") {
        return SortField::kSubordination;
    }
    if (name == "pdd_ratio") {
        return SortField::kPdd;
    }
    if (name == "name") {
        return SortField::kName;
    }
    if (name != "nav_brl") {
        throw sdk::InvalidParameter("sort",
                                    "sort must be one of nav_brl, delinquency_ratio, subordination_ratio, "
                                    "pdd_ratio, name");
    }
    return SortField::kNav;
}

// The month to screen: the one asked (404 when no report has it), the cursor's, or the latest.
std::string ScreenedMonth(odb::database& db, const std::optional<sdk::Month>& requested,
                          const std::optional<Position>& position) {
    using MonthQuery = odb::query<FidcReport>;
    if (requested) {
        const std::string month = requested->ToString();
        if (position && position->month != month) {
            sdk::RejectCursor(kIssuer);
        }
        if (!db.query_value<FidcLatestMonth>(MonthQuery::month == month).month) {
            throw sdk::NotFound("no FIDC monthly report was filed for " + month, "month");
        }
        return month;
    }
    if (position) {
        return position->month;  // later pages stay on the first page's month
    }
    const auto latest = db.query_value<FidcLatestMonth>(MonthQuery(true)).month;
    if (!latest) {
        throw sdk::Unavailable("no FIDC monthly report (" + std::string(kFidcReportDataset) +
                               ") has been ingested yet");
    }
    return *latest;
}

std::map<std::int64_t, std::optional<std::string>> SegmentsOf(odb::database& db,
                                                              const std::vector<const Candidate*>& page) {
    std::map<std::int64_t, std::optional<std::string>> segments;
    std::vector<std::int64_t> ids;
    for (const Candidate* c : page) {
        if (c->primary_segment_code) {
            ids.push_back(c->report_id);
        }
    }
    if (ids.empty()) {
        return segments;
    }
    using SegmentsQuery = odb::query<FidcReport>;
    odb::result<FidcReportSegments> rows(
        db.query<FidcReportSegments>(SegmentsQuery::id.in_range(ids.begin(), ids.end())));
    for (const FidcReportSegments& row : rows) {
        segments[row.report_id] = row.segments_json;
    }
    return segments;
}

boost::json::object Row(const Candidate& c, const std::string& month,
                        const std::optional<std::string>& segments) {
    return {
        {"class_id", c.class_id},
        {"fund_id", c.fund_id},
        {"cnpj", c.cnpj},
        {"class_name", JsonOrNull(c.class_name)},
        {"fund_name", JsonOrNull(c.fund_name)},
        {"fund_type", JsonOrNull(c.fund_type)},
        {"manager", JsonOrNull(c.manager)},
        {"administrator", JsonOrNull(c.administrator)},
        {"status", JsonOrNull(c.status)},
        {"month", month},
        {"nav_brl", JsonOrNull(c.nav)},
        {"investor_count", JsonOrNull(c.investor_count)},
        {"delinquency_ratio", JsonOrNull(c.delinquency_ratio)},
        {"pdd_ratio", JsonOrNull(c.pdd_ratio)},
        {"subordination_with_mezzanine_ratio", JsonOrNull(c.subordination_with_mezzanine_ratio)},
        {"subordination_without_mezzanine_ratio", JsonOrNull(c.subordination_without_mezzanine_ratio)},
        {"primary_segment_code", JsonOrNull(c.primary_segment_code)},
        {"primary_segment_name",
         JsonOrNull(c.primary_segment_code ? SegmentName(segments, *c.primary_segment_code) : std::nullopt)},
        {"primary_segment_ratio", JsonOrNull(c.primary_segment_ratio)},
    };
}

}  // namespace

static sdk::Result ReferenceScreening(const sdk::RequestContext& context) {
    const sdk::Params& params = context.params;
    Filters filters;
    filters.fund_type = params.String("fund_type");
    filters.nav = ReadBounds(params, "min_nav_brl", "max_nav_brl");
    filters.delinquency = ReadBounds(params, "min_delinquency_ratio", "max_delinquency_ratio");
    filters.subordination = ReadBounds(params, "min_subordination_ratio", "max_subordination_ratio");
    filters.segment = params.String("segment");
    filters.manager = FoldedFilter(params.String("manager"));
    filters.administrator = FoldedFilter(params.String("administrator"));
    filters.status = FoldedFilter(params.String("status"));
    const SortField sort = SortFrom(params.String("sort"));
    const bool descending = params.String("order").value_or("desc") != "asc";
    const std::size_t limit = sdk::PageLimit(params, 25);
    const std::optional<Position> position = PositionFrom(context.cursor_position, sort);
    const std::string month = ScreenedMonth(context.db, params.MonthValue("month"), position);

    std::vector<Candidate> candidates = Candidates(context.db, month);
    std::vector<std::pair<SortKey, const Candidate*>> matches;
    for (const Candidate& c : candidates) {
        if (filters.Keep(c)) {
            matches.emplace_back(KeyOf(c, sort), &c);
        }
    }
    std::sort(matches.begin(), matches.end(),
              [descending](const auto& a, const auto& b) { return Precedes(a.first, b.first, descending); });

    auto first = matches.begin();
    if (position) {
        first = std::find_if(matches.begin(), matches.end(), [&](const auto& match) {
            return Precedes(position->after, match.first, descending);
        });
    }
    const std::size_t remaining = static_cast<std::size_t>(matches.end() - first);
    const std::size_t count = std::min(limit, remaining);
    std::vector<const Candidate*> page;
    for (std::size_t i = 0; i < count; ++i) {
        page.push_back((first + static_cast<std::ptrdiff_t>(i))->second);
    }
    const auto segments = SegmentsOf(context.db, page);

    boost::json::array data;
    for (const Candidate* c : page) {
        auto it = segments.find(c->report_id);
        data.push_back(Row(*c, month, it == segments.end() ? std::nullopt : it->second));
    }

    sdk::Result result;
    result.meta = sdk::DatasetMeta(context.host, {kFidcReportDataset, kRegistryDataset});
    result.meta.as_of = month;  // the month screened
    if (remaining > count) {
        result.meta.next_position =
            PositionJson(month, (first + static_cast<std::ptrdiff_t>(count) - 1)->first, sort);
    }
    result.meta.extra["universe_filter"] = boost::json::object{
        {"fund_type",
         filters.fund_type ? boost::json::value(*filters.fund_type) : boost::json::value("FIDC")},
        {"fund_types", filters.fund_type ? boost::json::array{boost::json::value(*filters.fund_type)}
                                         : boost::json::array{"FIDC", "FIDC-NP", "FIC-FIDC"}},
    };
    result.meta.extra["month_selection"] = params.MonthValue("month") ? "requested" : "latest_month";
    result.meta.extra["match_count"] = matches.size();
    result.data = std::move(data);
    return result;
}

}  // namespace lastro::funds::testing::reference
