// GET /v1/industria (docs/api/industria.md): the derived items of one indicator over the months
// served; nothing is computed per request.
#include "industry_model-odb.hxx"
#include "industry_model.hxx"
#include "src/handlers.hpp"
#include "src/served_period.hpp"

#include <boost/json/parse.hpp>
#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <set>

namespace lastro::industry {

sdk::Result HandleIndicators(const sdk::RequestContext& context) {
    const std::string indicator = context.params.String("indicador").value_or("resumo");
    ServedPeriod served = ServePeriod(context);
    const std::set<std::string> serving(served.months.begin(), served.months.end());
    boost::json::array items;
    using Query = odb::query<IndicatorItem>;
    for (const IndicatorItem& item : context.db.query<IndicatorItem>(
             Query(Query::indicator == indicator && Query::include_fic_fidc == served.include_fic_fidc &&
                   Query::month >= served.period.from && Query::month <= served.period.to) +
             "ORDER BY" + Query::month)) {
        if (serving.count(item.month)) {
            items.push_back(boost::json::parse(item.item_json));
        }
    }
    sdk::Result result;
    result.meta = ResponseMeta(context, served, items.size());
    boost::json::object pagination{{"months", static_cast<std::int64_t>(items.size())}, {"has_more", false}};
    result.data =
        ResponseData(std::move(served), "indicator", indicator, std::move(items), std::move(pagination));
    return result;
}

}  // namespace lastro::industry
