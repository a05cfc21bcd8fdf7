#include "src/subclasses.hpp"

#include "domain/registry/registry_rules.hpp"
#include "funds_model-odb.hxx"

#include <lastro/sdk/cached_query.hpp>
#include <lastro/sdk/query_params.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>
#include <lastro/sdk/serving/json_values.hpp>

#include <boost/json/array.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <stdexcept>

namespace lastro::funds {

using sdk::JsonOrNull;

namespace {

using AnbimaQuery = odb::query<AnbimaSubclass>;

boost::json::object SubclassItem(const AnbimaSubclass& s, const std::string& class_id) {
    return {
        {"subclass_id", s.subclass_id},
        {"class_id", class_id},
        {"anbima_code", s.anbima_code},
        {"cvm_code", JsonOrNull(s.cvm_code)},
        {"name", JsonOrNull(s.name)},
        {"status", JsonOrNull(s.status)},
        {"activity_started_at", JsonOrNull(s.activity_started_at)},
        {"first_subscription_at", JsonOrNull(s.first_subscription_at)},
        {"class_cnpj", s.class_cnpj},
        {"fund_cnpj", s.fund_cnpj},
        {"category", JsonOrNull(s.category)},
        {"type", JsonOrNull(s.type)},
        {"focus", JsonOrNull(s.focus)},
        {"investor_type", JsonOrNull(s.investor_type)},
        {"investor_characteristic", JsonOrNull(s.investor_characteristic)},
        {"opening_share", JsonOrNull(s.opening_share)},
        {"adapted_to_rcvm_175", JsonOrNull(s.adapted_to_rcvm_175)},
        {"minimum_initial_subscription_brl", JsonOrNull(s.minimum_initial_subscription)},
        {"redemption_payment_days", JsonOrNull(s.redemption_payment_days)},
    };
}

}  // namespace

std::vector<AnbimaSubclass> AnbimaSubclassesOf(odb::database& db, const ClassRef& ref) {
    std::vector<AnbimaSubclass> subclasses;
    if (ref.filing_cnpjs.empty()) {
        return subclasses;
    }
    // A class files under one or two CNPJs (SetFilingCnpjs): asked as two, the first repeated
    // when there is one, the statement keeps one text and is prepared once per connection; an
    // IN list, not two equalities joined by OR, which PostgreSQL plans anew on every call
    // (documents.cpp).
    struct OfCnpjs {
        sdk::KeyList<std::string, 2> cnpjs;
    };
    auto q = sdk::CachedQuery<AnbimaSubclass, OfCnpjs>(
        db, "funds.anbima_subclasses_of_cnpjs", [](const OfCnpjs& p) {
            return sdk::InKeys(AnbimaQuery::class_cnpj, p.cnpjs, 2) + "ORDER BY" + AnbimaQuery::anbima_code;
        });
    if (ref.filing_cnpjs.size() > 2) {
        throw std::logic_error("a class files under two CNPJs at most");
    }
    q.params.cnpjs.keys = {ref.filing_cnpjs.front(), ref.filing_cnpjs.back()};
    for (const AnbimaSubclass& subclass : q.Execute()) {
        subclasses.push_back(subclass);
    }
    return subclasses;
}

sdk::Result HandleClassSubclasses(const sdk::RequestContext& context) {
    const ClassRef ref = FindClass(context, context.params.String("class_id").value_or(""));
    boost::json::array data;
    for (const AnbimaSubclass& subclass : AnbimaSubclassesOf(context.db, ref)) {
        data.push_back(SubclassItem(subclass, ref.class_id));
    }
    sdk::Result result;
    result.meta = sdk::DatasetMeta(context.host, {kAnbimaDataset, kRegistryDataset});
    result.data = std::move(data);
    return result;
}

}  // namespace lastro::funds
