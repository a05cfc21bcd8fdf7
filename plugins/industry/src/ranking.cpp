// GET /v1/industria/gestoras/ranking (docs/api/ranking.md): each month's managers at ranks
// offset+1 .. offset+limit under the chosen ordering, cut from the stored blocks of ranks that
// hold them (derive/ranking_blocks.hpp): one block or a few a month, by one index.
#include "derive/ranking_blocks.hpp"
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
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lastro::industry {
namespace {

using Query = odb::query<RankingBlock>;

struct BlockRange {
    bool include_fic_fidc = true;
    std::string ordering;
    std::string from;
    std::string to;
    std::int64_t first = 0;
    std::int64_t last = 0;
};

// The blocks of one ordering and universe over a period, by month and block:
// industry_ranking_block_i's order.
sdk::Prepared<RankingBlock, BlockRange> BlocksQuery(odb::database& db) {
    return sdk::CachedQuery<RankingBlock, BlockRange>(db, "industry.ranking_blocks", [](const BlockRange& p) {
        return Query(Query::include_fic_fidc == Query::_ref(p.include_fic_fidc) &&
                     Query::ordering == Query::_ref(p.ordering) && Query::month >= Query::_ref(p.from) &&
                     Query::month <= Query::_ref(p.to) && Query::block >= Query::_ref(p.first) &&
                     Query::block <= Query::_ref(p.last)) +
               "ORDER BY" + Query::month + "," + Query::block;
    });
}

// The units of a month's managers, once per month.
constexpr const char* kUnits =
    R"json({"rank":"position (1 = first)","rank_change_12m":"positions gained since 12 months before",)json"
    R"json("nav_brl":"BRL","share_ratio":"fraction of the net worth with a known manager",)json"
    R"json("share_change_12m_pp":"percentage points","vehicles":"count","net_flow_brl":"BRL"})json";

// Where the `index`th manager of a block ends in its text (RankingBlock::ends).
std::size_t EndOf(const std::string& ends, std::int64_t index) {
    std::size_t at = 0;
    for (std::int64_t i = 0; i < index; ++i) {
        at = ends.find(',', at) + 1;
    }
    std::size_t end = 0;
    std::from_chars(ends.data() + at, ends.data() + ends.size(), end);
    return end;
}

// The text of ranks lo..hi (both within the block) of `block`: its managers joined by commas.
std::string_view RanksOf(const RankingBlock& block, std::int64_t lo, std::int64_t hi) {
    const std::int64_t first = lo - block.first_rank;
    const std::size_t start = first == 0 ? 0 : EndOf(block.ends, first - 1) + 1;  // past the comma
    const std::size_t end = EndOf(block.ends, hi - block.first_rank);
    return std::string_view(block.managers_json).substr(start, end - start);
}

}  // namespace

sdk::Result HandleManagerRanking(const sdk::RequestContext& context) {
    const std::string order_by = context.params.String("order_by").value_or("pl");
    const std::int64_t limit = context.params.Integer("limit").value_or(20);
    const std::int64_t offset = context.params.Integer("offset").value_or(0);
    ServedPeriod served = ServePeriod(context);
    const std::set<std::string> serving(served.months.begin(), served.months.end());
    // The page's ranks and one more (whether a month has more): ranks offset+1 .. offset+limit+1.
    const std::int64_t lo = offset + 1, hi = offset + limit;
    auto q = BlocksQuery(context.db);
    q.params.include_fic_fidc = served.include_fic_fidc;
    q.params.ordering = order_by;
    q.params.from = served.period.from;
    q.params.to = served.period.to;
    q.params.first = (lo - 1) / kRanksPerBlock;
    q.params.last = hi / kRanksPerBlock;  // the block of rank hi + 1
    // One item per month: its managers at the page's ranks, and their units. Appended piece by
    // piece: the items are most of the answer.
    std::vector<RankingBlock> blocks;
    // Room for each block's text, and for its month's opening and units (a month has a block or
    // more): what did not fit was copied whole at each reallocation.
    const std::size_t per_month = std::string_view(kUnits).size() + 64;
    std::size_t text_size = 0;
    for (RankingBlock& block : q.Execute()) {
        text_size += block.managers_json.size() + per_month;
        blocks.push_back(std::move(block));
    }
    bool has_more = false;
    std::string items = "[";
    items.reserve(text_size + 1024);  // grown piece by piece, it was copied over and over
    std::string month;
    std::size_t months = 0;
    for (const RankingBlock& block : blocks) {
        if (!serving.count(block.month)) {
            continue;
        }
        const std::int64_t block_last = block.first_rank + block.ranks - 1;
        has_more = has_more || block_last > hi;
        const std::int64_t from = std::max(lo, block.first_rank), upto = std::min(hi, block_last);
        if (from > upto) {
            continue;
        }
        if (block.month != month) {
            if (!month.empty()) {
                items += R"(],"units":)";
                items += kUnits;
                items += "},";
            }
            month = block.month;
            ++months;
            items += R"({"month":")";
            items += month;
            items += R"(","managers":[)";
        } else {
            items += ',';
        }
        items += RanksOf(block, from, upto);
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
