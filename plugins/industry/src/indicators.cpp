// GET /v1/industria (docs/api/industria.md): the derived items of one indicator over the months
// served, spliced as stored; nothing is computed per request.
#include "industry_model-odb.hxx"
#include "industry_model.hxx"
#include "src/handlers.hpp"
#include "src/served_period.hpp"

#include <lastro/sdk/cached_query.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace lastro::industry {
namespace {

struct ItemRange {
    std::string indicator;
    bool include_fic_fidc = true;
    std::string from;
    std::string to;
};

}  // namespace

sdk::Result HandleIndicators(const sdk::RequestContext& context) {
    const std::string indicator = context.params.String("indicador").value_or("resumo");
    ServedPeriod served = ServePeriod(context);
    const std::set<std::string> serving(served.months.begin(), served.months.end());
    using Query = odb::query<IndicatorItem>;
    auto q = sdk::CachedQuery<IndicatorItem, ItemRange>(
        context.db, "industry.indicator_items", [](const ItemRange& p) {
            return Query(Query::indicator == Query::_ref(p.indicator) &&
                         Query::include_fic_fidc == Query::_ref(p.include_fic_fidc) &&
                         Query::month >= Query::_ref(p.from) && Query::month <= Query::_ref(p.to)) +
                   "ORDER BY" + Query::month;
        });
    q.params.indicator = indicator;
    q.params.include_fic_fidc = served.include_fic_fidc;
    q.params.from = served.period.from;
    q.params.to = served.period.to;
    // The served months' stored texts, joined once their size is known (grown as they came, the
    // answer was copied at each of its reallocations).
    std::vector<std::string> texts;
    std::size_t bytes = 2;
    for (IndicatorItem& item : q.Execute()) {
        if (serving.count(item.month)) {
            bytes += item.item_json.size() + 1;
            texts.push_back(std::move(item.item_json));
        }
    }
    const std::size_t rows = texts.size();
    std::string items;
    items.reserve(bytes);
    items += '[';
    for (const std::string& text : texts) {
        items += (items.size() > 1 ? "," : "");
        items += text;
    }
    items += ']';
    const std::string pagination = R"({"months":)" + std::to_string(rows) + R"(,"has_more":false})";
    return Respond(context, std::move(served), "indicator", indicator, items, rows, pagination);
}

}  // namespace lastro::industry
