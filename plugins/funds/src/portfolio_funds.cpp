#include "src/portfolio_funds.hpp"

#include "domain/registry/registry_rules.hpp"
#include "funds_model-odb.hxx"
#include "src/cda_holder.hpp"
#include "src/class_reports.hpp"
#include "src/portfolio_fund_answers.hpp"

#include <lastro/sdk/cached_query.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/query_params.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>
#include <lastro/sdk/serving/json_text.hpp>
#include <lastro/sdk/serving/json_values.hpp>
#include <lastro/sdk/serving/money.hpp>

#include <boost/json/monotonic_resource.hpp>
#include <boost/json/parse.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <set>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace lastro::funds {

using sdk::JsonOrNull;

namespace {

using ClassQuery = odb::query<FundClass>;
using FundQuery = odb::query<Fund>;
using ClassRow = InvestedClassRow;
using FundRow = InvestedFundRow;
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

// The holder's BLC_2 rows naming an invested CNPJ, of `month` and of `previous` when given
// (the previous month's filing), summed by invested CNPJ: one statement for both months.
struct HolderMonths {
    std::string cnpj;
    std::string month;
    std::string previous;  // == month when there is no previous filing: one month is read
};

struct FundPositionsOfMonths {
    std::map<std::string, InvestedRows> current;
    std::map<std::string, InvestedRows> previous;
};

FundPositionsOfMonths FundPositions(odb::database& db, const std::string& cnpj, const std::string& month,
                                    const std::optional<std::string>& previous) {
    using Query = odb::query<HolderFundPosition>;
    FundPositionsOfMonths positions;
    auto rows = sdk::CachedQuery<HolderFundPosition, HolderMonths>(
        db, "funds.holder_fund_positions", [](const HolderMonths& p) {
            return Query((Query::cnpj == Query::_ref(p.cnpj) &&
                          (Query::month == Query::_ref(p.previous) || Query::month == Query::_ref(p.month)) &&
                          Query::block == "BLC_2" && Query::invested_cnpj.is_not_null()) +
                         "ORDER BY" + Query::month + "," + Query::ordinal);
        });
    rows.params = {cnpj, month, previous.value_or(month)};
    for (const HolderFundPosition& position : rows.Execute()) {
        InvestedRows& sums =
            (position.month == month ? positions.current : positions.previous)[position.invested_cnpj];
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
    return positions;
}

// Every lookup below asks once per kind for all the invested CNPJs of the portfolio (a few
// `IN (...)` statements, at most kBatch keys each) and joins in memory, where the handler asked
// about eleven statements per invested fund (docs/performance.md, "carteira/fundos batched").
// The keys are parameters (sdk::KeyList): each statement is prepared once per connection and
// list size.
constexpr std::size_t kBatch = 256;

// Calls visit(begin, end) for successive slices of at most kBatch keys.
template <typename Keys, typename Visit>
void InBatches(const Keys& keys, Visit visit) {
    for (std::size_t first = 0; first < keys.size(); first += kBatch) {
        visit(keys.begin() + static_cast<std::ptrdiff_t>(first),
              keys.begin() + static_cast<std::ptrdiff_t>(std::min(keys.size(), first + kBatch)));
    }
}

// The registry rows the identities of a set of invested CNPJs are made of.
struct RegistryRows {
    std::map<std::string, std::vector<ClassRow>> classes_by_cnpj;  // by registry_id
    std::map<std::string, std::vector<FundRow>> funds_by_cnpj;     // by fund_id
    std::map<std::string, std::vector<ClassRow>> classes_by_fund;  // by registry_id
    std::map<std::string, FundRow> funds_by_id;
};

// Two statements a slice of at most kBatch invested CNPJs (sdk::KeyList, each statement prepared
// once per connection and list size). The funds an invested CNPJ involves are its own and the
// funds of the classes it is: their classes hold every class whose CNPJ is invested, and they
// hold every fund whose CNPJ is, so each statement reads the rows of two lookups and `invested`
// sorts them out. Rows are kept by id, so a fund two slices involve counts once.
RegistryRows LoadRegistryRows(odb::database& db, const std::map<std::string, InvestedRows>& invested) {
    using Cnpjs = sdk::KeyList<std::string, kBatch>;
    const auto involved_funds = [](const Cnpjs& p, std::size_t terms) {
        return "(SELECT \"fund_id\" FROM \"funds_fund\" WHERE" + sdk::InKeys(FundQuery::cnpj, p, terms) +
               "UNION ALL SELECT \"fund_id\" FROM \"funds_class\" WHERE" +
               sdk::InKeys(ClassQuery::cnpj, p, terms) + ")";
    };
    std::vector<std::string> cnpjs;
    for (const auto& [cnpj, unused] : invested) {
        cnpjs.push_back(cnpj);
    }
    std::map<std::int64_t, ClassRow> classes;  // by registry_id, the registry's order
    std::map<std::string, FundRow> funds;      // by fund_id
    InBatches(cnpjs, [&](auto begin, auto end) {
        const std::size_t terms = sdk::KeyListTerms(static_cast<std::size_t>(end - begin));
        auto class_rows = sdk::CachedQuery<ClassRow, Cnpjs>(
            db, sdk::KeyListName("funds.invested_classes", terms), [&](const Cnpjs& p) {
                return odb::query<ClassRow>(
                    ClassQuery(ClassQuery::fund_id + "IN" + involved_funds(p, terms)));
            });
        class_rows.params.Assign(begin, end, terms);
        for (const ClassRow& fund_class : class_rows.Execute()) {
            classes.emplace(fund_class.registry_id, fund_class);
        }
        auto fund_rows = sdk::CachedQuery<FundRow, Cnpjs>(
            db, sdk::KeyListName("funds.invested_funds", terms), [&](const Cnpjs& p) {
                return odb::query<FundRow>(FundQuery(FundQuery::fund_id + "IN" + involved_funds(p, terms)));
            });
        fund_rows.params.Assign(begin, end, terms);
        for (const FundRow& fund : fund_rows.Execute()) {
            funds.emplace(fund.fund_id, fund);
        }
    });
    RegistryRows rows;
    for (const auto& [registry_id, fund_class] : classes) {
        if (fund_class.cnpj && invested.contains(*fund_class.cnpj)) {
            rows.classes_by_cnpj[*fund_class.cnpj].push_back(fund_class);
        }
        rows.classes_by_fund[fund_class.fund_id].push_back(fund_class);
    }
    for (const auto& [fund_id, fund] : funds) {
        if (invested.contains(fund.cnpj)) {
            rows.funds_by_cnpj[fund.cnpj].push_back(fund);
        }
        rows.funds_by_id.emplace(fund_id, fund);
    }
    return rows;
}

template <typename Value>
const std::vector<Value>& RowsOf(const std::map<std::string, std::vector<Value>>& map,
                                 const std::string& key) {
    static const std::vector<Value> kNone;
    auto it = map.find(key);
    return it == map.end() ? kNone : it->second;
}

// What an invested CNPJ is in the registry.
struct InvestedIdentity {
    std::string status;                  // unique_class, fund_with_multiple_classes, ...
    std::optional<FundRow> fund;         // when exactly one fund is involved
    std::optional<ClassRow> fund_class;  // when exactly one class is
    std::vector<std::string> class_ids;  // every candidate class
};

// nullopt when the CNPJ is neither a fund nor a class of the registry. A class is a candidate
// when the CNPJ is its own, or its fund's and it is that fund's only class (the same rule as
// the filings of a class, src/class_reports.hpp); an answer involving several funds or
// several candidate classes is "ambiguous" and picks none.
std::optional<InvestedIdentity> IdentifyInvested(const RegistryRows& registry, const std::string& cnpj) {
    std::vector<ClassRow> candidates = RowsOf(registry.classes_by_cnpj, cnpj);
    const std::vector<FundRow>& funds = RowsOf(registry.funds_by_cnpj, cnpj);
    if (candidates.empty() && funds.empty()) {
        return std::nullopt;
    }
    std::set<std::string> fund_ids;
    for (const ClassRow& fund_class : candidates) {
        fund_ids.insert(fund_class.fund_id);
    }
    for (const FundRow& fund : funds) {
        fund_ids.insert(fund.fund_id);
        const std::vector<ClassRow>& classes = RowsOf(registry.classes_by_fund, fund.fund_id);
        const bool listed =
            classes.size() == 1 && std::any_of(candidates.begin(), candidates.end(), [&](const ClassRow& c) {
                return c.class_id == classes.front().class_id;
            });
        if (classes.size() == 1 && !listed) {
            candidates.push_back(classes.front());
        }
    }

    InvestedIdentity identity;
    for (const ClassRow& fund_class : candidates) {
        identity.class_ids.push_back(fund_class.class_id);
    }
    if (fund_ids.size() == 1) {
        if (auto it = registry.funds_by_id.find(*fund_ids.begin()); it != registry.funds_by_id.end()) {
            identity.fund = it->second;
        }
    }
    if (fund_ids.size() == 1 && candidates.size() == 1) {
        identity.status = "unique_class";
        identity.fund_class = candidates.front();
    } else if (fund_ids.size() == 1 && candidates.empty()) {
        // The CNPJ is only a fund's, and that fund has no class or several.
        const std::vector<ClassRow>& classes = RowsOf(registry.classes_by_fund, *fund_ids.begin());
        identity.status = classes.empty() ? "fund_without_classes" : "fund_with_multiple_classes";
        for (const ClassRow& fund_class : classes) {
            identity.class_ids.push_back(fund_class.class_id);
        }
    } else {
        identity.status = "ambiguous";
    }
    return identity;
}

// What the walks below need of an invested class: the CNPJs its filings are under, preferred
// first (the rule of FindClass, src/class_reports.hpp), and the registry's ANBIMA classification.
struct InvestedClass {
    std::vector<std::string> filing_cnpjs;
    std::optional<std::string> anbima_classification;
};

InvestedClass InvestedClassOf(const RegistryRows& registry, const ClassRow& fund_class) {
    auto fund = registry.funds_by_id.find(fund_class.fund_id);
    if (fund == registry.funds_by_id.end()) {
        throw sdk::NotFound("the fund of class " + fund_class.class_id + " is not in the registry",
                            "class_id");
    }
    const bool only_class = RowsOf(registry.classes_by_fund, fund_class.fund_id).size() == 1;
    return {FilingCnpjs(fund_class.cnpj, fund->second.cnpj, only_class), fund_class.anbima_classification};
}

// A value of the invested class's reports and the month it comes from.
struct Sourced {
    std::optional<double> value;
    std::optional<std::string> as_of;
};

// One of table II's segments with a positive value, and its share of the table's total.
struct Segment {
    std::optional<std::string> code;
    std::optional<std::string> name;
    std::optional<double> ratio;
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
    std::vector<Segment> segments;
    // The report the segments come from, read after the walk (ReadSegments).
    std::optional<std::int64_t> segments_report_id;
    std::optional<double> segments_total;
};

void Take(Sourced& sourced, const std::optional<double>& value, const std::string& month) {
    if (!sourced.as_of && value) {
        sourced = {value, month};
    }
}

// The month's report publishes table II (positive_segment_count is set with segments_json): the
// segments come from it, read by ReadSegments once every walk is done.
void TakeSegments(InvestedFacts& facts, const FidcInvestedFacts& report) {
    if (facts.segments_found || !report.positive_segment_count) {
        return;
    }
    facts.segments_found = true;
    facts.segment_as_of = report.month;
    facts.primary_segment_code = report.primary_segment_code;
    facts.primary_segment_ratio = report.primary_segment_ratio;
    facts.segments_report_id = report.report_id;
    facts.segments_total = report.segments_total;
}

// Table II's positive segments of each report the walks took them from
// (domain/rows/positive_segments.hpp).
void FillSegments(InvestedFacts& facts, const FidcPositiveSegments& stored) {
    boost::system::error_code error;
    // Parsed into a buffer on the stack: the value lives only here, and a few segments are a few
    // hundred bytes.
    unsigned char buffer[4096];
    boost::json::monotonic_resource resource(buffer, sizeof buffer);
    const boost::json::value parsed = boost::json::parse(stored.segments_json, error, &resource);
    if (error || !parsed.is_array()) {
        throw std::runtime_error("FIDC report " + std::to_string(stored.report_id) +
                                 " has stored positive segments that are not a JSON array");
    }
    const bool has_total = facts.segments_total && *facts.segments_total > 0;
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
        if (code_text && code_text == facts.primary_segment_code) {
            facts.primary_segment_name = name_text;
        }
        if (!value || !value->is_number() || value->to_number<double>() <= 0) {
            continue;
        }
        facts.segments.push_back(
            {code_text, name_text,
             has_total ? std::optional<double>(value->to_number<double>() / *facts.segments_total)
                       : std::nullopt});
    }
}

void ReadSegments(odb::database& db, std::vector<InvestedFacts>& facts) {
    using SegmentsQuery = odb::query<FidcPositiveSegments>;
    std::map<std::int64_t, std::vector<InvestedFacts*>> by_report;
    for (InvestedFacts& one : facts) {
        if (one.segments_report_id) {
            by_report[*one.segments_report_id].push_back(&one);
        }
    }
    std::vector<std::int64_t> ids;
    for (const auto& [id, unused] : by_report) {
        ids.push_back(id);
    }
    InBatches(ids, [&](auto begin, auto end) {
        const std::size_t terms = sdk::KeyListTerms(static_cast<std::size_t>(end - begin));
        using Ids = sdk::KeyList<std::int64_t, kBatch>;
        auto rows = sdk::CachedQuery<FidcPositiveSegments, Ids>(
            db, sdk::KeyListName("funds.invested_segments", terms),
            [terms](const Ids& p) { return SegmentsQuery(sdk::InKeys(SegmentsQuery::report_id, p, terms)); });
        rows.params.Assign(begin, end, terms);
        for (const FidcPositiveSegments& row : rows.Execute()) {
            for (InvestedFacts* one : by_report[row.report_id]) {
                FillSegments(*one, row);
            }
            by_report.erase(row.report_id);
        }
    });
    if (!by_report.empty()) {
        // On PostgreSQL each statement reads the newest data: an ingest replaced the month.
        throw sdk::Unavailable(
            "an invested class's reports were replaced while this answer was read; try again");
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

std::size_t Preference(const InvestedClass& ref, const std::string& cnpj) {
    return static_cast<std::size_t>(std::find(ref.filing_cnpjs.begin(), ref.filing_cnpjs.end(), cnpj) -
                                    ref.filing_cnpjs.begin());
}

// The walk over one invested class's reports, newest month first: each metric from the latest
// of the class's reports up to the asked month that publishes it, never a later one. Reports
// of one month are fed together; of two CNPJs' reports of a month, the preferred one counts.
struct FactsWalk {
    const InvestedClass* ref = nullptr;
    InvestedFacts facts;
    std::optional<FidcInvestedFacts> best;
    bool done = false;

    void Feed(const FidcInvestedFacts& report) {
        if (done) {
            return;
        }
        if (best && best->month != report.month) {
            EndMonth();
            if (done) {
                return;
            }
        }
        if (!best || Preference(*ref, report.cnpj) < Preference(*ref, best->cnpj)) {
            best = report;
        }
    }

    // Every report of the month being fed has been: it counts.
    void EndMonth() {
        if (best) {
            TakeReport(facts, *best);
            best.reset();
        }
        done = done || AllFound(facts);
    }
};

// Which reports of a slice's filing CNPJs FeedReports reads: months from .. to, and either every
// report (`every`) or those that publish a figure some walk of the slice has not found yet (each
// flag 1 when a walk misses that figure). Parameters, so that the statement's text is fixed.
struct ReportsOfSlice {
    sdk::KeyList<std::string, 2 * kBatch> cnpjs;  // a class files under one or two CNPJs
    std::string from;
    std::string to;
    std::int64_t every = 1;
    std::int64_t subordination = 0;
    std::int64_t delinquency = 0;
    std::int64_t pdd = 0;
    std::int64_t nav = 0;
    std::int64_t segments = 0;
};

// The flags of the figures some walk of [begin, end) has not found yet.
template <typename Walks>
void SetMissing(ReportsOfSlice& p, Walks begin, Walks end) {
    p.subordination = p.delinquency = p.pdd = p.nav = p.segments = 0;
    for (auto it = begin; it != end; ++it) {
        const InvestedFacts& facts = (*it)->facts;
        p.subordination |= facts.subordination.as_of ? 0 : 1;
        p.delinquency |= facts.delinquency.as_of ? 0 : 1;
        p.pdd |= facts.pdd.as_of ? 0 : 1;
        p.nav |= facts.nav.as_of ? 0 : 1;
        p.segments |= facts.segments_found ? 0 : 1;
    }
}

ReportQuery ReportsOfSliceQuery(const ReportsOfSlice& p, std::size_t terms) {
    // "(flag <> 0 AND column IS NOT NULL)": the report publishes a figure that is missing.
    const auto publishes = [](const std::int64_t& missing, const auto& column) {
        return "(" + sdk::Bound(ReportQuery::id, missing) + "<> 0 AND" + column + "IS NOT NULL)";
    };
    return (sdk::InKeys(ReportQuery::cnpj, p.cnpjs, terms) &&
            ReportQuery::month >= ReportQuery::_ref(p.from) &&
            ReportQuery::month <= ReportQuery::_ref(p.to) &&
            ReportQuery("(" + sdk::Bound(ReportQuery::id, p.every) + "<> 0 OR" +
                        publishes(p.subordination, ReportQuery::subordination_with_mezzanine_ratio) + "OR" +
                        publishes(p.delinquency, ReportQuery::delinquency_ratio) + "OR" +
                        publishes(p.pdd, ReportQuery::pdd_ratio) + "OR" + publishes(p.nav, ReportQuery::nav) +
                        "OR" + publishes(p.segments, ReportQuery::positive_segment_count) + ")")) +
           "ORDER BY" + ReportQuery::month + "DESC";
}

// Feeds every walk the reports of its filing CNPJs that `choose(params, begin, end)` picks for
// the slice [begin, end), newest first, in slices of at most kBatch walks (a slice's CNPJs in one
// statement); each walk ends its last month. Reading a slice stops once every walk of it is done.
template <typename Choose>
void FeedReports(odb::database& db, std::vector<FactsWalk*>& walks, Choose choose) {
    InBatches(walks, [&](auto begin, auto end) {
        std::map<std::string, std::vector<FactsWalk*>> by_cnpj;
        std::size_t open = 0;
        for (auto it = begin; it != end; ++it) {
            for (const std::string& cnpj : (*it)->ref->filing_cnpjs) {
                by_cnpj[cnpj].push_back(*it);
            }
            open += (*it)->done ? 0 : 1;
        }
        std::vector<std::string> cnpjs;
        for (const auto& [cnpj, unused] : by_cnpj) {
            cnpjs.push_back(cnpj);
        }
        if (open == 0 || cnpjs.empty()) {
            return;
        }
        const std::size_t terms = sdk::KeyListTerms(cnpjs.size());
        auto rows = sdk::CachedQuery<FidcInvestedFacts, ReportsOfSlice>(
            db, sdk::KeyListName("funds.invested_facts", terms), [terms](const ReportsOfSlice& p) {
                return odb::query<FidcInvestedFacts>(ReportsOfSliceQuery(p, terms));
            });
        rows.params.cnpjs.Assign(cnpjs.begin(), cnpjs.end(), terms);
        choose(rows.params, begin, end);
        for (const FidcInvestedFacts& report : rows.Execute()) {
            for (FactsWalk* walk : by_cnpj[report.cnpj]) {
                if (!walk->done) {
                    walk->Feed(report);
                    open -= walk->done ? 1 : 0;
                }
            }
            if (open == 0) {
                break;
            }
        }
        for (auto it = begin; it != end; ++it) {
            (*it)->EndMonth();
        }
    });
}

// The facts of every class of `refs` up to `month`: first the reports of the asked month and
// the two before it, where almost every class finds all it needs, then the earlier reports of
// the classes still missing a metric.
std::vector<InvestedFacts> LatestFacts(odb::database& db, const std::vector<const InvestedClass*>& refs,
                                       const sdk::Month& month) {
    std::vector<FactsWalk> walks(refs.size());
    std::vector<FactsWalk*> walking;
    for (std::size_t i = 0; i < refs.size(); ++i) {
        walks[i].ref = refs[i];
        if (!refs[i]->filing_cnpjs.empty()) {
            walking.push_back(&walks[i]);
        }
    }
    // The asked month and the two before it, then every month before those.
    const std::string last = month.ToString();
    const std::string first = month.Previous().Previous().ToString();
    const std::string before_first = month.Previous().Previous().Previous().ToString();
    const auto months = [](ReportsOfSlice& p, const std::string& from, const std::string& to, bool every) {
        p.from = from;
        p.to = to;
        p.every = every ? 1 : 0;
        p.subordination = p.delinquency = p.pdd = p.nav = p.segments = 0;
    };
    FeedReports(db, walking, [&](ReportsOfSlice& p, auto, auto) { months(p, first, last, true); });
    std::erase_if(walking, [](const FactsWalk* walk) { return walk->done; });
    // A third of the CNPJs never publish one of the figures, and their walk goes back to their
    // first report. A class filing under one CNPJ skips the reports that publish none of what
    // its slice still misses: such a report would give it nothing. A class filing under two
    // reads every report, since the preferred CNPJ's report of a month counts even when empty.
    const auto two_cnpjs = std::stable_partition(walking.begin(), walking.end(), [](const FactsWalk* walk) {
        return walk->ref->filing_cnpjs.size() == 1;
    });
    std::vector<FactsWalk*> several(two_cnpjs, walking.end());
    walking.erase(two_cnpjs, walking.end());
    FeedReports(db, walking, [&](ReportsOfSlice& p, auto begin, auto end) {
        months(p, kFirstMonth, before_first, false);
        SetMissing(p, begin, end);
    });
    FeedReports(db, several,
                [&](ReportsOfSlice& p, auto, auto) { months(p, kFirstMonth, before_first, true); });
    std::vector<InvestedFacts> facts;
    facts.reserve(walks.size());
    for (FactsWalk& walk : walks) {
        facts.push_back(std::move(walk.facts));
    }
    ReadSegments(db, facts);
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

std::optional<double> ProtectionBeneath(const std::vector<FidcQuotaSeries>& series, int held_rank) {
    double junior = 0, total = 0;
    for (const FidcQuotaSeries& one : series) {
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

// One class whose subclasses the holder names, and what its series tell of them.
struct HeldWalk {
    const InvestedClass* ref = nullptr;
    const std::set<std::string>* held = nullptr;
    std::optional<FidcSeriesNaming> best;  // the preferred naming series of the latest month
};

// The reports' series FindHeldSubclasses reads: a slice's filing CNPJs, up to a month, naming one
// of the subclasses held (at most kHeldCodes of them; a slice holding more reads every series of
// its CNPJs and keeps the held ones in memory).
constexpr std::size_t kHeldCodes = 256;
struct NamingOfSlice {
    sdk::KeyList<std::string, 2 * kBatch> cnpjs;
    sdk::KeyList<std::string, kHeldCodes> codes;
    std::string last;
};

// For each class, from the latest report up to `month` whose X_1 names one of the held
// subclasses (of two CNPJs' reports of that month, the preferred one); nothing when the CDA
// names none.
std::vector<HeldSubclass> FindHeldSubclasses(odb::database& db, const std::vector<const InvestedClass*>& refs,
                                             const std::vector<const std::set<std::string>*>& helds,
                                             const sdk::Month& month) {
    using NamingQuery = odb::query<FidcSeriesNaming>;
    using SeriesQuery = odb::query<FidcQuotaSeries>;
    std::vector<HeldSubclass> found(refs.size());
    std::vector<HeldWalk> walks(refs.size());
    std::vector<HeldWalk*> walking;
    for (std::size_t i = 0; i < refs.size(); ++i) {
        walks[i] = {refs[i], helds[i], std::nullopt};
        if (!helds[i]->empty() && !refs[i]->filing_cnpjs.empty()) {
            walking.push_back(&walks[i]);
        }
    }
    const std::string last = month.ToString();
    InBatches(walking, [&](auto begin, auto end) {
        std::map<std::string, std::vector<HeldWalk*>> by_cnpj;
        std::set<std::string> codes;
        for (auto it = begin; it != end; ++it) {
            for (const std::string& cnpj : (*it)->ref->filing_cnpjs) {
                by_cnpj[cnpj].push_back(*it);
            }
            codes.insert((*it)->held->begin(), (*it)->held->end());
        }
        std::vector<std::string> cnpjs;
        for (const auto& [cnpj, unused] : by_cnpj) {
            cnpjs.push_back(cnpj);
        }
        // One statement per pair of list sizes (code_terms 0: no list of codes).
        const std::size_t cnpj_terms = sdk::KeyListTerms(cnpjs.size());
        const std::size_t code_terms = codes.size() <= kHeldCodes ? sdk::KeyListTerms(codes.size()) : 0;
        auto naming = sdk::CachedQuery<FidcSeriesNaming, NamingOfSlice>(
            db, sdk::KeyListName(sdk::KeyListName("funds.held_naming", cnpj_terms), code_terms),
            [cnpj_terms, code_terms](const NamingOfSlice& p) {
                NamingQuery q(sdk::InKeys(NamingQuery::cnpj, p.cnpjs, cnpj_terms) &&
                              NamingQuery::month <= NamingQuery::_ref(p.last));
                if (code_terms > 0) {
                    q = q && sdk::InKeys(NamingQuery::subclass_code, p.codes, code_terms);
                }
                return odb::query<FidcSeriesNaming>(q + "ORDER BY" + NamingQuery::month + "DESC");
            });
        naming.params.cnpjs.Assign(cnpjs.begin(), cnpjs.end(), cnpj_terms);
        if (code_terms > 0) {
            naming.params.codes.Assign(codes.begin(), codes.end(), code_terms);
        }
        naming.params.last = last;
        // Newest month first: once every walk of the slice has its month, an older row changes none.
        std::size_t unfound = static_cast<std::size_t>(end - begin);
        std::optional<std::string> oldest_found;
        for (const FidcSeriesNaming& one : naming.Execute()) {
            if (unfound == 0 && one.month < *oldest_found) {
                break;
            }
            for (HeldWalk* walk : by_cnpj[one.cnpj]) {
                if (!one.subclass_code || !walk->held->contains(*one.subclass_code) ||
                    (walk->best && walk->best->month != one.month)) {
                    continue;  // another class's subclass, or a month older than the one found
                }
                if (!walk->best) {
                    --unfound;
                    oldest_found = one.month;  // rows come newest first: the oldest found so far
                }
                if (!walk->best ||
                    Preference(*walk->ref, one.cnpj) < Preference(*walk->ref, walk->best->cnpj)) {
                    walk->best = one;
                }
            }
        }
    });

    std::vector<std::int64_t> report_ids;
    for (const HeldWalk* walk : walking) {
        if (walk->best) {
            report_ids.push_back(walk->best->report_id);
        }
    }
    std::sort(report_ids.begin(), report_ids.end());
    report_ids.erase(std::unique(report_ids.begin(), report_ids.end()), report_ids.end());
    std::map<std::int64_t, std::vector<FidcQuotaSeries>> series_of_report;
    InBatches(report_ids, [&](auto begin, auto end) {
        const std::size_t terms = sdk::KeyListTerms(static_cast<std::size_t>(end - begin));
        using Ids = sdk::KeyList<std::int64_t, kBatch>;
        auto rows = sdk::CachedQuery<FidcQuotaSeries, Ids>(
            db, sdk::KeyListName("funds.held_series", terms), [terms](const Ids& p) {
                return odb::query<FidcQuotaSeries>(
                    SeriesQuery(sdk::InKeys(SeriesQuery::report_id, p, terms)) + "ORDER BY" +
                    SeriesQuery::id);
            });
        rows.params.Assign(begin, end, terms);
        for (const FidcQuotaSeries& one : rows.Execute()) {
            series_of_report[one.report_id].push_back(one);
        }
    });

    for (std::size_t i = 0; i < walks.size(); ++i) {
        const HeldWalk& walk = walks[i];
        if (!walk.best) {
            continue;
        }
        HeldSubclass& held = found[i];
        held.as_of = walk.best->month;
        const std::vector<FidcQuotaSeries>& series = series_of_report[walk.best->report_id];
        std::set<std::string> seniorities;
        std::set<std::string> named;
        for (const FidcQuotaSeries& one : series) {
            if (one.subclass_code && walk.held->contains(*one.subclass_code)) {
                seniorities.insert(one.seniority);
                named.insert(*one.subclass_code);
            }
        }
        if (named.size() != walk.held->size()) {
            continue;  // a held subclass this report does not name: its rank is unknown
        }
        if (seniorities.size() > 1) {
            held.seniority = "mixed";
            continue;
        }
        held.seniority = *seniorities.begin();
        if (const int rank = SeniorityRank(*held.seniority); rank > 0) {
            held.protection_ratio = ProtectionBeneath(series, rank);
        }
    }
    return found;
}

// For each class, the ANBIMA type (its subclasses' first published type, by anbima_code), else
// the registry's ANBIMA classification.
std::vector<std::optional<std::string>> AnbimaTypes(odb::database& db,
                                                    const std::vector<const InvestedClass*>& refs) {
    using AnbimaQuery = odb::query<AnbimaSubclass>;
    std::vector<std::optional<std::string>> types(refs.size());
    std::vector<std::size_t> indexes(refs.size());
    for (std::size_t i = 0; i < refs.size(); ++i) {
        indexes[i] = i;
    }
    // A slice's classes in one statement, so that the rows of a class's CNPJs come in one order.
    InBatches(indexes, [&](auto begin, auto end) {
        std::map<std::string, std::vector<std::size_t>> by_cnpj;
        for (auto it = begin; it != end; ++it) {
            for (const std::string& cnpj : refs[*it]->filing_cnpjs) {
                by_cnpj[cnpj].push_back(*it);
            }
        }
        std::vector<std::string> cnpjs;
        for (const auto& [cnpj, unused] : by_cnpj) {
            cnpjs.push_back(cnpj);
        }
        if (cnpjs.empty()) {
            return;
        }
        const std::size_t terms = sdk::KeyListTerms(cnpjs.size());
        using Cnpjs = sdk::KeyList<std::string, 2 * kBatch>;
        auto rows = sdk::CachedQuery<AnbimaSubclassType, Cnpjs>(
            db, sdk::KeyListName("funds.invested_anbima", terms), [terms](const Cnpjs& p) {
                return odb::query<AnbimaSubclassType>(
                    AnbimaQuery(sdk::InKeys(AnbimaQuery::class_cnpj, p, terms)) + "ORDER BY" +
                    AnbimaQuery::anbima_code);
            });
        rows.params.Assign(cnpjs.begin(), cnpjs.end(), terms);
        for (const AnbimaSubclassType& subclass : rows.Execute()) {
            if (!subclass.type) {
                continue;
            }
            for (std::size_t i : by_cnpj[subclass.class_cnpj]) {
                if (!types[i]) {
                    types[i] = subclass.type;
                }
            }
        }
    });
    for (std::size_t i = 0; i < refs.size(); ++i) {
        if (!types[i]) {
            types[i] = refs[i]->anbima_classification;
        }
    }
    return types;
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
    std::string item;  // the item's JSON text
};

}  // namespace

PortfolioFundAnswer BuildPortfolioFundAnswer(odb::database& db, const CdaHolder& holder,
                                             const sdk::Month& month) {
    // The same holder's previous calendar month; without its CDA nothing is compared.
    const sdk::Month previous_month = month.Previous();
    const std::optional<CdaHolder> previous_holder = FindCdaHolder(db, holder.cnpj, previous_month);
    const FundPositionsOfMonths positions =
        FundPositions(db, holder.cnpj, holder.month,
                      previous_holder ? std::optional<std::string>(previous_holder->month) : std::nullopt);
    const std::map<std::string, InvestedRows>& current = positions.current;
    const std::map<std::string, InvestedRows>& previous = positions.previous;

    // Who each invested CNPJ is, then the facts of the invested classes, a few statements in all.
    const RegistryRows registry = LoadRegistryRows(db, current);
    struct Invested {
        const std::string* cnpj;
        const InvestedRows* sums;
        InvestedIdentity identity;
        std::optional<std::size_t> class_index;  // into the invested classes below
    };
    std::vector<Invested> invested;
    std::vector<InvestedClass> classes;
    std::int64_t outside_positions = 0;
    sdk::MoneySum outside_value;
    for (const auto& [cnpj, sums] : current) {
        std::optional<InvestedIdentity> identity = IdentifyInvested(registry, cnpj);
        if (!identity) {
            outside_positions += sums.rows;
            outside_value.Add(sums.market_value.Total());
            continue;
        }
        std::optional<std::size_t> class_index;
        if (identity->fund_class) {
            class_index = classes.size();
            classes.push_back(InvestedClassOf(registry, *identity->fund_class));
        }
        invested.push_back({&cnpj, &sums, std::move(*identity), class_index});
    }
    std::vector<const InvestedClass*> class_refs;
    std::vector<const std::set<std::string>*> class_helds;
    for (const Invested& one : invested) {
        if (one.class_index) {
            class_refs.push_back(&classes[*one.class_index]);
            class_helds.push_back(&one.sums->held_subclasses);
        }
    }
    std::vector<InvestedFacts> class_facts = LatestFacts(db, class_refs, month);
    const std::vector<HeldSubclass> class_held = FindHeldSubclasses(db, class_refs, class_helds, month);
    const std::vector<std::optional<std::string>> class_anbima_types = AnbimaTypes(db, class_refs);

    std::vector<Row> rows;
    for (Invested& one : invested) {
        const std::string& cnpj = *one.cnpj;
        const InvestedRows& sums = *one.sums;
        const InvestedIdentity* identity = &one.identity;
        const std::optional<double> position = sums.market_value.Total();
        const std::optional<FundRow>& fund = identity->fund;
        const std::optional<ClassRow>& fund_class = identity->fund_class;

        InvestedFacts facts;
        HeldSubclass held;
        std::optional<std::string> anbima_type;
        if (one.class_index) {
            facts = std::move(class_facts[*one.class_index]);
            held = class_held[*one.class_index];
            anbima_type = class_anbima_types[*one.class_index];
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
        // Written as text (no boost::json tree): the rows are sorted as strings below.
        sdk::JsonText json;
        json.BeginObject();
        json.Key("month").Value(month.ToString());
        json.Key("invested_cnpj").Value(cnpj);
        json.Key("invested_fund_id").Value(fund ? std::optional<std::string>(fund->fund_id) : std::nullopt);
        json.Key("invested_class_id")
            .Value(fund_class ? std::optional<std::string>(fund_class->class_id) : std::nullopt);
        json.Key("invested_class_ids").BeginArray();
        for (const std::string& id : identity->class_ids) {
            json.Value(id);
        }
        json.EndArray();
        json.Key("identity_status").Value(identity->status);
        json.Key("invested_name").Value(name);
        json.Key("published_name").Value(sums.published_name);
        json.Key("manager").Value(fund ? fund->manager : std::nullopt);
        json.Key("administrator").Value(fund ? fund->administrator : std::nullopt);
        json.Key("status").Value(fund_class ? fund_class->status : fund ? fund->status : std::nullopt);
        json.Key("position_count").Value(sums.rows);
        json.Key("position_brl").Value(position);
        json.Key("previous_position_brl").Value(previous_position);
        json.Key("position_variation_brl").Value(variation);
        json.Key("position_variation_pct").Value(PercentOf(variation, previous_position));
        json.Key("position_share_of_investor_nav_pct").Value(PercentOf(position, holder.nav));
        json.Key("investor_nav_brl").Value(holder.nav);
        json.Key("invested_nav_brl").Value(facts.nav.value);
        json.Key("invested_nav_as_of").Value(facts.nav.as_of);
        json.Key("acquisitions_brl").Value(sums.acquired.Total());
        json.Key("sales_brl").Value(sums.sold.Total());
        json.Key("movement").Value(movement);
        json.Key("subordination_ratio").Value(facts.subordination.value);
        json.Key("held_subclass_ids").BeginArray();
        for (const std::string& id : sums.held_subclasses) {
            json.Value(id);
        }
        json.EndArray();
        json.Key("held_seniority").Value(held.seniority);
        json.Key("held_protection_ratio").Value(held.protection_ratio);
        json.Key("held_as_of").Value(held.as_of);
        json.Key("delinquency_ratio").Value(facts.delinquency.value);
        json.Key("pdd_ratio").Value(facts.pdd.value);
        json.Key("subordination_as_of").Value(facts.subordination.as_of);
        json.Key("delinquency_as_of").Value(facts.delinquency.as_of);
        json.Key("pdd_as_of").Value(facts.pdd.as_of);
        json.Key("segment_as_of").Value(facts.segment_as_of);
        json.Key("primary_segment_code").Value(facts.primary_segment_code);
        json.Key("primary_segment_name").Value(facts.primary_segment_name);
        json.Key("primary_segment_ratio").Value(facts.primary_segment_ratio);
        json.Key("segments").BeginArray();
        for (const Segment& segment : facts.segments) {
            json.BeginObject();
            json.Key("code").Value(segment.code);
            json.Key("name").Value(segment.name);
            json.Key("ratio").Value(segment.ratio);
            json.EndObject();
        }
        json.EndArray();
        json.Key("anbima_type").Value(anbima_type);
        json.EndObject();
        rows.push_back({position, cnpj, json.Take()});
    }
    // Largest position first; unknown positions last.
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        if (a.position != b.position) {
            return a.position.has_value() && (!b.position || *a.position > *b.position);
        }
        return a.invested_cnpj < b.invested_cnpj;
    });

    std::size_t size = 2;
    for (const Row& row : rows) {
        size += row.item.size() + 1;
    }
    std::string data;
    data.reserve(size);
    data += '[';
    for (const Row& row : rows) {
        if (data.size() > 1) {
            data += ',';
        }
        data += row.item;
    }
    data += ']';
    PortfolioFundAnswer answer;
    answer.holder_cnpj = holder.cnpj;
    answer.month = holder.month;
    answer.previous_month_filed = previous_holder.has_value();
    answer.outside_positions = outside_positions;
    answer.outside_position_brl = outside_value.Total();
    answer.row_count = static_cast<std::int64_t>(rows.size());
    answer.data_json = std::move(data);
    return answer;
}

sdk::Result HandleClassPortfolioFunds(const sdk::RequestContext& context) {
    odb::database& db = context.db;
    const sdk::Month month = RequiredMonth(context.params);
    const ClassRef ref = FindClass(context, context.params.String("class_id").value_or(""));
    const CdaHolder holder = RequireCdaHolder(db, ref, month);
    std::optional<PortfolioFundAnswer> stored = StoredPortfolioFundAnswer(db, holder.cnpj, holder.month);
    PortfolioFundAnswer answer = stored ? std::move(*stored) : BuildPortfolioFundAnswer(db, holder, month);

    sdk::Result result;
    result.meta =
        sdk::DatasetMeta(context.host, {kCdaDataset, kRegistryDataset, kFidcReportDataset, kAnbimaDataset});
    result.meta.as_of = month.ToString();  // the reference period: the portfolio's month (contract 2.2)
    result.meta.extra["month"] = month.ToString();
    result.meta.extra["previous_month"] = month.Previous().ToString();
    result.meta.extra["previous_month_filed"] = answer.previous_month_filed;
    result.meta.extra["holder_cnpj"] = holder.cnpj;
    result.meta.extra["outside_positions"] = answer.outside_positions;
    result.meta.extra["outside_position_brl"] = JsonOrNull(answer.outside_position_brl);
    result.meta.row_count = static_cast<std::size_t>(answer.row_count);
    result.data_json = std::move(answer.data_json);
    return result;
}

}  // namespace lastro::funds
