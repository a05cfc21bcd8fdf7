#include "src/resolve.hpp"

#include "funds_model-odb.hxx"
#include "funds_model.hxx"
#include "ingest/registry_rules.hpp"
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
#include <map>
#include <set>
#include <vector>

namespace lastro::funds {

using sdk::JsonOrNull;

namespace {

using FundQuery = odb::query<Fund>;
using ClassQuery = odb::query<FundClass>;
using SubclassQuery = odb::query<Subclass>;
using AnbimaQuery = odb::query<AnbimaSubclass>;

constexpr const char* kLocators[] = {"cnpj", "cvm_code", "anbima_code"};

struct FundMatch {
    Fund fund;
    std::string matched_as;
};

struct ClassMatch {
    FundClass fund_class;
    std::string matched_as;
};

template <typename T>
std::vector<T> Load(odb::database& db, const odb::query<T>& query) {
    std::vector<T> objects;
    odb::result<T> rows(db.query<T>(query));
    for (const T& object : rows) {
        objects.push_back(object);
    }
    return objects;
}

// The hot lookups by CNPJ, prepared once per connection (sdk/cached_query.hpp).
struct ByText {
    std::string value;
};

std::vector<Fund> FundsByCnpj(odb::database& db, const std::string& cnpj) {
    auto q = sdk::CachedQuery<Fund, ByText>(db, "funds.funds_by_cnpj", [](const ByText& p) {
        return FundQuery::cnpj == FundQuery::_ref(p.value);
    });
    q.params.value = cnpj;
    std::vector<Fund> funds;
    for (Fund& fund : q.Execute()) {
        funds.push_back(std::move(fund));
    }
    return funds;
}

std::vector<FundClass> ClassesByCnpj(odb::database& db, const std::string& cnpj) {
    auto q = sdk::CachedQuery<FundClass, ByText>(db, "funds.classes_by_cnpj", [](const ByText& p) {
        return ClassQuery::cnpj == ClassQuery::_ref(p.value);
    });
    q.params.value = cnpj;
    std::vector<FundClass> classes;
    for (FundClass& fund_class : q.Execute()) {
        classes.push_back(std::move(fund_class));
    }
    return classes;
}

// The ids of a fund's classes in registry order (only the ids: a class row has 30 columns).
std::vector<std::string> ClassIdsOfFund(odb::database& db, const std::string& fund_id) {
    auto q = sdk::CachedQuery<FundClassId, ByText>(db, "funds.class_ids_of_fund", [](const ByText& p) {
        return odb::query<FundClassId>((ClassQuery::fund_id == ClassQuery::_ref(p.value)) + "ORDER BY" +
                                       ClassQuery::registry_id);
    });
    q.params.value = fund_id;
    std::vector<std::string> ids;
    for (FundClassId& row : q.Execute()) {
        ids.push_back(std::move(row.class_id));
    }
    return ids;
}

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

// Newest registration first, so the entry in force tends to lead; ids break ties.
bool NewerFirst(const std::optional<std::string>& a_date, const std::string& a_id,
                const std::optional<std::string>& b_date, const std::string& b_id) {
    if (a_date != b_date) {
        return a_date > b_date;
    }
    return a_id < b_id;
}

// The classes whose ANBIMA subclasses include `subclass` (src/subclasses.hpp): the class with
// its class CNPJ, and the only class of a fund with that CNPJ.
std::vector<FundClass> ClassesOfAnbimaSubclass(odb::database& db, const AnbimaSubclass& subclass) {
    std::vector<FundClass> classes = Load(db, ClassQuery(ClassQuery::cnpj == subclass.class_cnpj));
    for (const Fund& fund : Load(db, FundQuery(FundQuery::cnpj == subclass.class_cnpj))) {
        std::vector<FundClass> siblings = Load(db, ClassQuery(ClassQuery::fund_id == fund.fund_id));
        if (siblings.size() == 1) {
            classes.push_back(std::move(siblings.front()));
        }
    }
    return classes;
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
    std::vector<FundMatch> funds;
    std::vector<ClassMatch> classes;
    std::string not_found;
    if (locator.name == "cnpj") {
        for (Fund& fund : FundsByCnpj(db, locator.value)) {
            funds.push_back({std::move(fund), "fund_cnpj"});
        }
        for (FundClass& fund_class : ClassesByCnpj(db, locator.value)) {
            classes.push_back({std::move(fund_class), "class_cnpj"});
        }
        not_found = "no fund or class matches cnpj " + locator.value;
    } else if (locator.name == "cvm_code") {
        const std::int64_t code = ParseCvmCode(locator.value);
        for (Fund& fund : Load(db, FundQuery(FundQuery::cvm_code == code))) {
            funds.push_back({std::move(fund), "fund_cvm_code"});
        }
        for (FundClass& fund_class : Load(db, ClassQuery(ClassQuery::cvm_code == code))) {
            classes.push_back({std::move(fund_class), "class_cvm_code"});
        }
        // A subclass has no id of its own in this response: its class stands for it.
        std::vector<std::string> class_ids;
        for (const Subclass& subclass : Load(db, SubclassQuery(SubclassQuery::cvm_code == code))) {
            class_ids.push_back(subclass.class_id);
        }
        if (!class_ids.empty()) {
            for (FundClass& fund_class :
                 Load(db, ClassQuery(ClassQuery::class_id.in_range(class_ids.begin(), class_ids.end())))) {
                classes.push_back({std::move(fund_class), "subclass_cvm_code"});
            }
        }
        not_found = "no fund, class or subclass matches cvm_code " + locator.value;
    } else {
        // An ANBIMA subclass is answered by its class, like a CVM subclass code.
        AnbimaSubclass subclass;
        if (!db.query_one<AnbimaSubclass>(AnbimaQuery::anbima_code == locator.value, subclass)) {
            throw sdk::NotFound("no ANBIMA-source subclass has anbima_code " + locator.value, "anbima_code");
        }
        for (FundClass& fund_class : ClassesOfAnbimaSubclass(db, subclass)) {
            classes.push_back({std::move(fund_class), "anbima_code"});
        }
        not_found = "anbima_code " + locator.value + " belongs to class CNPJ " + subclass.class_cnpj +
                    ", which is not a class of the registry";
    }
    if (funds.empty() && classes.empty()) {
        throw sdk::NotFound(not_found, locator.name);
    }

    // A class matched twice (by its own code and by a subclass's) is listed once, by the
    // first reason: its own match.
    std::set<std::string> seen_classes;
    std::vector<ClassMatch> unique_classes;
    for (ClassMatch& match : classes) {
        if (seen_classes.insert(match.fund_class.class_id).second) {
            unique_classes.push_back(std::move(match));
        }
    }
    classes = std::move(unique_classes);
    std::sort(funds.begin(), funds.end(), [](const FundMatch& a, const FundMatch& b) {
        return NewerFirst(a.fund.registered_at, a.fund.fund_id, b.fund.registered_at, b.fund.fund_id);
    });
    std::sort(classes.begin(), classes.end(), [](const ClassMatch& a, const ClassMatch& b) {
        return NewerFirst(a.fund_class.registered_at, a.fund_class.class_id, b.fund_class.registered_at,
                          b.fund_class.class_id);
    });

    // Every class of the matched funds, for class_ids.
    std::map<std::string, std::vector<std::string>> class_ids_by_fund;
    std::set<std::string> involved_funds;
    for (const ClassMatch& match : classes) {
        involved_funds.insert(match.fund_class.fund_id);
    }
    for (const FundMatch& match : funds) {
        involved_funds.insert(match.fund.fund_id);
        auto& ids = class_ids_by_fund[match.fund.fund_id];
        if (ids.empty()) {
            ids = ClassIdsOfFund(db, match.fund.fund_id);
        }
    }

    boost::json::array fund_items;
    for (const FundMatch& match : funds) {
        const Fund& fund = match.fund;
        boost::json::array class_ids;
        for (const std::string& id : class_ids_by_fund[fund.fund_id]) {
            class_ids.push_back(boost::json::value(id));
        }
        fund_items.push_back(boost::json::object{
            {"fund_id", fund.fund_id},
            {"cvm_code", JsonOrNull(fund.cvm_code)},
            {"cnpj", fund.cnpj},
            {"name", JsonOrNull(fund.name)},
            {"status", JsonOrNull(fund.status)},
            {"fund_type", JsonOrNull(fund.fund_type)},
            {"valid_from", JsonOrNull(fund.registered_at)},
            {"valid_to", JsonOrNull(fund.cancelled_at)},
            {"matched_as", match.matched_as},
            {"class_ids", std::move(class_ids)},
        });
    }
    boost::json::array class_items;
    for (const ClassMatch& match : classes) {
        const FundClass& fund_class = match.fund_class;
        class_items.push_back(boost::json::object{
            {"class_id", fund_class.class_id},
            {"fund_id", fund_class.fund_id},
            {"cvm_code", JsonOrNull(fund_class.cvm_code)},
            {"cnpj", JsonOrNull(fund_class.cnpj)},
            {"name", JsonOrNull(fund_class.name)},
            {"status", JsonOrNull(fund_class.status)},
            {"class_type", JsonOrNull(fund_class.class_type)},
            {"valid_from", JsonOrNull(fund_class.registered_at)},
            // The class file has no cancellation date: a cancelled class ends when its
            // situation began.
            {"valid_to",
             IsCancelledStatus(fund_class.status) ? JsonOrNull(fund_class.status_since) : nullptr},
            {"matched_as", match.matched_as},
        });
    }

    const bool unique = involved_funds.size() == 1 && classes.size() <= 1;
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
