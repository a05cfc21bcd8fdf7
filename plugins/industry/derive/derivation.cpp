#include "derive/derivation.hpp"

#include "derive/coverage.hpp"
#include "derive/indicators.hpp"
#include "derive/quality.hpp"
#include "derive/ranking.hpp"
#include "derive/ranking_blocks.hpp"
#include "derive/universe.hpp"
#include "derive/utc_time.hpp"
#include "industry_model-odb.hxx"
#include "industry_model.hxx"

#include <lastro/funds/services.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/serving/json_text.hpp>
#include <lastro/sdk/serving/money.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <ctime>
#include <map>
#include <memory>
#include <set>
#include <vector>

namespace lastro::industry {
namespace {

std::string Shift(const std::string& month, int months) {
    sdk::Month m = *sdk::Month::Parse(month);
    for (; months > 0; --months) {
        m = m.Next();
    }
    for (; months < 0; ++months) {
        m = m.Previous();
    }
    return m.ToString();
}

RegistryIndex LoadRegistry(odb::database& db, const sdk::Services& services) {
    RegistryIndex index;
    services.Get<funds::FidcRegistry>().ForEachVehicle(
        db, [&](const funds::FidcRegistryVehicle& v) { index.Add(v); });
    for (const ManagerSpell& s : db.query<ManagerSpell>()) {
        index.spells[s.fund_cnpj].push_back({s.manager, s.manager_document, s.started_at, s.ended_at});
    }
    return index;
}

std::vector<VehicleMonth> VehiclesOf(odb::database& db, const std::string& month) {
    using Query = odb::query<VehicleMonth>;
    std::vector<VehicleMonth> rows;
    for (const VehicleMonth& v : db.query<VehicleMonth>(Query::month == month)) {
        rows.push_back(v);
    }
    return rows;
}

// A month's vehicles as stored by an earlier derivation (its net worth, FIC-FIDC flag and
// whether it was set aside).
PreviousMonth StoredVehicles(odb::database& db, const std::string& month) {
    using Query = odb::query<VehicleNav>;
    PreviousMonth vehicles;
    for (const VehicleNav& v : db.query<VehicleNav>(Query::month == month)) {
        vehicles.emplace(v.cnpj, PreviousVehicle{v.nav, v.fic_fidc, v.set_aside});
    }
    return vehicles;
}

NavByCnpj NavsOf(const PreviousMonth& vehicles) {
    NavByCnpj navs;
    for (const auto& [cnpj, v] : vehicles) {
        navs.emplace(cnpj, v.nav);
    }
    return navs;
}

NavByCnpj NavsOf(const MonthUniverse& universe) {
    NavByCnpj navs;
    for (const Vehicle& v : universe.vehicles) {
        navs.emplace(v.cnpj, v.nav);
    }
    return navs;
}

void ReplaceVehicles(odb::database& db, const MonthUniverse& universe) {
    db.erase_query<VehicleMonth>(odb::query<VehicleMonth>::month == universe.month);
    for (const Vehicle& v : universe.vehicles) {
        VehicleMonth row;
        row.month = universe.month;
        row.cnpj = v.cnpj;
        row.kind = v.kind;
        row.fund_cnpj = v.fund_cnpj;
        row.name = v.name;
        row.fic_fidc = v.fic_fidc;
        row.fic_fidc_reason = v.fic_fidc_reason;
        row.nav = v.nav;
        row.set_aside = v.report_set_aside;
        row.net_flow = v.report_set_aside ? std::nullopt : NetFlow(v);
        row.manager_key = v.manager.key;
        row.manager = v.manager.name;
        row.manager_source = v.manager.source;
        row.administrator = v.administrator;
        db.persist(row);
    }
}

void EraseMonth(odb::database& db, const std::string& month) {
    db.erase_query<VehicleMonth>(odb::query<VehicleMonth>::month == month);
    db.erase_query<IndicatorItem>(odb::query<IndicatorItem>::month == month);
    db.erase_query<UniverseMonth>(odb::query<UniverseMonth>::month == month);
    db.erase_query<ManagerMonth>(odb::query<ManagerMonth>::month == month);
    db.erase_query<RankingBlock>(odb::query<RankingBlock>::month == month);
    db.erase_query<IndustryMonth>(odb::query<IndustryMonth>::month == month);
}

// What this run already knows of months: the final vehicles of the months it derived, and the
// net worth of the months whose reports changed (read before their turn comes).
struct RunMemory {
    std::map<std::string, PreviousMonth> derived;
    std::map<std::string, NavByCnpj> changed_navs;
};

// The net worth of `month`'s vehicles as this run sees it: changed in this run, else stored.
NavByCnpj CurrentNavs(odb::database& db, const std::string& month, const RunMemory& memory) {
    if (const auto known = memory.changed_navs.find(month); known != memory.changed_navs.end()) {
        return known->second;
    }
    return NavsOf(StoredVehicles(db, month));
}

// Whether the report-level filters would set aside other vehicles of `month` (stored, not
// changed in this run) than the stored ones, now that its neighbours may have changed.
bool SpikesChanged(odb::database& db, const std::string& month, const std::set<std::string>& available,
                   const RunMemory& memory) {
    const PreviousMonth stored = StoredVehicles(db, month);
    if (stored.empty()) {
        return true;  // never derived
    }
    const std::string before = Shift(month, -1), after = Shift(month, 1);
    const NavByCnpj navs_before = available.count(before) ? CurrentNavs(db, before, memory) : NavByCnpj{};
    const NavByCnpj navs_after = available.count(after) ? CurrentNavs(db, after, memory) : NavByCnpj{};
    auto nav_in = [](const NavByCnpj& navs, const std::string& cnpj) -> std::optional<double> {
        const auto found = navs.find(cnpj);
        return found == navs.end() ? std::nullopt : found->second;
    };
    for (const auto& [cnpj, v] : stored) {
        if (ReportSetAside(v.nav, nav_in(navs_before, cnpj), nav_in(navs_after, cnpj)) != v.set_aside) {
            return true;
        }
    }
    return false;
}

// Stage two for one month: sanity filters, vehicles, attrition, indicators and coverage.
void DeriveMonth(odb::database& db, const funds::FidcMonthlyFacts& facts, const RegistryIndex& registry,
                 const std::string& month, const std::set<std::string>& available,
                 const std::string& derived_at, RunMemory& memory) {
    std::vector<Report> reports;
    facts.ForEachReportDetail(db, month, kReportFields, [&](const funds::FidcReportDetail& detail) {
        reports.push_back(ReadReport(detail));
    });
    MonthUniverse universe = BuildUniverse(month, reports, registry);
    const std::string before = Shift(month, -1), after = Shift(month, 1);
    const bool has_previous = available.count(before) > 0;
    PreviousMonth previous;
    if (const auto known = memory.derived.find(before); known != memory.derived.end()) {
        previous = known->second;
    } else if (has_previous) {
        previous = StoredVehicles(db, before);
    }
    NavByCnpj next;
    if (const auto known = memory.changed_navs.find(after); known != memory.changed_navs.end()) {
        next = known->second;
    } else if (available.count(after)) {
        next = NavsOf(StoredVehicles(db, after));
    }
    const boost::json::array warnings = ApplySanityFilters(universe, NavsOf(previous), next);
    ReplaceVehicles(db, universe);
    PreviousMonth& now = memory.derived[month];
    for (const Vehicle& v : universe.vehicles) {
        now.emplace(v.cnpj, PreviousVehicle{v.nav, v.fic_fidc, v.report_set_aside});
    }

    // Attrition: the month before's vehicles, less registrations cancelled before this month and
    // funds whose classes now report for them.
    std::set<std::string> reporters;
    for (const Report& r : reports) {
        reporters.insert(r.fact.cnpj);
    }
    IndustryMonth row;
    row.month = month;
    row.reported = static_cast<std::int64_t>(universe.vehicles.size());
    row.fund_rows_dropped = static_cast<std::int64_t>(universe.dropped_fund_rows.size());
    row.derived_at = derived_at;
    for (const Vehicle& v : universe.vehicles) {
        row.vehicles_without_nav += v.nav ? 0 : 1;
    }
    if (has_previous) {
        std::int64_t expected = 0;
        sdk::MoneySum missing_nav, previous_nav;
        for (const auto& [cnpj, p] : previous) {
            if (!p.set_aside) {
                previous_nav.Add(p.nav);
            }
            const funds::FidcRegistryVehicle* registered = registry.Find(cnpj);
            if (registered && registered->cancelled_at && *registered->cancelled_at < month + "-01") {
                continue;  // its registration ended before this month: not expected
            }
            if (registered && registered->kind == "fund") {
                const auto classes = registry.class_cnpjs_of_fund.find(cnpj);
                bool migrated = false;
                if (classes != registry.class_cnpjs_of_fund.end()) {
                    for (const std::string& c : classes->second) {
                        migrated = migrated || reporters.count(c) > 0;
                    }
                }
                if (migrated) {
                    continue;  // its classes report for it now
                }
            }
            ++expected;
            if (!reporters.count(cnpj)) {
                ++row.missing;
                if (!p.set_aside) {
                    missing_nav.Add(p.nav);
                }
            }
        }
        row.expected = expected;
        row.missing_nav = missing_nav.PartialTotal().value_or(0);
        row.previous_nav = previous_nav.PartialTotal();
    }
    row.completeness = "unknown_completeness";  // judged with every month below
    std::unique_ptr<IndustryMonth> stored(db.find<IndustryMonth>(month));
    if (stored) {
        row.completeness = stored->completeness;
        row.completeness_reason = stored->completeness_reason;
        db.update(row);
    } else {
        db.persist(row);
    }

    db.erase_query<IndicatorItem>(odb::query<IndicatorItem>::month == month);
    db.erase_query<UniverseMonth>(odb::query<UniverseMonth>::month == month);
    for (const bool include_fic : {true, false}) {
        for (auto& [indicator, item] : ComputeIndicators(universe, include_fic, previous, has_previous)) {
            IndicatorItem stored_item;
            stored_item.indicator = indicator;
            stored_item.include_fic_fidc = include_fic;
            stored_item.month = month;
            stored_item.item_json = sdk::WriteJson(item);
            db.persist(stored_item);
        }
        std::set<std::string> fic;
        std::int64_t in_universe = 0, fic_count = 0;
        sdk::MoneySum nav, known;
        for (const Vehicle& v : universe.vehicles) {
            if (v.fic_fidc) {
                fic.insert(v.cnpj);
                ++fic_count;
            }
            if (!InUniverse(v, include_fic)) {
                continue;
            }
            ++in_universe;
            if (!v.report_set_aside && v.nav) {
                nav.Add(v.nav);
                if (v.manager.key) {
                    known.Add(v.nav);
                }
            }
        }
        boost::json::array kept;
        for (const boost::json::value& w : warnings) {
            if (include_fic || !fic.count(std::string(w.at("cnpj").as_string()))) {
                kept.push_back(w);
            }
        }
        const auto total = nav.PartialTotal();
        boost::json::object by_month{
            {"month", month},
            {"reporters_expected", row.expected ? boost::json::value(*row.expected) : nullptr},
            {"reporters_reported", row.reported},
            {"reporters_missing", row.expected ? boost::json::value(row.missing) : nullptr},
            {"nav_missing_brl",
             row.missing_nav ? boost::json::value(sdk::RoundToCents(*row.missing_nav)) : nullptr},
            {"nav_missing_ratio", row.missing_nav && row.previous_nav && *row.previous_nav > 0
                                      ? boost::json::value(*row.missing_nav / *row.previous_nav)
                                      : nullptr},
            {"vehicles_in_universe", in_universe},
            {"vehicles_without_nav", row.vehicles_without_nav},
            {"fund_rows_dropped", row.fund_rows_dropped},
            {"fic_fidc_vehicles", fic_count},
            {"fic_fidc_excluded", include_fic ? 0 : fic_count},
            {"quality_warnings", static_cast<std::int64_t>(kept.size())},
            {"manager_known_nav_ratio",
             total && *total > 0 ? boost::json::value(known.PartialTotal().value_or(0) / *total) : nullptr},
        };
        UniverseMonth mu;
        mu.month = month;
        mu.include_fic_fidc = include_fic;
        mu.by_month_json = sdk::WriteJson(by_month);
        mu.warning_count = static_cast<std::int64_t>(kept.size());
        mu.warnings_json = sdk::WriteJson(kept);
        db.persist(mu);
    }
}

void RankMonth(odb::database& db, const std::string& month) {
    const std::vector<VehicleMonth> vehicles = VehiclesOf(db, month);
    const std::string year_before = Shift(month, -12);
    for (const bool include_fic : {true, false}) {
        using Query = odb::query<ManagerMonth>;
        std::vector<ManagerMonth> before;
        for (const ManagerMonth& m :
             db.query<ManagerMonth>(Query::month == year_before && Query::include_fic_fidc == include_fic)) {
            before.push_back(m);
        }
        db.erase_query<ManagerMonth>(Query::month == month && Query::include_fic_fidc == include_fic);
        std::vector<ManagerMonth> ranked = RankManagers(month, include_fic, vehicles, before);
        for (ManagerMonth& m : ranked) {
            m.json = sdk::WriteJson(boost::json::object{
                {"manager_id", m.manager_key},
                {"manager", m.manager ? boost::json::value(*m.manager) : nullptr},
                {"manager_document", m.manager_document ? boost::json::value(*m.manager_document) : nullptr},
                {"nav_brl", sdk::RoundToCents(m.nav)},
                {"share_ratio", m.share},
                {"share_change_12m_pp",
                 m.share_change_12m_pp ? boost::json::value(*m.share_change_12m_pp) : nullptr},
                {"vehicles", m.vehicles},
                {"net_flow_brl", m.net_flow ? boost::json::value(sdk::RoundToCents(*m.net_flow)) : nullptr},
                {"pl_rank", m.rank_pl},
            });
            db.persist(m);
        }
        ReplaceRankingBlocks(db, month, include_fic, ranked);
    }
}

}  // namespace

sdk::IngestSummary AggregatesDerivation::Run(const sdk::DerivationContext& context) {
    odb::database& db = context.db;
    const auto& facts = context.services.Get<funds::FidcMonthlyFacts>();
    const std::vector<std::string> report_months = facts.Months(db);
    const std::set<std::string> available(report_months.begin(), report_months.end());
    std::set<std::string> derived;
    for (const IndustryMonth& m : db.query<IndustryMonth>()) {
        derived.insert(m.month);
    }
    std::set<std::string> targets;
    if (context.source == kFidcDataset && context.periods) {
        targets.insert(context.periods->begin(), context.periods->end());
    } else {
        targets = available;
        targets.insert(derived.begin(), derived.end());
    }
    const RegistryIndex registry = LoadRegistry(db, context.services);
    const std::string derived_at = Rfc3339(context.now);
    sdk::IngestSummary summary;

    // Stage one: each changed month's vehicles and net worth, which its neighbours' filters
    // read (the facts alone, without the JSON documents), kept in memory.
    RunMemory memory;
    std::set<std::string> months;  // derived again in stage two
    for (const std::string& month : targets) {
        context.progress.Stage(kAggregatesDataset + std::string(" ") + month);
        if (!available.count(month)) {
            if (derived.count(month)) {
                EraseMonth(db, month);
                ++summary.removed;
            }
            continue;
        }
        std::vector<Report> reports;
        facts.ForEachReport(db, month,
                            [&](const funds::FidcMonthlyFact& fact) { reports.push_back(ReadFact(fact)); });
        summary.rows_read += reports.size();
        memory.changed_navs[month] = NavsOf(BuildUniverse(month, reports, registry));
        for (const std::string& m : {month, Shift(month, 1)}) {
            if (available.count(m)) {
                months.insert(m);
            }
        }
    }
    // The month before a changed one depends on it only through the spike filter (its "month
    // after"): derived again only when that filter now decides otherwise for one of its vehicles.
    for (const std::string& month : targets) {
        const std::string before = Shift(month, -1);
        if (available.count(before) && !months.count(before) &&
            SpikesChanged(db, before, available, memory)) {
            months.insert(before);
        }
    }
    // Stage two, oldest first: a month reads the final vehicles of the month before.
    for (const std::string& month : months) {
        context.progress.Stage(kAggregatesDataset + std::string(" ") + month + ": indicators");
        const bool existed = derived.count(month) > 0;
        DeriveMonth(db, facts, registry, month, available, derived_at, memory);
        ++(existed ? summary.updated : summary.inserted);
    }
    // Stage three: rankings, with the 12-month changes that look back at the months above.
    std::set<std::string> ranked;
    for (const std::string& month : months) {
        for (const int shift : {0, 12, 24}) {
            if (const std::string m = Shift(month, shift); available.count(m)) {
                ranked.insert(m);
            }
        }
    }
    for (const std::string& month : ranked) {
        RankMonth(db, month);
    }
    // Stage four: the completeness of every month, as of this derivation.
    std::vector<IndustryMonth> all;
    for (const IndustryMonth& m :
         db.query<IndustryMonth>(odb::query<IndustryMonth>("ORDER BY") + odb::query<IndustryMonth>::month)) {
        all.push_back(m);
    }
    std::vector<MonthAttrition> attrition;
    for (const IndustryMonth& m : all) {
        attrition.push_back({m.month, m.expected, m.missing, m.missing_nav, m.previous_nav});
    }
    const std::vector<Completeness> judged = JudgeCompleteness(attrition, context.now);
    for (std::size_t i = 0; i < all.size(); ++i) {
        if (all[i].completeness != judged[i].status || all[i].completeness_reason != judged[i].reason) {
            all[i].completeness = judged[i].status;
            all[i].completeness_reason = judged[i].reason;
            db.update(all[i]);
        }
    }
    summary.periods.emplace(ranked.begin(), ranked.end());
    for (const std::string& m : months) {
        if (!ranked.count(m)) {
            summary.periods->push_back(m);
        }
    }
    std::sort(summary.periods->begin(), summary.periods->end());
    summary.release_label = report_months.empty() ? "empty" : report_months.back();
    if (!report_months.empty()) {
        summary.as_of = report_months.back();
    }
    return summary;
}

}  // namespace lastro::industry
