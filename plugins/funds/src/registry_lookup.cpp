#include "src/registry_lookup.hpp"

#include "funds_model-odb.hxx"
#include "funds_model.hxx"
#include "ingest/registro_fundo_classe/registry_rules.hpp"

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

using FundQuery = odb::query<Fund>;
using ClassQuery = odb::query<FundClass>;

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

LocatedFund FromFund(const Fund& fund, std::string matched_as) {
    return {
        fund.fund_id,       fund.cnpj,         fund.cvm_code,         fund.name, fund.status, fund.fund_type,
        fund.registered_at, fund.cancelled_at, std::move(matched_as), {}};
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
// reason: its own match. Then both lists newest first, and each fund's class ids.
Located Finish(odb::database& db, Located located) {
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
    for (LocatedFund& fund : located.funds) {
        fund.class_ids = ClassIdsOfFund(db, fund.fund_id);
    }
    return located;
}

}  // namespace

Located LocateByCnpj(odb::database& db, const std::string& cnpj) {
    Located located;
    for (const Fund& fund : FundsByCnpj(db, cnpj)) {
        located.funds.push_back(FromFund(fund, "fund_cnpj"));
    }
    for (const FundClass& fund_class : ClassesByCnpj(db, cnpj)) {
        located.classes.push_back(FromClass(fund_class, "class_cnpj"));
    }
    return Finish(db, std::move(located));
}

Located LocateByCvmCode(odb::database& db, std::int64_t code) {
    struct ByCode {
        std::int64_t value = 0;
    };
    Located located;
    auto funds = sdk::CachedQuery<Fund, ByCode>(db, "funds.funds_by_cvm_code", [](const ByCode& p) {
        return FundQuery::cvm_code == FundQuery::_ref(p.value);
    });
    funds.params.value = code;
    for (const Fund& fund : funds.Execute()) {
        located.funds.push_back(FromFund(fund, "fund_cvm_code"));
    }
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
    return Finish(db, std::move(located));
}

Located LocateAnbimaSubclass(odb::database& db, const AnbimaSubclass& subclass) {
    Located located;
    for (const FundClass& fund_class : ClassesByCnpj(db, subclass.class_cnpj)) {
        located.classes.push_back(FromClass(fund_class, "anbima_code"));
    }
    for (const Fund& fund : FundsByCnpj(db, subclass.class_cnpj)) {
        const std::vector<std::string> siblings = ClassIdsOfFund(db, fund.fund_id);
        FundClass only;
        if (siblings.size() == 1 && db.find<FundClass>(siblings.front(), only)) {
            located.classes.push_back(FromClass(only, "anbima_code"));
        }
    }
    return Finish(db, std::move(located));
}

}  // namespace lastro::funds
