#include "src/portfolio_assets.hpp"

#include "domain/registry/registry_rules.hpp"
#include "funds_model-odb.hxx"
#include "src/cda_holder.hpp"
#include "src/class_reports.hpp"

#include <lastro/sdk/cached_query.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>
#include <lastro/sdk/serving/json_text.hpp>
#include <lastro/sdk/serving/json_values.hpp>
#include <lastro/sdk/serving/pagination.hpp>

#include <boost/describe/class.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>
#include <string_view>

namespace lastro::funds {

using sdk::JsonOrNull;

namespace {

using PositionQuery = odb::query<CdaPosition>;

// Where a page starts: after this position ordinal (the keyset is the ordinal ascending).
struct AssetsAfter {
    std::int64_t after = 0;
    bool Valid() const { return after >= 0; }
};
BOOST_DESCRIBE_STRUCT(AssetsAfter, (), (after))

// The published columns outside the typed ones, as the ingester kept them: a JSON object its
// serializer wrote (CdaMemberReader::DetailsJson), written into the answer as it is stored.
std::string_view Details(const CdaPosition& position) {
    const std::string& details = position.details_json;
    if (details.size() < 2 || details.front() != '{' || details.back() != '}') {
        throw std::runtime_error("CDA position " + std::to_string(position.id) +
                                 " has malformed details_json");
    }
    return details;
}

void WritePosition(sdk::JsonText& json, const CdaPosition& p) {
    json.BeginObject();
    json.Key("position_id").Value(p.month + ":" + std::to_string(p.ordinal));
    json.Key("block").Value(p.block);
    json.Key("block_name").Value(CdaBlockName(p.block));
    json.Key("application_type").Value(p.application_type);
    json.Key("asset_type").Value(p.asset_type);
    json.Key("related_issuer").Value(p.related_issuer);
    json.Key("trade_type").Value(p.trade_type);
    json.Key("quantity_sold").Value(p.quantity_sold);
    json.Key("value_sold_brl").Value(p.value_sold);
    json.Key("quantity_acquired").Value(p.quantity_acquired);
    json.Key("value_acquired_brl").Value(p.value_acquired);
    json.Key("quantity").Value(p.quantity);
    json.Key("market_value_brl").Value(p.market_value);
    json.Key("cost_value_brl").Value(p.cost_value);
    json.Key("confidential_until").Value(p.confidential_until);
    json.Key("asset_code").Value(p.asset_code);
    json.Key("isin").Value(p.isin);
    json.Key("description").Value(p.description);
    json.Key("issuer").Value(p.issuer);
    json.Key("issuer_document").Value(p.issuer_document);
    json.Key("maturity").Value(p.maturity);
    json.Key("invested_cnpj").Value(p.invested_cnpj);
    json.Key("invested_name").Value(p.invested_name);
    json.Key("details").Raw(Details(p));
    json.EndObject();
}

}  // namespace

std::optional<std::string> CdaBlockName(const std::string& block) {
    static const std::map<std::string, std::string> kNames = {
        {"BLC_1", "Títulos Públicos do SELIC"},
        {"BLC_2", "Cotas de Fundos"},
        {"BLC_3", "Swap"},
        {"BLC_4", "Demais Ativos Codificados"},
        {"BLC_5", "Depósitos a Prazo e outros Títulos de Instituições Financeiras"},
        {"BLC_6", "Títulos do Agronegócio e de Crédito Privado"},
        {"BLC_7", "Investimento no Exterior"},
        {"BLC_8", "Demais Ativos Não Codificados"},
        {"FIE", "Aplicações de Fundos de Investimento Especialmente Constituídos (FIE)"},
    };
    auto it = kNames.find(block);
    if (it == kNames.end()) {
        return std::nullopt;
    }
    return it->second;
}

sdk::Result HandleClassPortfolioAssets(const sdk::RequestContext& context) {
    const sdk::Params& params = context.params;
    const sdk::Month month = RequiredMonth(params);
    const std::size_t limit = sdk::PageLimit(params, 100);
    const std::optional<AssetsAfter> from =
        sdk::ReadPosition<AssetsAfter>(context.cursor_position, "/v1/classes/{class_id}/carteira/ativos");
    const ClassRef ref = FindClass(context, params.String("class_id").value_or(""));
    const CdaHolder holder = RequireCdaHolder(context.db, ref, month);

    // A page reads one row past its limit to tell whether another exists. The statement is
    // prepared once per connection and page size: a size is the limit plus one rounded up to
    // one of a few (ODB binds no LIMIT parameter), so a page reads at most about twice the rows
    // it shows and a connection holds six statements at most.
    struct PageOf {
        std::string cnpj;
        std::string month;
        std::int64_t after = 0;
    };
    struct Size {
        std::size_t rows;
        const char* name;
    };
    static constexpr Size kSizes[] = {{11, "funds.positions_page_11"},   {26, "funds.positions_page_26"},
                                      {51, "funds.positions_page_51"},   {101, "funds.positions_page_101"},
                                      {201, "funds.positions_page_201"}, {501, "funds.positions_page_501"}};
    const Size* size = std::find_if(std::begin(kSizes), std::end(kSizes) - 1,
                                    [&](const Size& s) { return s.rows >= limit + 1; });
    if (limit + 1 > size->rows) {
        throw std::logic_error("carteira/ativos: limit " + std::to_string(limit) +
                               " above its manifest's maximum");
    }
    const std::string tail = "LIMIT " + std::to_string(size->rows);
    auto q = sdk::CachedQuery<CdaPosition, PageOf>(context.db, size->name, [&](const PageOf& p) {
        return (PositionQuery::cnpj == PositionQuery::_ref(p.cnpj) &&
                PositionQuery::month == PositionQuery::_ref(p.month) &&
                PositionQuery::ordinal > PositionQuery::_ref(p.after)) +
               "ORDER BY" + PositionQuery::ordinal + tail;
    });
    q.params = {holder.cnpj, holder.month, from ? from->after : std::numeric_limits<std::int64_t>::min()};
    std::vector<CdaPosition> positions;
    for (const CdaPosition& position : q.Execute()) {
        if (positions.size() == limit + 1) {
            break;  // the rest of the result is dropped with it
        }
        positions.push_back(position);
    }

    sdk::Result result;
    result.meta = sdk::DatasetMeta(context.host, {kCdaDataset, kRegistryDataset});
    result.meta.as_of = month.ToString();  // the reference period: the portfolio's month (contract 2.2)
    if (sdk::CutToPage(positions, limit)) {
        result.meta.next_position = sdk::PositionValue(AssetsAfter{positions.back().ordinal});
    }
    sdk::JsonText json;
    json.BeginArray();
    for (const CdaPosition& position : positions) {
        WritePosition(json, position);
    }
    json.EndArray();
    result.data_json = json.Take();
    result.meta.row_count = positions.size();
    result.meta.extra["month"] = month.ToString();
    result.meta.extra["holder_cnpj"] = holder.cnpj;
    result.meta.extra["holder_nav_brl"] = JsonOrNull(holder.nav);
    result.meta.extra["positions_total"] = holder.positions;
    result.meta.extra["confidential_rows_absent"] = holder.confidential_rows;
    return result;
}

}  // namespace lastro::funds
