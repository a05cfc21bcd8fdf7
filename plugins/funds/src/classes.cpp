#include "src/classes.hpp"

#include "funds_model-odb.hxx"
#include "ingest/registro_fundo_classe/registry_rules.hpp"

#include <lastro/sdk/cached_query.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>
#include <lastro/sdk/serving/json_values.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <map>

namespace lastro::funds {

using sdk::JsonOrNull;

namespace {

using ClassQuery = odb::query<FundClass>;
using SubclassQuery = odb::query<Subclass>;

}  // namespace

boost::json::object SubclassItem(const Subclass& s) {
    return {
        {"subclass_id", s.subclass_id},
        {"class_id", s.class_id},
        {"cvm_registry_id", s.registry_id},
        {"cvm_code", JsonOrNull(s.cvm_code)},
        {"name", JsonOrNull(s.name)},
        {"status", JsonOrNull(s.status)},
        {"status_since", JsonOrNull(s.status_since)},
        {"constituted_at", JsonOrNull(s.constituted_at)},
        {"started_at", JsonOrNull(s.started_at)},
        {"condominium_type", JsonOrNull(s.condominium_type)},
        {"exclusive", JsonOrNull(s.exclusive)},
        {"target_audience", JsonOrNull(s.target_audience)},
        {"pension", JsonOrNull(s.pension)},
        {"exclusive_non_resident", JsonOrNull(s.exclusive_non_resident)},
        {"exclusive_supplementary_pension", JsonOrNull(s.exclusive_supplementary_pension)},
    };
}

boost::json::object ClassItem(const FundClass& c, const std::vector<const Subclass*>& subclasses) {
    boost::json::array subclass_items;
    for (const Subclass* subclass : subclasses) {
        subclass_items.push_back(SubclassItem(*subclass));
    }
    return {
        {"class_id", c.class_id},
        {"fund_id", c.fund_id},
        {"cvm_registry_id", c.registry_id},
        {"cnpj", JsonOrNull(c.cnpj)},
        {"cvm_code", JsonOrNull(c.cvm_code)},
        {"name", JsonOrNull(c.name)},
        {"class_type", JsonOrNull(c.class_type)},
        {"status", JsonOrNull(c.status)},
        {"status_since", JsonOrNull(c.status_since)},
        {"registered_at", JsonOrNull(c.registered_at)},
        {"constituted_at", JsonOrNull(c.constituted_at)},
        {"started_at", JsonOrNull(c.started_at)},
        {"classification", JsonOrNull(c.classification)},
        {"performance_benchmark", JsonOrNull(c.performance_benchmark)},
        {"quota_class", JsonOrNull(c.quota_class)},
        {"anbima_classification", JsonOrNull(c.anbima_classification)},
        {"long_term_taxation", JsonOrNull(c.long_term_taxation)},
        {"investment_entity", JsonOrNull(c.investment_entity)},
        {"full_foreign_investment", JsonOrNull(c.full_foreign_investment)},
        {"esg", JsonOrNull(c.esg)},
        {"condominium_type", JsonOrNull(c.condominium_type)},
        {"exclusive", JsonOrNull(c.exclusive)},
        {"target_audience", JsonOrNull(c.target_audience)},
        {"registered_patrimony_brl", JsonOrNull(c.net_worth)},
        {"registered_patrimony_at", JsonOrNull(c.net_worth_at)},
        {"auditor_cnpj", JsonOrNull(c.auditor_cnpj)},
        {"auditor", JsonOrNull(c.auditor)},
        {"custodian_cnpj", JsonOrNull(c.custodian_cnpj)},
        {"custodian", JsonOrNull(c.custodian)},
        {"controller_cnpj", JsonOrNull(c.controller_cnpj)},
        {"controller", JsonOrNull(c.controller)},
        {"subclasses", std::move(subclass_items)},
    };
}

boost::json::array FundClasses(odb::database& db, const std::string& fund_id) {
    Fund fund;
    if (!db.find<Fund>(fund_id, fund)) {
        throw sdk::NotFound("no fund has fund_id " + fund_id, "fund_id");
    }

    // Both statements keep one text whatever the fund (no IN list of its classes), so each is
    // prepared once per connection: two round trips on PostgreSQL where an unprepared one
    // costs three (prepare, execute, deallocate).
    struct OfFund {
        std::string fund_id;
    };
    std::vector<FundClass> classes;
    auto class_rows = sdk::CachedQuery<FundClass, OfFund>(db, "funds.classes_of_fund", [](const OfFund& p) {
        return ClassQuery(ClassQuery::fund_id == ClassQuery::_ref(p.fund_id)) + "ORDER BY" +
               ClassQuery::registry_id;
    });
    class_rows.params.fund_id = fund_id;
    for (const FundClass& fund_class : class_rows.Execute()) {
        classes.push_back(fund_class);
    }

    std::vector<Subclass> subclasses;
    if (!classes.empty()) {
        auto subclass_rows = sdk::CachedQuery<Subclass,
                                              OfFund>(db, "funds.subclasses_of_fund", [](const OfFund& p) {
            // The subquery's condition is a column of funds_class, which names its table.
            return SubclassQuery(
                       "\"funds_subclass\".\"class_id\" IN (SELECT \"class_id\" FROM \"funds_class\" WHERE") +
                   (ClassQuery::fund_id == ClassQuery::_ref(p.fund_id)) + ") ORDER BY" +
                   SubclassQuery::registry_id;
        });
        subclass_rows.params.fund_id = fund_id;
        for (const Subclass& subclass : subclass_rows.Execute()) {
            subclasses.push_back(subclass);
        }
    }
    std::map<std::string, std::vector<const Subclass*>> by_class;
    for (const Subclass& subclass : subclasses) {
        by_class[subclass.class_id].push_back(&subclass);
    }

    boost::json::array items;
    for (const FundClass& fund_class : classes) {
        items.push_back(ClassItem(fund_class, by_class[fund_class.class_id]));
    }
    return items;
}

sdk::Result HandleClasses(const sdk::RequestContext& context) {
    const std::string fund_id = context.params.String("fund_id").value_or("");
    sdk::Result result;
    result.meta = sdk::DatasetMeta(context.host, {kRegistryDataset});
    result.data = FundClasses(context.db, fund_id);
    return result;
}

}  // namespace lastro::funds
