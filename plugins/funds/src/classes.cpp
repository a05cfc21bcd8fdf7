#include "src/classes.hpp"

#include "domain/registry/registry_rules.hpp"
#include "funds_model-odb.hxx"

#include <lastro/sdk/cached_query.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>
#include <lastro/sdk/serving/json_text.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <map>

namespace lastro::funds {

namespace {

using ClassQuery = odb::query<FundClass>;
using SubclassQuery = odb::query<Subclass>;

}  // namespace

void WriteSubclass(sdk::JsonText& json, const Subclass& s) {
    json.BeginObject();
    json.Key("subclass_id").Value(s.subclass_id);
    json.Key("class_id").Value(s.class_id);
    json.Key("cvm_registry_id").Value(s.registry_id);
    json.Key("cvm_code").Value(s.cvm_code);
    json.Key("name").Value(s.name);
    json.Key("status").Value(s.status);
    json.Key("status_since").Value(s.status_since);
    json.Key("constituted_at").Value(s.constituted_at);
    json.Key("started_at").Value(s.started_at);
    json.Key("condominium_type").Value(s.condominium_type);
    json.Key("exclusive").Value(s.exclusive);
    json.Key("target_audience").Value(s.target_audience);
    json.Key("pension").Value(s.pension);
    json.Key("exclusive_non_resident").Value(s.exclusive_non_resident);
    json.Key("exclusive_supplementary_pension").Value(s.exclusive_supplementary_pension);
    json.EndObject();
}

void WriteClass(sdk::JsonText& json, const FundClass& c, const std::vector<const Subclass*>& subclasses) {
    json.BeginObject();
    json.Key("class_id").Value(c.class_id);
    json.Key("fund_id").Value(c.fund_id);
    json.Key("cvm_registry_id").Value(c.registry_id);
    json.Key("cnpj").Value(c.cnpj);
    json.Key("cvm_code").Value(c.cvm_code);
    json.Key("name").Value(c.name);
    json.Key("class_type").Value(c.class_type);
    json.Key("status").Value(c.status);
    json.Key("status_since").Value(c.status_since);
    json.Key("registered_at").Value(c.registered_at);
    json.Key("constituted_at").Value(c.constituted_at);
    json.Key("started_at").Value(c.started_at);
    json.Key("classification").Value(c.classification);
    json.Key("performance_benchmark").Value(c.performance_benchmark);
    json.Key("quota_class").Value(c.quota_class);
    json.Key("anbima_classification").Value(c.anbima_classification);
    json.Key("long_term_taxation").Value(c.long_term_taxation);
    json.Key("investment_entity").Value(c.investment_entity);
    json.Key("full_foreign_investment").Value(c.full_foreign_investment);
    json.Key("esg").Value(c.esg);
    json.Key("condominium_type").Value(c.condominium_type);
    json.Key("exclusive").Value(c.exclusive);
    json.Key("target_audience").Value(c.target_audience);
    json.Key("registered_patrimony_brl").Value(c.net_worth);
    json.Key("registered_patrimony_at").Value(c.net_worth_at);
    json.Key("auditor_cnpj").Value(c.auditor_cnpj);
    json.Key("auditor").Value(c.auditor);
    json.Key("custodian_cnpj").Value(c.custodian_cnpj);
    json.Key("custodian").Value(c.custodian);
    json.Key("controller_cnpj").Value(c.controller_cnpj);
    json.Key("controller").Value(c.controller);
    json.Key("subclasses").BeginArray();
    for (const Subclass* subclass : subclasses) {
        WriteSubclass(json, *subclass);
    }
    json.EndArray();
    json.EndObject();
}

FundClassesJson FundClasses(odb::database& db, const std::string& fund_id) {
    // Both statements keep one text whatever the fund (no IN list of its classes), so each is
    // prepared once per connection: two round trips on PostgreSQL where an unprepared one
    // costs three (prepare, execute, deallocate).
    struct OfFund {
        std::string fund_id;
    };
    std::vector<FundClass> classes;
    // The classes only while their fund is in the registry, so that a fund with classes is known
    // to exist from this statement alone and only one without them (or an unknown id) is looked
    // up: one round trip fewer for nearly every call.
    auto class_rows = sdk::CachedQuery<FundClass, OfFund>(db, "funds.classes_of_fund", [](const OfFund& p) {
        return ClassQuery(ClassQuery::fund_id == ClassQuery::_ref(p.fund_id)) +
               "AND EXISTS (SELECT 1 FROM \"funds_fund\" WHERE \"funds_fund\".\"fund_id\" =" +
               ClassQuery::fund_id + ") ORDER BY" + ClassQuery::registry_id;
    });
    class_rows.params.fund_id = fund_id;
    for (const FundClass& fund_class : class_rows.Execute()) {
        classes.push_back(fund_class);
    }
    if (Fund fund; classes.empty() && !db.find<Fund>(fund_id, fund)) {
        throw sdk::NotFound("no fund has fund_id " + fund_id, "fund_id");
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

    sdk::JsonText json;
    json.BeginArray();
    for (const FundClass& fund_class : classes) {
        WriteClass(json, fund_class, by_class[fund_class.class_id]);
    }
    json.EndArray();
    return {json.Take(), classes.size()};
}

sdk::Result HandleClasses(const sdk::RequestContext& context) {
    const std::string fund_id = context.params.String("fund_id").value_or("");
    sdk::Result result;
    result.meta = sdk::DatasetMeta(context.host, {kRegistryDataset});
    FundClassesJson classes = FundClasses(context.db, fund_id);
    result.data_json = std::move(classes.json);
    result.meta.row_count = classes.rows;
    return result;
}

}  // namespace lastro::funds
