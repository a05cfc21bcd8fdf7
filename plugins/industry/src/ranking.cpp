// GET /v1/industria/gestoras/ranking (docs/api/ranking.md): each month's managers at ranks
// offset+1 .. offset+limit under the chosen ordering, read from the derived ranks by an index
// of that ordering.
#include "industry_model-odb.hxx"
#include "industry_model.hxx"
#include "src/handlers.hpp"
#include "src/served_period.hpp"

#include <lastro/sdk/cached_query.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <algorithm>
#include <charconv>
#include <set>
#include <utility>
#include <vector>

namespace lastro::industry {
namespace {

using Query = odb::query<ManagerMonth>;
using Row = ManagerRankRow;

struct RankRange {
    bool include_fic_fidc = true;
    std::string from;
    std::string to;
    std::int64_t after = 0;
    std::int64_t upto = 0;
};

// One prepared query per ordering, each served by its own index (industry_model.hxx).
template <typename Column>
sdk::Prepared<Row, RankRange> RankQuery(odb::database& db, const char* name, const Column& rank) {
    return sdk::CachedQuery<Row, RankRange>(db, name, [&rank](const RankRange& p) {
        return odb::query<Row>(Query::include_fic_fidc == Query::_ref(p.include_fic_fidc) &&
                               rank > Query::_ref(p.after) && rank <= Query::_ref(p.upto) &&
                               Query::month >= Query::_ref(p.from) && Query::month <= Query::_ref(p.to));
    });
}

struct Ordering {
    std::int64_t Row::* rank;
    std::optional<std::int64_t> Row::* rank_12m_ago;
};

Ordering OrderingOf(const std::string& order_by) {
    if (order_by == "vehicles") {
        return {&Row::rank_vehicles, &Row::rank_vehicles_12m_ago};
    }
    if (order_by == "net_flow") {
        return {&Row::rank_net_flow, &Row::rank_net_flow_12m_ago};
    }
    if (order_by == "share_change") {
        return {&Row::rank_share_change, &Row::rank_share_change_12m_ago};
    }
    return {&Row::rank_pl, &Row::rank_pl_12m_ago};
}

sdk::Prepared<Row, RankRange> QueryOf(odb::database& db, const std::string& order_by) {
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

// The units of a month's managers, once per month.
constexpr const char* kUnits =
    R"json({"rank":"position (1 = first)","rank_change_12m":"positions gained since 12 months before",)json"
    R"json("nav_brl":"BRL","share_ratio":"fraction of the net worth with a known manager",)json"
    R"json("share_change_12m_pp":"percentage points","vehicles":"count","net_flow_brl":"BRL"})json";

// A rank, or null, appended to `out`.
void AppendRank(std::string& out, const std::optional<std::int64_t>& rank) {
    if (!rank) {
        out += "null";
        return;
    }
    char digits[24];
    out.append(digits, std::to_chars(digits, digits + sizeof digits, *rank).ptr);
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
    std::vector<Row> read;
    for (Row& m : q.Execute()) {
        if (serving.count(m.month)) {
            read.push_back(std::move(m));
        }
    }
    // Sorted by pointer: the rows hold their figures' JSON text.
    std::vector<const Row*> rows;
    rows.reserve(read.size());
    for (const Row& m : read) {
        rows.push_back(&m);
    }
    std::sort(rows.begin(), rows.end(), [&](const Row* a, const Row* b) {
        return a->month != b->month ? a->month < b->month : a->*ordering.rank < b->*ordering.rank;
    });
    // One item per month: its managers at the page's ranks (the stored figures behind the
    // ranks of the ordering asked), and their units.
    bool has_more = false;
    std::string items = "[";
    std::size_t text_size = 0;
    for (const Row* row : rows) {
        text_size += row->json.size() + 64;
    }
    items.reserve(text_size + 1024);
    std::string month;
    std::size_t months = 0;
    // Appended piece by piece: the items are most of the answer, and joining each row's pieces
    // with + made a string of every step.
    for (const Row* row : rows) {
        const Row& m = *row;
        const std::int64_t rank = m.*ordering.rank;
        if (rank > offset + limit) {
            has_more = true;
            continue;
        }
        if (m.month != month) {
            if (!month.empty()) {
                items += R"(],"units":)";
                items += kUnits;
                items += "},";
            }
            month = m.month;
            ++months;
            items += R"({"month":")";
            items += month;
            items += R"(","managers":[)";
        } else {
            items += ',';
        }
        const std::optional<std::int64_t> before = m.*ordering.rank_12m_ago;
        items += R"({"rank":)";
        AppendRank(items, rank);
        items += R"(,"rank_12m_ago":)";
        AppendRank(items, before);
        items += R"(,"rank_change_12m":)";
        AppendRank(items, before ? std::optional<std::int64_t>(*before - rank) : std::nullopt);
        items += ',';
        items.append(m.json, 1);  // the stored object's members after its "{"
    }
    if (!month.empty()) {
        items += R"(],"units":)";
        items += kUnits;
        items += "}";
    }
    items += "]";
    const std::string pagination = R"({"limit":)" + std::to_string(limit) + R"(,"offset":)" +
                                   std::to_string(offset) + R"(,"has_more":)" +
                                   (has_more ? "true" : "false") + R"(,"next_offset":)" +
                                   (has_more ? std::to_string(offset + limit) : "null") + "}";
    return Respond(context, std::move(served), "order_by", order_by, items, months, pagination);
}

}  // namespace lastro::industry
