#include "src/resolve.hpp"

#include "domain/registry/registry_lookup.hpp"
#include "domain/registry/registry_rules.hpp"
#include "funds_model-odb.hxx"
#include "funds_model.hxx"
#include "src/class_reports.hpp"

#include <lastro/sdk/cached_query.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>
#include <lastro/sdk/serving/json_values.hpp>

#include <boost/json/array.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <set>
#include <string>

namespace lastro::funds {

using sdk::JsonOrNull;

namespace {

constexpr const char* kLocators[] = {"cnpj", "cvm_code", "anbima_code"};

std::int64_t ParseCvmCode(const std::string& text) {
    std::int64_t value = 0;
    const char* end = text.data() + text.size();
    auto [ptr, error] = std::from_chars(text.data(), end, value);
    const bool digits =
        !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits || error != std::errc() || ptr != end) {
        throw sdk::InvalidParameter("cvm_code", "cvm_code must be a number (digits only)");
    }
    return value;
}

}  // namespace

Locator ReadLocator(const sdk::Params& params) {
    std::vector<Locator> given;
    for (const char* name : kLocators) {
        if (auto value = params.String(name)) {
            given.push_back({name, *value});
        }
    }
    if (given.size() != 1) {
        throw sdk::BadRequest("give exactly one of cnpj, cvm_code, anbima_code");
    }
    return given.front();
}

boost::json::object Resolve(odb::database& db, const Locator& locator) {
    Located located;
    std::string not_found;
    if (locator.name == "cnpj") {
        located = LocateByCnpj(db, locator.value);
        not_found = "no fund or class matches cnpj " + locator.value;
    } else if (locator.name == "cvm_code") {
        located = LocateByCvmCode(db, ParseCvmCode(locator.value));
        not_found = "no fund, class or subclass matches cvm_code " + locator.value;
    } else {
        // An ANBIMA subclass is answered by its class, like a CVM subclass code.
        using AnbimaQuery = odb::query<AnbimaSubclass>;
        struct ByCode {
            std::string value;
        };
        auto q = sdk::CachedQuery<AnbimaSubclass, ByCode>(
            db, "funds.anbima_subclass_by_code",
            [](const ByCode& p) { return AnbimaQuery::anbima_code == AnbimaQuery::_ref(p.value); });
        q.params.value = locator.value;
        AnbimaSubclass subclass;
        if (!q.ExecuteOne(subclass)) {
            throw sdk::NotFound("no ANBIMA-source subclass has anbima_code " + locator.value, "anbima_code");
        }
        located = LocateAnbimaSubclass(db, subclass);
        not_found = "anbima_code " + locator.value + " belongs to class CNPJ " + subclass.class_cnpj +
                    ", which is not a class of the registry";
    }
    if (located.Empty()) {
        throw sdk::NotFound(not_found, locator.name);
    }

    std::set<std::string> involved_funds;
    boost::json::array fund_items;
    for (const LocatedFund& fund : located.funds) {
        involved_funds.insert(fund.fund_id);
        boost::json::array class_ids;
        for (const std::string& id : fund.class_ids) {
            class_ids.push_back(boost::json::value(id));
        }
        fund_items.push_back(boost::json::object{
            {"fund_id", fund.fund_id},
            {"cvm_code", JsonOrNull(fund.cvm_code)},
            {"cnpj", fund.cnpj},
            {"name", JsonOrNull(fund.name)},
            {"status", JsonOrNull(fund.status)},
            {"fund_type", JsonOrNull(fund.fund_type)},
            {"valid_from", JsonOrNull(fund.valid_from)},
            {"valid_to", JsonOrNull(fund.valid_to)},
            {"matched_as", fund.matched_as},
            {"class_ids", std::move(class_ids)},
        });
    }
    boost::json::array class_items;
    for (const LocatedClass& fund_class : located.classes) {
        involved_funds.insert(fund_class.fund_id);
        class_items.push_back(boost::json::object{
            {"class_id", fund_class.class_id},
            {"fund_id", fund_class.fund_id},
            {"cvm_code", JsonOrNull(fund_class.cvm_code)},
            {"cnpj", JsonOrNull(fund_class.cnpj)},
            {"name", JsonOrNull(fund_class.name)},
            {"status", JsonOrNull(fund_class.status)},
            {"class_type", JsonOrNull(fund_class.class_type)},
            {"valid_from", JsonOrNull(fund_class.valid_from)},
            {"valid_to", JsonOrNull(fund_class.valid_to)},
            {"matched_as", fund_class.matched_as},
        });
    }

    const bool unique = involved_funds.size() == 1 && located.classes.size() <= 1;
    return {
        {"query", boost::json::object{{locator.name, locator.value}}},
        {"resolution", unique ? "unique" : "multiple"},
        {"identity_status", "persistent_registry"},
        {"funds", std::move(fund_items)},
        {"classes", std::move(class_items)},
    };
}

sdk::Result HandleResolve(const sdk::RequestContext& context) {
    const Locator locator = ReadLocator(context.params);
    sdk::Result result;
    // An ANBIMA code is answered from the registry through the ANBIMA subclasses.
    result.meta = locator.name == "anbima_code"
                      ? sdk::DatasetMeta(context.host, {kRegistryDataset, kAnbimaDataset})
                      : sdk::DatasetMeta(context.host, {kRegistryDataset});
    boost::json::object data = Resolve(context.db, locator);
    result.meta.row_count = data.at("funds").as_array().size() + data.at("classes").as_array().size();
    result.meta.extra["identity_status"] = "persistent_registry";
    result.data = std::move(data);
    return result;
}

}  // namespace lastro::funds
