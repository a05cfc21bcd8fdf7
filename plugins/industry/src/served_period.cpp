#include "src/served_period.hpp"

#include "derive/derivation.hpp"
#include "industry_model-odb.hxx"
#include "industry_model.hxx"

#include <lastro/sdk/cached_query.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>
#include <lastro/sdk/serving/json_text.hpp>
#include <lastro/sdk/serving/remembered.hpp>

#include <boost/json/value.hpp>
#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lastro::industry {
namespace {

std::string Strings(const std::vector<std::string>& values) {
    std::string out = "[";
    for (const std::string& v : values) {
        out += (out.size() > 1 ? ",\"" : "\"") + v + "\"";  // months: no character to escape
    }
    return out + "]";
}

std::string Span(const std::vector<std::string>& months) {
    if (months.empty()) {
        return R"({"from":null,"to":null,"months":0})";
    }
    return R"({"from":")" + months.front() + R"(","to":")" + months.back() + R"(","months":)" +
           std::to_string(months.size()) + "}";
}

const std::string& Universe(bool include_fic_fidc) {
    auto make = [](bool include) {
        return sdk::WriteJson(boost::json::object{
            {"include_fic_fidc", include},
            {"name", include ? "cvm_fidc_reporting_vehicles" : "cvm_fidc_reporting_vehicles_ex_fic_fidc"},
            {"vehicle_rule",
             "one reporting vehicle per CNPJ and month: the class after RCVM 175, the fund before; a fund's "
             "own "
             "report is dropped when classes of it with their own CNPJ report the same month"},
            {"fic_fidc_rule",
             "FIC-FIDC when the registry's fund type is FIC-FIDC, or the name says FIC or 'em cotas', or "
             "FIDC "
             "quotas (TAB_I2H + TAB_I2I) are at least 67% of the assets"},
            {"nav_totals",
             "net-worth totals are given raw (nav_all_vehicles_brl), without FIC-FIDC (nav_ex_fic_fidc_brl) "
             "and "
             "net of FIDC quotas held (nav_net_of_fidc_quotas_brl): totals that include FIC-FIDC double "
             "count"},
            {"documentation", "plugins/industry/docs/universe.md"},
        });
    };
    static const std::string with = make(true), without = make(false);
    return include_fic_fidc ? with : without;
}

struct NoParams {};
struct UniverseRange {
    bool include_fic_fidc = true;
    std::string from;
    std::string to;
};

// The derived months, both universes', and their span: what every call of either operation
// reads first, and what changes only with a derivation, so read once per release
// (sdk::Remembered) instead of two statements a call (docs/performance.md, "Thirteenth round").
struct DerivedMonths {
    std::optional<std::string> first;
    std::optional<std::string> last;
    // Each derived month with the universe's stored coverage element and warnings, ascending.
    std::vector<PeriodMonth> with_fic_fidc;
    std::vector<PeriodMonth> without_fic_fidc;
};

DerivedMonths ReadDerivedMonths(odb::database& db) {
    DerivedMonths out;
    IndustryMonthSpan span;
    auto span_query = sdk::CachedQuery<IndustryMonthSpan, NoParams>(
        db, "industry.month_span", [](const NoParams&) { return odb::query<IndustryMonthSpan>(); });
    span_query.ExecuteOne(span);  // one row, its months null before the first derivation
    out.first = span.first;
    out.last = span.last;
    if (!out.first || !out.last) {
        return out;
    }
    using Query = odb::query<PeriodMonth>;
    for (const bool include : {true, false}) {
        auto q = sdk::CachedQuery<PeriodMonth, UniverseRange>(
            db, "industry.period_months", [](const UniverseRange& p) {
                return Query(Query::UniverseMonth::include_fic_fidc == Query::_ref(p.include_fic_fidc) &&
                             Query::IndustryMonth::month >= Query::_ref(p.from) &&
                             Query::IndustryMonth::month <= Query::_ref(p.to)) +
                       // The universe's month: the order its index reads in (the same month, joined).
                       "ORDER BY" + Query::UniverseMonth::month;
            });
        q.params.include_fic_fidc = include;
        q.params.from = *out.first;
        q.params.to = *out.last;
        std::vector<PeriodMonth>& months = include ? out.with_fic_fidc : out.without_fic_fidc;
        for (PeriodMonth& m : q.Execute()) {
            months.push_back(std::move(m));
        }
    }
    return out;
}

}  // namespace

std::string JsonString(const std::string& text) {
    sdk::JsonText json;
    json.Value(text);
    return json.Take();
}

ServedPeriod ServePeriod(const sdk::RequestContext& context) {
    const std::shared_ptr<const DerivedMonths> derived = sdk::Remembered<DerivedMonths>(
        context.host, "industry.derived_months", [&context] { return ReadDerivedMonths(context.db); });
    const std::optional<std::string>& first = derived->first;
    const std::optional<std::string>& last = derived->last;
    const auto release = context.host.LatestRelease(kAggregatesDataset);
    if (!first || !last || !release) {
        throw sdk::Unavailable(
            "the FIDC industry aggregates are not derived yet: ingest cvm.inf_mensal_fidc");
    }
    ServedPeriod served;
    served.period = ResolvePeriod(context.params, *last);
    served.include_fic_fidc = context.params.Boolean("include_fic_fidc").value_or(true);
    const bool include_partial = context.params.Boolean("include_partial").value_or(true);
    served.updated_at = release->ingested_at;

    // The period's derived months, from its first on, ascending like the period's months.
    const std::vector<PeriodMonth>& months =
        served.include_fic_fidc ? derived->with_fic_fidc : derived->without_fic_fidc;
    auto next =
        std::lower_bound(months.begin(), months.end(), served.period.from,
                         [](const PeriodMonth& m, const std::string& month) { return m.month < month; });

    std::vector<std::string> available, missing, partial, excluded, unknown, warned;
    std::vector<const PeriodMonth*> serving;
    for (const std::string& month : served.period.months) {
        while (next != months.end() && next->month < month) {
            ++next;  // outside the period's months (none: both ascend over the same range)
        }
        if (next == months.end() || next->month != month) {
            missing.push_back(month);
            continue;
        }
        const PeriodMonth& found = *next;
        available.push_back(month);
        if (found.completeness == "partial") {
            partial.push_back(month);
            if (!include_partial) {
                excluded.push_back(month);
                continue;
            }
        } else if (found.completeness == "unknown_completeness") {
            unknown.push_back(month);
        }
        served.months.push_back(month);
        serving.push_back(&found);
    }
    if (available.empty()) {
        throw sdk::NotFound("no FIDC monthly reports for " + served.period.from +
                                (served.period.from == served.period.to ? "" : " .. " + served.period.to) +
                                "; the aggregates cover " + *first + " .. " + *last,
                            context.params.MonthValue("month") ? "month" : "from");
    }
    std::size_t by_month_bytes = 2, warnings_bytes = 2;
    for (const PeriodMonth* m : serving) {
        by_month_bytes +=
            m->by_month_json.size() + m->completeness.size() + m->completeness_reason.size() + 64;
        warnings_bytes += m->warnings_json.size() + 1;
    }
    std::string by_month;
    by_month.reserve(by_month_bytes);
    by_month += '[';
    served.warnings_json.reserve(warnings_bytes);
    served.warnings_json = "[";
    for (const PeriodMonth* m : serving) {
        // The stored element, with the month's completeness put first (appended piece by piece:
        // the stored texts are long, and joining them with + copied each twice).
        by_month += (by_month.size() > 1 ? R"(,{"completeness":)" : R"({"completeness":)");
        by_month += JsonString(m->completeness);
        by_month += R"(,"completeness_reason":)";
        by_month += JsonString(m->completeness_reason);
        by_month += ',';
        by_month.append(m->by_month_json, 1);
        if (m->warning_count > 0) {
            warned.push_back(m->month);
            served.warnings_json += (served.warnings_json.size() > 1 ? "," : "");
            served.warnings_json.append(m->warnings_json, 1, m->warnings_json.size() - 2);
        }
    }
    by_month += "]";
    served.warnings_json += "]";
    // Appended into room made for it: the months' texts are most of it, and joined with + they
    // were copied at each reallocation.
    std::string& coverage = served.coverage_json;
    coverage.reserve(by_month.size() + 24 * (served.period.months.size() + available.size()) + 512);
    coverage += R"({"requested":)";
    coverage += Span(served.period.months);
    coverage += R"(,"covered":)";
    coverage += Span(served.months);
    for (const auto& [key, months] :
         {std::pair<const char*, const std::vector<std::string>*>{R"(,"available_months":)", &available},
          {R"(,"missing_months":)", &missing},
          {R"(,"partial_months":)", &partial},
          {R"(,"excluded_partial_months":)", &excluded},
          {R"(,"unknown_completeness_months":)", &unknown},
          {R"(,"quality_warning_months":)", &warned}}) {
        coverage += key;
        coverage += Strings(*months);
    }
    coverage += R"(,"by_month":)";
    coverage += by_month;
    coverage += R"(,"documentation":"plugins/industry/docs/coverage.md"})";
    return served;
}

sdk::Result Respond(const sdk::RequestContext& context, ServedPeriod&& served, const char* first_key,
                    const std::string& first_value, const std::string& items_json, std::size_t rows,
                    const std::string& pagination_json) {
    sdk::Result result;
    result.meta = sdk::DatasetMeta(
        context.host, {kAggregatesDataset, kFidcDataset, "cvm.registro_fundo_classe", "cvm.cad_fi_hist"});
    result.meta.as_of =
        served.months.empty() ? std::nullopt : std::optional<std::string>(served.months.back());
    result.meta.row_count = rows;
    std::string data;
    data.reserve(items_json.size() + served.coverage_json.size() + served.warnings_json.size() + 1024);
    data += "{\"";
    data += first_key;
    data += "\":" + JsonString(first_value) + ",\"items\":";
    data += items_json;
    data += ",\"coverage\":";
    data += served.coverage_json;
    data += ",\"updated_at\":" + JsonString(served.updated_at) + ",\"universe\":";
    data += Universe(served.include_fic_fidc);
    data += ",\"pagination\":" + pagination_json + ",\"quality_warnings\":";
    data += served.warnings_json;
    data += "}";
    result.data_json = std::move(data);
    return result;
}

}  // namespace lastro::industry
