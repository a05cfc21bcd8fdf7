// GET /v1/industria/gestoras/ranking (docs/api/ranking.md): each month's managers at ranks
// offset+1 .. offset+limit under the chosen ordering, read from the derived ranks.
#include "industry_model-odb.hxx"
#include "industry_model.hxx"
#include "src/handlers.hpp"
#include "src/served_period.hpp"

#include <lastro/sdk/serving/money.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <set>

namespace lastro::industry {
namespace {

using Query = odb::query<ManagerMonth>;

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

// The rank column of the ordering, for the query.
Query RankBetween(const std::string& order_by, std::int64_t after, std::int64_t upto) {
    if (order_by == "vehicles") {
        return Query::rank_vehicles > after && Query::rank_vehicles <= upto;
    }
    if (order_by == "net_flow") {
        return Query::rank_net_flow > after && Query::rank_net_flow <= upto;
    }
    if (order_by == "share_change") {
        return Query::rank_share_change > after && Query::rank_share_change <= upto;
    }
    return Query::rank_pl > after && Query::rank_pl <= upto;
}

boost::json::value Json(const std::optional<double>& x) {
    return x ? boost::json::value(*x) : boost::json::value(nullptr);
}

}  // namespace

sdk::Result HandleManagerRanking(const sdk::RequestContext& context) {
    const std::string order_by = context.params.String("order_by").value_or("pl");
    const std::int64_t limit = context.params.Integer("limit").value_or(20);
    const std::int64_t offset = context.params.Integer("offset").value_or(0);
    ServedPeriod served = ServePeriod(context);
    const std::set<std::string> serving(served.months.begin(), served.months.end());
    const Ordering ordering = OrderingOf(order_by);
    std::vector<ManagerMonth> rows;
    // One more rank than the page, to know whether a month has more.
    for (const ManagerMonth& m : context.db.query<ManagerMonth>(
             Query(Query::include_fic_fidc == served.include_fic_fidc && Query::month >= served.period.from &&
                   Query::month <= served.period.to && RankBetween(order_by, offset, offset + limit + 1)))) {
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
            {"units", boost::json::object{{"rank", "position (1 = first)"},
                                          {"rank_change_12m", "positions gained since 12 months before"},
                                          {"nav_brl", "BRL"},
                                          {"share_ratio", "fraction of the net worth with a known manager"},
                                          {"share_change_12m_pp", "percentage points"},
                                          {"vehicles", "count"},
                                          {"net_flow_brl", "BRL"}}},
        });
    }
    sdk::Result result;
    result.meta = ResponseMeta(context, served, items.size());
    boost::json::object pagination{{"limit", limit},
                                   {"offset", offset},
                                   {"has_more", has_more},
                                   {"next_offset", has_more ? boost::json::value(offset + limit) : nullptr}};
    result.data =
        ResponseData(std::move(served), "order_by", order_by, std::move(items), std::move(pagination));
    return result;
}

}  // namespace lastro::industry
