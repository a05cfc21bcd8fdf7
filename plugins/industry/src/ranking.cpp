// GET /v1/industria/gestoras/ranking (docs/api/ranking.md): each month's managers at ranks
// offset+1 .. offset+limit under the chosen ordering, read from the derived ranks by an index
// of that ordering.
#include "industry_model-odb.hxx"
#include "industry_model.hxx"
#include "src/handlers.hpp"
#include "src/served_period.hpp"

#include <lastro/sdk/cached_query.hpp>
#include <lastro/sdk/serving/json_text.hpp>
#include <lastro/sdk/serving/money.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <algorithm>
#include <set>

namespace lastro::industry {
namespace {

using Query = odb::query<ManagerMonth>;

struct RankRange {
    bool include_fic_fidc = true;
    std::string from;
    std::string to;
    std::int64_t after = 0;
    std::int64_t upto = 0;
};

// One prepared query per ordering, each served by its own index (industry_model.hxx).
template <typename Column>
sdk::Prepared<ManagerMonth, RankRange> RankQuery(odb::database& db, const char* name, const Column& rank) {
    return sdk::CachedQuery<ManagerMonth, RankRange>(db, name, [&rank](const RankRange& p) {
        return Query::include_fic_fidc == Query::_ref(p.include_fic_fidc) && rank > Query::_ref(p.after) &&
               rank <= Query::_ref(p.upto) && Query::month >= Query::_ref(p.from) &&
               Query::month <= Query::_ref(p.to);
    });
}

struct Ordering {
    std::int64_t ManagerMonth::* rank;
    std::optional<std::int64_t> ManagerMonth::* rank_12m_ago;
};

Ordering OrderingOf(const std::string& order_by) {
    if (order_by == "vehicles") {
        return {&ManagerMonth::rank_vehicles, &ManagerMonth::rank_vehicles_12m_ago};
    }
    if (order_by == "net_flow") {
        return {&ManagerMonth::rank_net_flow, &ManagerMonth::rank_net_flow_12m_ago};
    }
    if (order_by == "share_change") {
        return {&ManagerMonth::rank_share_change, &ManagerMonth::rank_share_change_12m_ago};
    }
    return {&ManagerMonth::rank_pl, &ManagerMonth::rank_pl_12m_ago};
}

sdk::Prepared<ManagerMonth, RankRange> QueryOf(odb::database& db, const std::string& order_by) {
    if (order_by == "vehicles") {
        return RankQuery(db, "industry.ranking_vehicles", Query::rank_vehicles);
    }
    if (order_by == "net_flow") {
        return RankQuery(db, "industry.ranking_net_flow", Query::rank_net_flow);
    }
    if (order_by == "share_change") {
        return RankQuery(db, "industry.ranking_share_change", Query::rank_share_change);
    }
    return RankQuery(db, "industry.ranking_pl", Query::rank_pl);
}

boost::json::value Json(const std::optional<double>& x) {
    return x ? boost::json::value(*x) : boost::json::value(nullptr);
}

const boost::json::object& Units() {
    static const boost::json::object units{{"rank", "position (1 = first)"},
                                           {"rank_change_12m", "positions gained since 12 months before"},
                                           {"nav_brl", "BRL"},
                                           {"share_ratio", "fraction of the net worth with a known manager"},
                                           {"share_change_12m_pp", "percentage points"},
                                           {"vehicles", "count"},
                                           {"net_flow_brl", "BRL"}};
    return units;
}

}  // namespace

sdk::Result HandleManagerRanking(const sdk::RequestContext& context) {
    const std::string order_by = context.params.String("order_by").value_or("pl");
    const std::int64_t limit = context.params.Integer("limit").value_or(20);
    const std::int64_t offset = context.params.Integer("offset").value_or(0);
    ServedPeriod served = ServePeriod(context);
    const std::set<std::string> serving(served.months.begin(), served.months.end());
    const Ordering ordering = OrderingOf(order_by);
    auto q = QueryOf(context.db, order_by);
    q.params.include_fic_fidc = served.include_fic_fidc;
    q.params.from = served.period.from;
    q.params.to = served.period.to;
    q.params.after = offset;
    q.params.upto = offset + limit + 1;  // one rank more than the page: whether a month has more
    std::vector<ManagerMonth> rows;
    for (const ManagerMonth& m : q.Execute()) {
        if (serving.count(m.month)) {
            rows.push_back(m);
        }
    }
    std::sort(rows.begin(), rows.end(), [&](const ManagerMonth& a, const ManagerMonth& b) {
        return a.month != b.month ? a.month < b.month : a.*ordering.rank < b.*ordering.rank;
    });
    bool has_more = false;
    boost::json::array items;
    for (const ManagerMonth& m : rows) {
        const std::int64_t rank = m.*ordering.rank;
        if (rank > offset + limit) {
            has_more = true;
            continue;
        }
        const std::optional<std::int64_t> before = m.*ordering.rank_12m_ago;
        items.push_back(boost::json::object{
            {"month", m.month},
            {"rank", rank},
            {"rank_12m_ago", before ? boost::json::value(*before) : nullptr},
            {"rank_change_12m", before ? boost::json::value(*before - rank) : nullptr},
            {"manager_id", m.manager_key},
            {"manager", m.manager ? boost::json::value(*m.manager) : nullptr},
            {"manager_document", m.manager_document ? boost::json::value(*m.manager_document) : nullptr},
            {"nav_brl", sdk::RoundToCents(m.nav)},
            {"share_ratio", m.share},
            {"share_change_12m_pp", Json(m.share_change_12m_pp)},
            {"vehicles", m.vehicles},
            {"net_flow_brl", Json(sdk::RoundToCents(m.net_flow))},
            {"pl_rank", m.rank_pl},
            {"units", Units()},
        });
    }
    const std::size_t rows_served = items.size();
    const std::string pagination = sdk::WriteJson(
        boost::json::object{{"limit", limit},
                            {"offset", offset},
                            {"has_more", has_more},
                            {"next_offset", has_more ? boost::json::value(offset + limit) : nullptr}});
    return Respond(context, std::move(served), "order_by", order_by, sdk::WriteJson(items), rows_served,
                   pagination);
}

}  // namespace lastro::industry
