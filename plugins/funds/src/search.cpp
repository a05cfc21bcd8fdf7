#include "src/search.hpp"

#include "funds_model-odb.hxx"
#include "ingest/registry_rules.hpp"
#include "src/common.hpp"

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/text.hpp>
#include <lastro/sdk/uuid.hpp>

#include <boost/json/array.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <algorithm>
#include <map>

namespace lastro::funds {

namespace {

using FundQuery = odb::query<Fund>;
using ClassQuery = odb::query<FundClass>;

bool IsCnpjLike(std::string_view text) {
    bool digit = false;
    for (char c : text) {
        if (c >= '0' && c <= '9') {
            digit = true;
        } else if (c != '.' && c != '/' && c != '-') {
            return false;
        }
    }
    return digit;
}

// Non-empty folded text of an optional filter, or nullopt when there is nothing to filter on.
std::optional<std::string> FoldedFilter(const std::optional<std::string>& value) {
    if (!value) {
        return std::nullopt;
    }
    std::string folded = FoldedText(*value);
    if (folded.empty()) {
        return std::nullopt;
    }
    return folded;
}

boost::json::object FieldSources() {
    return {
        {"fund_id", "derived: UUIDv5 of registro_fundo.ID_Registro_Fundo"},
        {"cvm_code", "registro_fundo.Codigo_CVM"},
        {"cnpj", "registro_fundo.CNPJ_Fundo"},
        {"name", "registro_fundo.Denominacao_Social"},
        {"status", "registro_fundo.Situacao"},
        {"fund_type", "registro_fundo.Tipo_Fundo"},
        {"manager", "registro_fundo.Gestor"},
        {"administrator", "registro_fundo.Administrador"},
        {"registered_at", "registro_fundo.Data_Registro"},
        {"started_at", "registro_fundo.Data_Constituicao"},
        {"cancelled_at", "registro_fundo.Data_Cancelamento"},
        {"ended_at", "registro_fundo.Data_Inicio_Situacao (when Situacao is cancelled or liquidated)"},
        {"fiscal_year_end_at", "registro_fundo.Data_Fim_Exercicio_Social"},
        {"registered_patrimony_brl", "registro_fundo.Patrimonio_Liquido"},
        {"active", "derived: registro_fundo.Situacao = Em Funcionamento Normal"},
        {"classes",
         "registro_classe (ID_Registro_Classe, Codigo_CVM, CNPJ_Classe, Denominacao_Social, Situacao)"},
    };
}

}  // namespace

std::string SearchNeedle(std::string_view q) {
    std::string folded = FoldedText(q);
    if (IsCnpjLike(folded)) {
        return sdk::DigitsOnly(folded);
    }
    return folded;
}

std::string ContainsPattern(std::string_view text) {
    std::string pattern = "%";
    for (char c : text) {
        if (c == '%' || c == '_' || c == kLikeEscape.front()) {
            pattern += kLikeEscape;
        }
        pattern += c;
    }
    pattern += '%';
    return pattern;
}

SearchPage SearchFunds(odb::database& db, const SearchFilters& filters) {
    const std::string escape(kLikeEscape);
    FundQuery query(FundQuery::fidc_universe == true);
    if (filters.q) {
        if (std::string needle = SearchNeedle(*filters.q); !needle.empty()) {
            query = query && FundQuery::search_text.like(ContainsPattern(needle), escape);
        }
    }
    if (filters.cnpj) {
        query = query && FundQuery::cnpj == *filters.cnpj;
    }
    if (auto status = FoldedFilter(filters.status)) {
        query = query && FundQuery::status_folded == *status;
    }
    if (auto manager = FoldedFilter(filters.manager)) {
        query = query && FundQuery::manager_folded.like(ContainsPattern(*manager), escape);
    }
    if (auto administrator = FoldedFilter(filters.administrator)) {
        query = query && FundQuery::administrator_folded.like(ContainsPattern(*administrator), escape);
    }
    if (filters.after) {
        query = query && FundQuery::fund_id > *filters.after;
    }
    // One row past the page tells whether another page exists.
    query = query + "ORDER BY" + FundQuery::fund_id + ("LIMIT " + std::to_string(filters.limit + 1));

    SearchPage page;
    odb::result<Fund> rows(db.query<Fund>(query));
    for (const Fund& fund : rows) {
        page.funds.push_back(fund);
    }
    if (page.funds.size() > filters.limit) {
        page.funds.resize(filters.limit);
        page.has_more = true;
    }
    if (page.funds.empty()) {
        return page;
    }

    std::vector<std::string> ids;
    ids.reserve(page.funds.size());
    for (const Fund& fund : page.funds) {
        ids.push_back(fund.fund_id);
    }
    odb::result<FundClass> classes(db.query<FundClass>(ClassQuery::fund_id.in_range(ids.begin(), ids.end()) +
                                                       "ORDER BY" + ClassQuery::registry_id));
    for (const FundClass& fund_class : classes) {
        page.classes.push_back(fund_class);
    }
    return page;
}

boost::json::object FundListItem(const Fund& fund, const std::vector<const FundClass*>& classes) {
    boost::json::array class_items;
    for (const FundClass* fund_class : classes) {
        class_items.push_back(boost::json::object{
            {"class_id", fund_class->class_id},
            {"cvm_code", JsonOrNull(fund_class->cvm_code)},
            {"cnpj", JsonOrNull(fund_class->cnpj)},
            {"name", JsonOrNull(fund_class->name)},
            {"status", JsonOrNull(fund_class->status)},
        });
    }
    return {
        {"fund_id", fund.fund_id},
        {"cvm_code", JsonOrNull(fund.cvm_code)},
        {"cnpj", fund.cnpj},
        {"name", JsonOrNull(fund.name)},
        {"status", JsonOrNull(fund.status)},
        {"fund_type", JsonOrNull(fund.fund_type)},
        {"manager", JsonOrNull(fund.manager)},
        {"administrator", JsonOrNull(fund.administrator)},
        {"registered_at", JsonOrNull(fund.registered_at)},
        {"started_at", JsonOrNull(fund.constituted_at)},
        {"cancelled_at", JsonOrNull(fund.cancelled_at)},
        {"ended_at", IsEndedStatus(fund.status) ? JsonOrNull(fund.status_since) : nullptr},
        {"fiscal_year_end_at", JsonOrNull(fund.fiscal_year_end_at)},
        {"registered_patrimony_brl", JsonOrNull(fund.net_worth)},
        {"active", IsActiveStatus(fund.status)},
        {"classes", std::move(class_items)},
    };
}

std::optional<std::string> AfterFromPosition(const std::optional<boost::json::value>& position) {
    if (!position) {
        return std::nullopt;
    }
    const boost::json::object* object = position->if_object();
    const boost::json::value* after = object ? object->if_contains("after") : nullptr;
    if (!after || !after->is_string() || !sdk::IsUuid(after->get_string())) {
        throw sdk::BadRequest("the cursor was not issued by /v1/fundos", "cursor");
    }
    return std::string(after->get_string());
}

sdk::Result HandleSearch(const sdk::RequestContext& context) {
    const sdk::Params& params = context.params;
    SearchFilters filters;
    filters.q = params.String("q");
    filters.cnpj = params.String("cnpj");
    filters.status = params.String("status");
    filters.manager = params.String("manager");
    filters.administrator = params.String("administrator");
    filters.limit = static_cast<std::size_t>(std::max<std::int64_t>(1, params.Integer("limit").value_or(25)));
    filters.after = AfterFromPosition(context.cursor_position);

    sdk::Result result;
    result.meta = RegistryMeta(context.host);
    const SearchPage page = SearchFunds(context.db, filters);

    std::map<std::string, std::vector<const FundClass*>> classes_by_fund;
    for (const FundClass& fund_class : page.classes) {
        classes_by_fund[fund_class.fund_id].push_back(&fund_class);
    }
    boost::json::array data;
    for (const Fund& fund : page.funds) {
        data.push_back(FundListItem(fund, classes_by_fund[fund.fund_id]));
    }
    result.data = std::move(data);
    if (page.has_more) {
        result.meta.next_position = boost::json::object{{"after", page.funds.back().fund_id}};
    }
    result.meta.extra["universe_filter"] = boost::json::object{
        {"fund_type", "FIDC"},
        {"fund_types", boost::json::array{"FIDC", "FIDC-NP", "FIC-FIDC"}},
    };
    result.meta.extra["field_sources"] = FieldSources();
    return result;
}

}  // namespace lastro::funds
