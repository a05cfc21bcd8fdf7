#include "src/portfolio_assets.hpp"

#include "funds_model-odb.hxx"
#include "src/cda_holder.hpp"
#include "src/class_reports.hpp"
#include "src/common.hpp"

#include <lastro/sdk/problem.hpp>

#include <boost/json/array.hpp>
#include <boost/json/parse.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <algorithm>
#include <map>
#include <stdexcept>

namespace lastro::funds {

namespace {

using PositionQuery = odb::query<CdaPosition>;

// The published columns outside the typed ones, as the ingester kept them.
boost::json::object Details(const CdaPosition& position) {
    boost::system::error_code error;
    boost::json::value details = boost::json::parse(position.details_json, error);
    if (error || !details.is_object()) {
        throw std::runtime_error("CDA position " + std::to_string(position.id) +
                                 " has malformed details_json");
    }
    return std::move(details.as_object());
}

boost::json::object PositionItem(const CdaPosition& p) {
    return {
        {"position_id", p.month + ":" + std::to_string(p.ordinal)},
        {"block", p.block},
        {"block_name", JsonOrNull(CdaBlockName(p.block))},
        {"application_type", JsonOrNull(p.application_type)},
        {"asset_type", JsonOrNull(p.asset_type)},
        {"related_issuer", JsonOrNull(p.related_issuer)},
        {"trade_type", JsonOrNull(p.trade_type)},
        {"quantity_sold", JsonOrNull(p.quantity_sold)},
        {"value_sold_brl", JsonOrNull(p.value_sold)},
        {"quantity_acquired", JsonOrNull(p.quantity_acquired)},
        {"value_acquired_brl", JsonOrNull(p.value_acquired)},
        {"quantity", JsonOrNull(p.quantity)},
        {"market_value_brl", JsonOrNull(p.market_value)},
        {"cost_value_brl", JsonOrNull(p.cost_value)},
        {"confidential_until", JsonOrNull(p.confidential_until)},
        {"asset_code", JsonOrNull(p.asset_code)},
        {"isin", JsonOrNull(p.isin)},
        {"description", JsonOrNull(p.description)},
        {"issuer", JsonOrNull(p.issuer)},
        {"issuer_document", JsonOrNull(p.issuer_document)},
        {"maturity", JsonOrNull(p.maturity)},
        {"invested_cnpj", JsonOrNull(p.invested_cnpj)},
        {"invested_name", JsonOrNull(p.invested_name)},
        {"details", Details(p)},
    };
}

boost::json::object FieldSources() {
    return {
        {"position_id",
         "derived: <month>:<ordinal>, the position's place in the month's CDA (block, then line)"},
        {"block", "cda_fi member: BLC_1..BLC_8, or FIE for cda_fie"},
        {"block_name", "derived: the CDA layout's name of the block"},
        {"application_type", "cda_fi.TP_APLIC"},
        {"asset_type", "cda_fi.TP_ATIVO"},
        {"related_issuer", "cda_fi.EMISSOR_LIGADO"},
        {"trade_type", "cda_fi.TP_NEGOC"},
        {"quantity_sold", "cda_fi.QT_VENDA_NEGOC"},
        {"value_sold_brl", "cda_fi.VL_VENDA_NEGOC"},
        {"quantity_acquired", "cda_fi.QT_AQUIS_NEGOC"},
        {"value_acquired_brl", "cda_fi.VL_AQUIS_NEGOC"},
        {"quantity", "cda_fi.QT_POS_FINAL"},
        {"market_value_brl", "cda_fi.VL_MERC_POS_FINAL"},
        {"cost_value_brl", "cda_fi.VL_CUSTO_POS_FINAL"},
        {"confidential_until", "cda_fi.DT_CONFID_APLIC"},
        {"asset_code", "cda_fi.CD_ATIVO, else CD_SELIC, CD_SWAP or CD_ATIVO_BV_MERC"},
        {"isin", "cda_fi.CD_ISIN"},
        {"description", "cda_fi.DS_ATIVO, else TP_TITPUB, DS_SWAP, TITULO_POSFX, ..."},
        {"issuer", "cda_fi.EMISSOR"},
        {"issuer_document", "cda_fi.CNPJ_EMISSOR or CPF_CNPJ_EMISSOR"},
        {"maturity", "cda_fi.DT_VENC"},
        {"invested_cnpj", "cda_fi BLC_2.CNPJ_FUNDO_CLASSE_COTA"},
        {"invested_name", "cda_fi BLC_2.NM_FUNDO_CLASSE_SUBCLASSE_COTA"},
        {"details", "the block's other non-empty columns, as published"},
    };
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

std::optional<std::int64_t> AfterOrdinal(const std::optional<boost::json::value>& position) {
    if (!position) {
        return std::nullopt;
    }
    const boost::json::object* object = position->if_object();
    const boost::json::value* after = object ? object->if_contains("after") : nullptr;
    if (!after || !after->is_int64() || after->get_int64() < 0) {
        throw sdk::BadRequest("the cursor was not issued by /v1/classes/{class_id}/carteira/ativos",
                              "cursor");
    }
    return after->get_int64();
}

sdk::Result HandleClassPortfolioAssets(const sdk::RequestContext& context) {
    const sdk::Params& params = context.params;
    const sdk::Month month = RequiredMonth(params);
    const auto limit =
        static_cast<std::size_t>(std::max<std::int64_t>(1, params.Integer("limit").value_or(100)));
    const std::optional<std::int64_t> after = AfterOrdinal(context.cursor_position);
    const ClassRef ref = FindClass(context.db, params.String("class_id").value_or(""));
    const CdaHolder holder = RequireCdaHolder(context.db, ref, month);

    PositionQuery query(PositionQuery::cnpj == holder.cnpj && PositionQuery::month == holder.month);
    if (after) {
        query = query && PositionQuery::ordinal > *after;
    }
    // One row past the page tells whether another page exists.
    query = query + "ORDER BY" + PositionQuery::ordinal + ("LIMIT " + std::to_string(limit + 1));
    std::vector<CdaPosition> positions;
    odb::result<CdaPosition> rows(context.db.query<CdaPosition>(query));
    for (const CdaPosition& position : rows) {
        positions.push_back(position);
    }

    sdk::Result result;
    result.meta = DatasetMeta(context.host, kCdaDataset);
    result.meta.sources.push_back({"cvm", "registro_fundo_classe"});
    if (positions.size() > limit) {
        positions.resize(limit);
        result.meta.next_position = boost::json::object{{"after", positions.back().ordinal}};
    }
    boost::json::array data;
    for (const CdaPosition& position : positions) {
        data.push_back(PositionItem(position));
    }
    result.data = std::move(data);
    result.meta.extra["month"] = month.ToString();
    result.meta.extra["holder_cnpj"] = holder.cnpj;
    result.meta.extra["holder_nav_brl"] = JsonOrNull(holder.nav);
    result.meta.extra["positions_total"] = holder.positions;
    result.meta.extra["confidential_rows_absent"] = holder.confidential_rows;
    result.meta.extra["field_sources"] = FieldSources();
    return result;
}

}  // namespace lastro::funds
