#include "src/cda_holder.hpp"

#include "funds_model-odb.hxx"

#include <lastro/sdk/cached_query.hpp>
#include <lastro/sdk/problem.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

namespace lastro::funds {

sdk::Month RequiredMonth(const sdk::Params& params) {
    if (auto month = params.MonthValue("month")) {
        return *month;
    }
    throw sdk::InvalidParameter("month", "month is required (YYYY-MM)");
}

std::optional<CdaHolder> FindCdaHolder(odb::database& db, const std::string& cnpj, const sdk::Month& month) {
    using HolderQuery = odb::query<CdaHolder>;
    struct OfCnpjMonth {
        std::string cnpj;
        std::string month;
    };
    auto q = sdk::CachedQuery<CdaHolder, OfCnpjMonth>(db, "funds.cda_holder", [](const OfCnpjMonth& p) {
        return HolderQuery::cnpj == HolderQuery::_ref(p.cnpj) &&
               HolderQuery::month == HolderQuery::_ref(p.month);
    });
    q.params.cnpj = cnpj;
    q.params.month = month.ToString();
    for (const CdaHolder& holder : q.Execute()) {
        return holder;
    }
    return std::nullopt;
}

CdaHolder RequireCdaHolder(odb::database& db, const ClassRef& ref, const sdk::Month& month) {
    // filing_cnpjs is ordered by preference: the first CNPJ that filed wins.
    for (const std::string& cnpj : ref.filing_cnpjs) {
        if (auto holder = FindCdaHolder(db, cnpj, month)) {
            return *holder;
        }
    }
    throw sdk::NotFound("class " + ref.class_id + " has no CDA portfolio for " + month.ToString(), "month");
}

}  // namespace lastro::funds
