#include "src/portfolio_funds.hpp"

#include "funds_model-odb.hxx"
#include "ingest/registro_fundo_classe/registry_rules.hpp"
#include "src/cda_holder.hpp"
#include "src/class_reports.hpp"
#include "src/subclasses.hpp"

#include <lastro/sdk/query_rows.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>
#include <lastro/sdk/serving/json_values.hpp>
#include <lastro/sdk/serving/money.hpp>

#include <boost/json/array.hpp>
#include <boost/json/parse.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace lastro::funds {

using sdk::JsonOrNull;

namespace {

using PositionQuery = odb::query<CdaPosition>;
using ClassQuery = odb::query<FundClass>;
using FundQuery = odb::query<Fund>;
using ReportQuery = odb::query<FidcReport>;

// Two positions closer than half a cent are the same position.
constexpr double kUnchangedTolerance = 0.005;

// The BLC_2 rows of one invested CNPJ in one month, summed exactly to the cent; a sum is null
// when a row left its value empty (docs/api/fidc-metrics.md, "Sums").
struct InvestedRows {
    sdk::MoneySum market_value;
    sdk::MoneySum acquired;
    sdk::MoneySum sold;
    std::int64_t rows = 0;
    std::optional<std::string> published_name;
    std::set<std::string> held_subclasses;  // BLC_2 ID_SUBCLASSE, when published
};

std::map<std::string, InvestedRows> FundPositions(odb::database& db, const std::string& cnpj,
                                                  const std::string& month) {
    std::map<std::string, InvestedRows> by_cnpj;
    odb::result<CdaPosition> rows(db.query<CdaPosition>(
        (PositionQuery::cnpj == cnpj && PositionQuery::month == month && PositionQuery::block == "BLC_2" &&
         PositionQuery::invested_cnpj.is_not_null()) +
        "ORDER BY" + PositionQuery::ordinal));
    for (const CdaPosition& position : rows) {
        InvestedRows& sums = by_cnpj[*position.invested_cnpj];
        sums.market_value.Add(position.market_value);
        sums.acquired.Add(position.value_acquired);
        sums.sold.Add(position.value_sold);
        ++sums.rows;
        if (!sums.published_name) {
            sums.published_name = position.invested_name;
        }
        if (position.invested_subclass && !position.invested_subclass->empty()) {
            sums.held_subclasses.insert(*position.invested_subclass);
        }
    }
    return by_cnpj;
}

// What an invested CNPJ is in the registry.
struct InvestedIdentity {
    std::string status;                   // unique_class, fund_with_multiple_classes, ...
    std::optional<Fund> fund;             // when exactly one fund is involved
    std::optional<FundClass> fund_class;  // when exactly one class is
    std::vector<std::string> class_ids;   // every candidate class
};

// nullopt when the CNPJ is neither a fund nor a class of the registry. A class is a candidate
// when the CNPJ is its own, or its fund's and it is that fund's only class (the same rule as
// the filings of a class, src/class_reports.hpp); an answer involving several funds or
// several candidate classes is "ambiguous" and picks none.
std::optional<InvestedIdentity> IdentifyInvested(odb::database& db, const std::string& cnpj) {
    std::vector<FundClass> candidates = sdk::LoadAll(
        db, ClassQuery(ClassQuery(ClassQuery::cnpj == cnpj) + "ORDER BY" + ClassQuery::registry_id));
    const std::vector<Fund> funds =
        sdk::LoadAll(db, FundQuery(FundQuery(FundQuery::cnpj == cnpj) + "ORDER BY" + FundQuery::fund_id));
    if (candidates.empty() && funds.empty()) {
        return std::nullopt;
    }
    std::set<std::string> fund_ids;
    for (const FundClass& fund_class : candidates) {
        fund_ids.insert(fund_class.fund_id);
    }
    std::map<std::string, std::vector<FundClass>> classes_of_fund;
    for (const Fund& fund : funds) {
        fund_ids.insert(fund.fund_id);
        auto& classes = classes_of_fund[fund.fund_id];
        classes = sdk::LoadAll(db, ClassQuery(ClassQuery(ClassQuery::fund_id == fund.fund_id) + "ORDER BY" +
                                              ClassQuery::registry_id));
        const bool listed =
            classes.size() == 1 && std::any_of(candidates.begin(), candidates.end(), [&](const FundClass& c) {
                return c.class_id == classes.front().class_id;
            });
        if (classes.size() == 1 && !listed) {
            candidates.push_back(classes.front());
        }
    }

    InvestedIdentity identity;
    for (const FundClass& fund_class : candidates) {
        identity.class_ids.push_back(fund_class.class_id);
    }
    if (fund_ids.size() == 1) {
        Fund fund;
        if (db.find<Fund>(*fund_ids.begin(), fund)) {
            identity.fund = std::move(fund);
        }
    }
    if (fund_ids.size() == 1 && candidates.size() == 1) {
        identity.status = "unique_class";
        identity.fund_class = candidates.front();
    } else if (fund_ids.size() == 1 && candidates.empty()) {
        // The CNPJ is only a fund's, and that fund has no class or several.
        const auto& classes = classes_of_fund[*fund_ids.begin()];
        identity.status = classes.empty() ? "fund_without_classes" : "fund_with_multiple_classes";
        for (const FundClass& fund_class : classes) {
            identity.class_ids.push_back(fund_class.class_id);
        }
    } else {
        identity.status = "ambiguous";
    }
    return identity;
}

// A value of the invested class's reports and the month it comes from.
struct Sourced {
    std::optional<double> value;
    std::optional<std::string> as_of;
};

struct InvestedFacts {
    Sourced subordination;
    Sourced delinquency;
    Sourced pdd;
    Sourced nav;
    bool segments_found = false;
    std::optional<std::string> segment_as_of;
    std::optional<std::string> primary_segment_code;
    std::optional<std::string> primary_segment_name;
    std::optional<double> primary_segment_ratio;
    boost::json::array segments;
};

void Take(Sourced& sourced, const std::optional<double>& value, const std::string& month) {
    if (!sourced.as_of && value) {
        sourced = {value, month};
    }
}

void TakeSegments(InvestedFacts& facts, const FidcInvestedFacts& report) {
    if (facts.segments_found || !report.segments_json) {
        return;
    }
    facts.segments_found = true;
    facts.segment_as_of = report.month;
    facts.primary_segment_code = report.primary_segment_code;
    facts.primary_segment_ratio = report.primary_segment_ratio;
    boost::system::error_code error;
    const boost::json::value parsed = boost::json::parse(*report.segments_json, error);
    if (error || !parsed.is_array()) {
        throw std::runtime_error("FIDC report " + std::to_string(report.report_id) +
                                 " has malformed segments_json");
    }
    const bool has_total = report.segments_total && *report.segments_total > 0;
    for (const boost::json::value& item : parsed.as_array()) {
        const boost::json::object* segment = item.if_object();
        if (!segment) {
            continue;
        }
        const boost::json::value* code = segment->if_contains("code");
        const boost::json::value* name = segment->if_contains("name");
        const boost::json::value* value = segment->if_contains("value");
        const std::optional<std::string> code_text =
            code && code->is_string() ? std::optional<std::string>(code->get_string()) : std::nullopt;
        const std::optional<std::string> name_text =
            name && name->is_string() ? std::optional<std::string>(name->get_string()) : std::nullopt;
        if (code_text && code_text == report.primary_segment_code) {
            facts.primary_segment_name = name_text;
        }
        if (!value || !value->is_number() || value->to_number<double>() <= 0) {
            continue;
        }
        facts.segments.push_back(boost::json::object{
            {"code", JsonOrNull(code_text)},
            {"name", JsonOrNull(name_text)},
            {"ratio", has_total ? boost::json::value(value->to_number<double>() / *report.segments_total)
                                : boost::json::value(nullptr)},
        });
    }
}

bool AllFound(const InvestedFacts& facts) {
    return facts.subordination.as_of && facts.delinquency.as_of && facts.pdd.as_of && facts.nav.as_of &&
           facts.segments_found;
}

void TakeReport(InvestedFacts& facts, const FidcInvestedFacts& report) {
    Take(facts.subordination, report.subordination_with_mezzanine_ratio, report.month);
    Take(facts.delinquency, report.delinquency_ratio, report.month);
    Take(facts.pdd, report.pdd_ratio, report.month);
    Take(facts.nav, report.nav, report.month);
    TakeSegments(facts, report);
}

std::size_t Preference(const ClassRef& ref, const std::string& cnpj) {
    return static_cast<std::size_t>(std::find(ref.filing_cnpjs.begin(), ref.filing_cnpjs.end(), cnpj) -
                                    ref.filing_cnpjs.begin());
}

// Each metric from the latest of the class's reports up to `month` that publishes it: the
// asked month first, then earlier months, never a later one.
InvestedFacts LatestFacts(odb::database& db, const ClassRef& ref, const sdk::Month& month) {
    InvestedFacts facts;
    if (ref.filing_cnpjs.empty()) {
        return facts;
    }
    odb::result<FidcInvestedFacts> rows(db.query<FidcInvestedFacts>(
        (ReportQuery::cnpj.in_range(ref.filing_cnpjs.begin(), ref.filing_cnpjs.end()) &&
         ReportQuery::month <= month.ToString()) +
        "ORDER BY" + ReportQuery::month + "DESC"));
    // Rows of one month are adjacent; of two CNPJs' reports of a month, the preferred one counts.
    std::optional<FidcInvestedFacts> best;
    for (const FidcInvestedFacts& report : rows) {
        if (best && best->month != report.month) {
            TakeReport(facts, *best);
            best.reset();
            if (AllFound(facts)) {
                return facts;
            }
        }
        if (!best || Preference(ref, report.cnpj) < Preference(ref, best->cnpj)) {
            best = report;
        }
    }
    if (best) {
        TakeReport(facts, *best);
    }
    return facts;
}

// Seniority, most senior first; 0 for a series whose rank the label does not tell.
int SeniorityRank(std::string_view seniority) {
    return seniority == "senior" ? 3 : seniority == "mezzanine" ? 2 : seniority == "subordinated" ? 1 : 0;
}

// The subclass a holder owns, as the CDA names it (BLC_2 ID_SUBCLASSE), found among the series
// of the invested class's report (X_1 ID_SUBCLASSE), and the protection beneath it: the NAV of
// the series junior to it over every series' NAV (docs/api/portfolio.md, "The subclass held").
struct HeldSubclass {
    std::optional<std::string> seniority;  // senior, mezzanine, subordinated, unknown or mixed
    std::optional<double> protection_ratio;
    std::optional<std::string> as_of;
};

std::optional<double> ProtectionBeneath(const std::vector<FidcSeries>& series, int held_rank) {
    double junior = 0, total = 0;
    for (const FidcSeries& one : series) {
        const int rank = SeniorityRank(one.seniority);
        if (rank == 0 || !one.quota_count || !one.quota_value) {
            return std::nullopt;  // a series of unknown rank or NAV: the share beneath is unknown
        }
        const double nav = *one.quota_count * *one.quota_value;
        total += nav;
        if (rank < held_rank) {
            junior += nav;
        }
    }
    if (total == 0) {
        return std::nullopt;
    }
    return junior / total;
}

// From the latest report up to `month` whose X_1 names one of the held subclasses (of two
// CNPJs' reports of that month, the preferred one); nothing when the CDA names none.
HeldSubclass FindHeldSubclass(odb::database& db, const ClassRef& ref, const sdk::Month& month,
                              const std::set<std::string>& held) {
    using SeriesQuery = odb::query<FidcSeries>;
    HeldSubclass found;
    if (held.empty() || ref.filing_cnpjs.empty()) {
        return found;
    }
    const std::vector<FidcSeries> naming = sdk::LoadAll(
        db, SeriesQuery(
                SeriesQuery(SeriesQuery::cnpj.in_range(ref.filing_cnpjs.begin(), ref.filing_cnpjs.end()) &&
                            SeriesQuery::month <= month.ToString() &&
                            SeriesQuery::subclass_code.in_range(held.begin(), held.end())) +
                "ORDER BY" + SeriesQuery::month + "DESC"));
    const FidcSeries* best = nullptr;
    for (const FidcSeries& one : naming) {
        if (best && best->month != one.month) {
            break;
        }
        if (!best || Preference(ref, one.cnpj) < Preference(ref, best->cnpj)) {
            best = &one;
        }
    }
    if (!best) {
        return found;
    }
    found.as_of = best->month;
    const std::vector<FidcSeries> series = sdk::LoadAll(
        db,
        SeriesQuery(SeriesQuery(SeriesQuery::report_id == best->report_id) + "ORDER BY" + SeriesQuery::id));
    std::set<std::string> seniorities;
    std::set<std::string> named;
    for (const FidcSeries& one : series) {
        if (one.subclass_code && held.contains(*one.subclass_code)) {
            seniorities.insert(one.seniority);
            named.insert(*one.subclass_code);
        }
    }
    if (named.size() != held.size()) {
        return found;  // a held subclass this report does not name: its rank is unknown
    }
    if (seniorities.size() > 1) {
        found.seniority = "mixed";
        return found;
    }
    found.seniority = *seniorities.begin();
    if (const int rank = SeniorityRank(*found.seniority); rank > 0) {
        found.protection_ratio = ProtectionBeneath(series, rank);
    }
    return found;
}

// The ANBIMA type of the class (its subclasses' first published type), else the registry's
// ANBIMA classification.
std::optional<std::string> AnbimaType(odb::database& db, const ClassRef& ref) {
    for (const AnbimaSubclass& subclass : AnbimaSubclassesOf(db, ref)) {
        if (subclass.type) {
            return subclass.type;
        }
    }
    return ref.fund_class.anbima_classification;
}

std::optional<double> PercentOf(const std::optional<double>& part, const std::optional<double>& whole) {
    if (!part || !whole || *whole == 0) {
        return std::nullopt;
    }
    return *part / *whole * 100.0;
}

struct Row {
    std::optional<double> position;
    std::string invested_cnpj;
    boost::json::object item;
};

}  // namespace

sdk::Result HandleClassPortfolioFunds(const sdk::RequestContext& context) {
    odb::database& db = context.db;
    const sdk::Month month = RequiredMonth(context.params);
    const ClassRef ref = FindClass(db, context.params.String("class_id").value_or(""));
    const CdaHolder holder = RequireCdaHolder(db, ref, month);
    const std::map<std::string, InvestedRows> current = FundPositions(db, holder.cnpj, holder.month);

    // The same holder's previous calendar month; without its CDA nothing is compared.
    const sdk::Month previous_month = month.Previous();
    const std::optional<CdaHolder> previous_holder = FindCdaHolder(db, holder.cnpj, previous_month);
    std::map<std::string, InvestedRows> previous;
    if (previous_holder) {
        previous = FundPositions(db, holder.cnpj, previous_holder->month);
    }

    std::vector<Row> rows;
    std::int64_t outside_positions = 0;
    sdk::MoneySum outside_value;
    for (const auto& [cnpj, sums] : current) {
        const std::optional<InvestedIdentity> identity = IdentifyInvested(db, cnpj);
        const std::optional<double> position = sums.market_value.Total();
        if (!identity) {
            outside_positions += sums.rows;
            outside_value.Add(position);
            continue;
        }
        const std::optional<Fund>& fund = identity->fund;
        const std::optional<FundClass>& fund_class = identity->fund_class;

        InvestedFacts facts;
        HeldSubclass held;
        std::optional<std::string> anbima_type;
        if (fund_class) {
            const ClassRef invested = FindClass(db, fund_class->class_id);
            facts = LatestFacts(db, invested, month);
            held = FindHeldSubclass(db, invested, month, sums.held_subclasses);
            anbima_type = AnbimaType(db, invested);
        }
        boost::json::array held_subclass_ids;
        for (const std::string& id : sums.held_subclasses) {
            held_subclass_ids.push_back(boost::json::value(id));
        }

        std::optional<double> previous_position;
        std::optional<std::string> movement;
        if (previous_holder) {
            if (auto it = previous.find(cnpj); it == previous.end()) {
                movement = "new";
            } else {
                previous_position = it->second.market_value.Total();
            }
        }
        const std::optional<double> variation = sdk::MoneyDifference(position, previous_position);
        if (variation) {
            movement = std::abs(*variation) < kUnchangedTolerance ? "unchanged"
                       : *variation > 0                           ? "increased"
                                                                  : "decreased";
        }

        std::optional<std::string> name = fund_class ? fund_class->name : std::nullopt;
        if (!name && fund) {
            name = fund->name;
        }
        boost::json::array class_ids;
        for (const std::string& id : identity->class_ids) {
            class_ids.push_back(boost::json::value(id));
        }
        boost::json::object item{
            {"month", month.ToString()},
            {"invested_cnpj", cnpj},
            {"invested_fund_id", fund ? boost::json::value(fund->fund_id) : nullptr},
            {"invested_class_id", fund_class ? boost::json::value(fund_class->class_id) : nullptr},
            {"invested_class_ids", std::move(class_ids)},
            {"identity_status", identity->status},
            {"invested_name", JsonOrNull(name)},
            {"published_name", JsonOrNull(sums.published_name)},
            {"manager", fund ? JsonOrNull(fund->manager) : nullptr},
            {"administrator", fund ? JsonOrNull(fund->administrator) : nullptr},
            {"status", fund_class ? JsonOrNull(fund_class->status)
                       : fund     ? JsonOrNull(fund->status)
                                  : nullptr},
            {"position_count", sums.rows},
            {"position_brl", JsonOrNull(position)},
            {"previous_position_brl", JsonOrNull(previous_position)},
            {"position_variation_brl", JsonOrNull(variation)},
            {"position_variation_pct", JsonOrNull(PercentOf(variation, previous_position))},
            {"position_share_of_investor_nav_pct", JsonOrNull(PercentOf(position, holder.nav))},
            {"investor_nav_brl", JsonOrNull(holder.nav)},
            {"invested_nav_brl", JsonOrNull(facts.nav.value)},
            {"invested_nav_as_of", JsonOrNull(facts.nav.as_of)},
            {"acquisitions_brl", JsonOrNull(sums.acquired.Total())},
            {"sales_brl", JsonOrNull(sums.sold.Total())},
            {"movement", JsonOrNull(movement)},
            {"subordination_ratio", JsonOrNull(facts.subordination.value)},
            {"held_subclass_ids", std::move(held_subclass_ids)},
            {"held_seniority", JsonOrNull(held.seniority)},
            {"held_protection_ratio", JsonOrNull(held.protection_ratio)},
            {"held_as_of", JsonOrNull(held.as_of)},
            {"delinquency_ratio", JsonOrNull(facts.delinquency.value)},
            {"pdd_ratio", JsonOrNull(facts.pdd.value)},
            {"subordination_as_of", JsonOrNull(facts.subordination.as_of)},
            {"delinquency_as_of", JsonOrNull(facts.delinquency.as_of)},
            {"pdd_as_of", JsonOrNull(facts.pdd.as_of)},
            {"segment_as_of", JsonOrNull(facts.segment_as_of)},
            {"primary_segment_code", JsonOrNull(facts.primary_segment_code)},
            {"primary_segment_name", JsonOrNull(facts.primary_segment_name)},
            {"primary_segment_ratio", JsonOrNull(facts.primary_segment_ratio)},
            {"segments", std::move(facts.segments)},
            {"anbima_type", JsonOrNull(anbima_type)},
        };
        rows.push_back({position, cnpj, std::move(item)});
    }
    // Largest position first; unknown positions last.
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        if (a.position != b.position) {
            return a.position.has_value() && (!b.position || *a.position > *b.position);
        }
        return a.invested_cnpj < b.invested_cnpj;
    });

    boost::json::array data;
    for (Row& row : rows) {
        data.push_back(std::move(row.item));
    }
    sdk::Result result;
    result.meta =
        sdk::DatasetMeta(context.host, {kCdaDataset, kRegistryDataset, kFidcReportDataset, kAnbimaDataset});
    result.meta.as_of = month.ToString();  // the reference period: the portfolio's month (contract 2.2)
    result.meta.extra["month"] = month.ToString();
    result.meta.extra["previous_month"] = previous_month.ToString();
    result.meta.extra["previous_month_filed"] = previous_holder.has_value();
    result.meta.extra["holder_cnpj"] = holder.cnpj;
    result.meta.extra["outside_positions"] = outside_positions;
    result.meta.extra["outside_position_brl"] = JsonOrNull(outside_value.Total());
    result.data = std::move(data);
    return result;
}

}  // namespace lastro::funds
