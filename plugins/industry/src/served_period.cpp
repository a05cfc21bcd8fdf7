#include "src/served_period.hpp"

#include "derive/derivation.hpp"
#include "industry_model-odb.hxx"
#include "industry_model.hxx"

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>

#include <boost/json/parse.hpp>
#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <map>
#include <set>

namespace lastro::industry {
namespace {

boost::json::array Strings(const std::vector<std::string>& values) {
    boost::json::array out;
    for (const std::string& v : values) {
        out.push_back(boost::json::value(v));
    }
    return out;
}

boost::json::object Span(const std::vector<std::string>& months) {
    if (months.empty()) {
        return {{"from", nullptr}, {"to", nullptr}, {"months", 0}};
    }
    return {{"from", months.front()},
            {"to", months.back()},
            {"months", static_cast<std::int64_t>(months.size())}};
}

boost::json::object Universe(bool include_fic_fidc) {
    return {
        {"include_fic_fidc", include_fic_fidc},
        {"name",
         include_fic_fidc ? "cvm_fidc_reporting_vehicles" : "cvm_fidc_reporting_vehicles_ex_fic_fidc"},
        {"vehicle_rule",
         "one reporting vehicle per CNPJ and month: the class after RCVM 175, the fund before; a fund's own "
         "report "
         "is dropped when classes of it with their own CNPJ report the same month"},
        {"fic_fidc_rule",
         "FIC-FIDC when the registry's fund type is FIC-FIDC, or the name says FIC or 'em cotas', or FIDC "
         "quotas "
         "(TAB_I2H + TAB_I2I) are at least 67% of the assets"},
        {"nav_totals",
         "net-worth totals are given raw (nav_all_vehicles_brl), without FIC-FIDC (nav_ex_fic_fidc_brl) and "
         "net of "
         "FIDC quotas held (nav_net_of_fidc_quotas_brl): totals that include FIC-FIDC double count"},
        {"documentation", "plugins/industry/docs/universe.md"},
    };
}

}  // namespace

ServedPeriod ServePeriod(const sdk::RequestContext& context) {
    odb::database& db = context.db;
    std::map<std::string, IndustryMonth> derived;
    for (const IndustryMonth& m : db.query<IndustryMonth>()) {
        derived.emplace(m.month, m);
    }
    const auto release = context.host.LatestRelease(kAggregatesDataset);
    if (derived.empty() || !release) {
        throw sdk::Unavailable(
            "the FIDC industry aggregates are not derived yet: ingest cvm.inf_mensal_fidc");
    }
    ServedPeriod served;
    served.period = ResolvePeriod(context.params, derived.rbegin()->first);
    served.include_fic_fidc = context.params.Boolean("include_fic_fidc").value_or(true);
    const bool include_partial = context.params.Boolean("include_partial").value_or(true);
    served.updated_at = release->ingested_at;
    served.universe = Universe(served.include_fic_fidc);

    std::vector<std::string> available, missing, partial, excluded, unknown, warned;
    for (const std::string& month : served.period.months) {
        const auto found = derived.find(month);
        if (found == derived.end()) {
            missing.push_back(month);
            continue;
        }
        available.push_back(month);
        const std::string& status = found->second.completeness;
        if (status == "partial") {
            partial.push_back(month);
            if (!include_partial) {
                excluded.push_back(month);
                continue;
            }
        } else if (status == "unknown_completeness") {
            unknown.push_back(month);
        }
        served.months.push_back(month);
    }
    if (available.empty()) {
        throw sdk::NotFound("no FIDC monthly reports for " + served.period.from +
                                (served.period.from == served.period.to ? "" : " .. " + served.period.to) +
                                "; the aggregates cover " + derived.begin()->first + " .. " +
                                derived.rbegin()->first,
                            context.params.MonthValue("month") ? "month" : "from");
    }
    const std::set<std::string> serving(served.months.begin(), served.months.end());
    boost::json::array by_month;
    using Query = odb::query<UniverseMonth>;
    for (const UniverseMonth& u : db.query<UniverseMonth>(
             Query(Query::include_fic_fidc == served.include_fic_fidc && Query::month >= served.period.from &&
                   Query::month <= served.period.to) +
             "ORDER BY" + Query::month)) {
        if (!serving.count(u.month)) {
            continue;
        }
        boost::json::object element = boost::json::parse(u.by_month_json).as_object();
        const IndustryMonth& m = derived.at(u.month);
        element["completeness"] = m.completeness;
        element["completeness_reason"] = m.completeness_reason;
        by_month.push_back(std::move(element));
        if (u.warning_count > 0) {
            warned.push_back(u.month);
            boost::json::value warnings = boost::json::parse(u.warnings_json);
            for (boost::json::value& w : warnings.as_array()) {
                served.quality_warnings.push_back(std::move(w));
            }
        }
    }
    served.coverage = {
        {"requested", Span(served.period.months)},
        {"covered", Span(served.months)},
        {"available_months", Strings(available)},
        {"missing_months", Strings(missing)},
        {"partial_months", Strings(partial)},
        {"excluded_partial_months", Strings(excluded)},
        {"unknown_completeness_months", Strings(unknown)},
        {"quality_warning_months", Strings(warned)},
        {"by_month", std::move(by_month)},
        {"documentation", "plugins/industry/docs/coverage.md"},
    };
    return served;
}

boost::json::object ResponseData(ServedPeriod&& served, const char* first_key, const std::string& first_value,
                                 boost::json::array&& items, boost::json::object&& pagination) {
    return {{first_key, first_value},
            {"items", std::move(items)},
            {"coverage", std::move(served.coverage)},
            {"updated_at", served.updated_at},
            {"universe", std::move(served.universe)},
            {"pagination", std::move(pagination)},
            {"quality_warnings", std::move(served.quality_warnings)}};
}

sdk::Meta ResponseMeta(const sdk::RequestContext& context, const ServedPeriod& served, std::size_t rows) {
    sdk::Meta meta = sdk::DatasetMeta(
        context.host, {kAggregatesDataset, kFidcDataset, "cvm.registro_fundo_classe", "cvm.cad_fi_hist"});
    meta.as_of = served.months.empty() ? std::nullopt : std::optional<std::string>(served.months.back());
    meta.row_count = rows;
    return meta;
}

}  // namespace lastro::industry
