#include "domain/registry/registry_lookup.hpp"

#include "domain/registry/registry_rules.hpp"
#include "funds_model-odb.hxx"
#include "funds_model.hxx"

#include <lastro/sdk/cached_query.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

namespace lastro::funds {
namespace {

using ClassQuery = odb::query<FundClass>;

// The hot lookups by CNPJ, prepared once per connection (sdk/cached_query.hpp).
struct ByText {
    std::string value;
};

// The funds a condition on funds_fund matches, each with its class ids in registry order: one
// statement (FundWithClassId), prepared once per connection under `statement`.
template <typename Param>
std::vector<LocatedFund> FundsWithClassIds(odb::database& db, const char* statement,
                                           odb::query<FundWithClassId> (*condition)(const Param&),
                                           const Param& param, const std::string& matched_as) {
    using Query = odb::query<FundWithClassId>;
    auto q = sdk::CachedQuery<FundWithClassId, Param>(db, statement, [condition](const Param& p) {
        return condition(p) + "ORDER BY" + Query::Fund::fund_id + "," + Query::FundClass::registry_id;
    });
    q.params = param;
    std::vector<LocatedFund> funds;
    for (FundWithClassId& row : q.Execute()) {
        if (funds.empty() || funds.back().fund_id != row.fund_id) {
            funds.push_back({std::move(row.fund_id),
                             std::move(row.cnpj),
                             row.cvm_code,
                             std::move(row.name),
                             std::move(row.status),
                             std::move(row.fund_type),
                             std::move(row.registered_at),
                             std::move(row.cancelled_at),
                             matched_as,
                             {}});
        }
        if (row.class_id) {
            funds.back().class_ids.push_back(std::move(*row.class_id));
        }
    }
    return funds;
}

std::vector<LocatedFund> FundsByCnpj(odb::database& db, const std::string& cnpj,
                                     const std::string& matched_as) {
    using Query = odb::query<FundWithClassId>;
    return FundsWithClassIds<ByText>(
        db, "funds.funds_with_class_ids_by_cnpj",
        [](const ByText& p) { return Query(Query::Fund::cnpj == Query::_ref(p.value)); }, {cnpj}, matched_as);
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

LocatedClass FromClass(const FundClass& c, std::string matched_as) {
    // The class file has no cancellation date: a cancelled class ends when its situation began.
    std::optional<std::string> valid_to = IsCancelledStatus(c.status) ? c.status_since : std::nullopt;
    return {c.class_id, c.fund_id,    c.cnpj,          c.cvm_code,          c.name,
            c.status,   c.class_type, c.registered_at, std::move(valid_to), std::move(matched_as)};
}

// Newest registration first, so the entry in force tends to lead; ids break ties.
bool NewerFirst(const std::optional<std::string>& a_date, const std::string& a_id,
                const std::optional<std::string>& b_date, const std::string& b_id) {
    if (a_date != b_date) {
        return a_date > b_date;
    }
    return a_id < b_id;
}

// A class matched twice (by its own code and by a subclass's) is listed once, by the first
// reason: its own match. Then both lists newest first (each fund came with its class ids).
Located Finish(Located located) {
    std::set<std::string> seen;
    std::vector<LocatedClass> unique;
    for (LocatedClass& match : located.classes) {
        if (seen.insert(match.class_id).second) {
            unique.push_back(std::move(match));
        }
    }
    located.classes = std::move(unique);
    std::sort(located.funds.begin(), located.funds.end(), [](const LocatedFund& a, const LocatedFund& b) {
        return NewerFirst(a.valid_from, a.fund_id, b.valid_from, b.fund_id);
    });
    std::sort(located.classes.begin(), located.classes.end(),
              [](const LocatedClass& a, const LocatedClass& b) {
                  return NewerFirst(a.valid_from, a.class_id, b.valid_from, b.class_id);
              });
    return located;
}

}  // namespace

Located LocateByCnpj(odb::database& db, const std::string& cnpj) {
    Located located;
    located.funds = FundsByCnpj(db, cnpj, "fund_cnpj");
    for (const FundClass& fund_class : ClassesByCnpj(db, cnpj)) {
        located.classes.push_back(FromClass(fund_class, "class_cnpj"));
    }
    return Finish(std::move(located));
}

Located LocateByCvmCode(odb::database& db, std::int64_t code) {
    struct ByCode {
        std::int64_t value = 0;
    };
    using FundRowQuery = odb::query<FundWithClassId>;
    Located located;
    located.funds = FundsWithClassIds<ByCode>(
        db, "funds.funds_with_class_ids_by_cvm_code",
        [](const ByCode& p) {
            return FundRowQuery(FundRowQuery::Fund::cvm_code == FundRowQuery::_ref(p.value));
        },
        {code}, "fund_cvm_code");
    auto classes = sdk::CachedQuery<FundClass, ByCode>(db, "funds.classes_by_cvm_code", [](const ByCode& p) {
        return ClassQuery::cvm_code == ClassQuery::_ref(p.value);
    });
    classes.params.value = code;
    for (const FundClass& fund_class : classes.Execute()) {
        located.classes.push_back(FromClass(fund_class, "class_cvm_code"));
    }
    // A subclass has no id of its own here: its class stands for it.
    auto of_subclasses =
        sdk::CachedQuery<FundClass, ByCode>(db, "funds.classes_by_subclass_cvm_code", [](const ByCode& p) {
            return ClassQuery(
                       "\"funds_class\".\"class_id\" IN (SELECT \"class_id\" FROM \"funds_subclass\" WHERE") +
                   (odb::query<Subclass>::cvm_code == odb::query<Subclass>::_ref(p.value)) + ")";
        });
    of_subclasses.params.value = code;
    for (const FundClass& fund_class : of_subclasses.Execute()) {
        located.classes.push_back(FromClass(fund_class, "subclass_cvm_code"));
    }
    return Finish(std::move(located));
}

Located LocateAnbimaSubclass(odb::database& db, const AnbimaSubclass& subclass) {
    Located located;
    for (const FundClass& fund_class : ClassesByCnpj(db, subclass.class_cnpj)) {
        located.classes.push_back(FromClass(fund_class, "anbima_code"));
    }
    for (const LocatedFund& fund : FundsByCnpj(db, subclass.class_cnpj, "fund_cnpj")) {
        FundClass only;
        if (fund.class_ids.size() == 1 && db.find<FundClass>(fund.class_ids.front(), only)) {
            located.classes.push_back(FromClass(only, "anbima_code"));
        }
    }
    return Finish(std::move(located));
}

}  // namespace lastro::funds
