#include "services/funds_services.hpp"

#include "funds_model-odb.hxx"
#include "funds_model.hxx"
#include "src/registry_lookup.hpp"

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

namespace lastro::funds {
namespace {

FidcMonthlyFact Fact(const FidcReport& r) {
    FidcMonthlyFact f;
    f.cnpj = r.cnpj;
    f.month = r.month;
    f.reference_date = r.reference_date;
    f.filer_type = r.filer_type;
    f.name = r.name;
    f.administrator_cnpj = r.administrator_cnpj;
    f.administrator = r.administrator;
    f.condominium = r.condominium;
    f.assets_total = r.assets_total;
    f.nav = r.nav;
    f.nav_average = r.nav_average;
    f.liabilities = r.liabilities;
    f.segments_total = r.segments_total;
    f.receivables_net = r.receivables_net;
    f.receivables_gross = r.receivables_gross;
    f.pdd = r.pdd;
    f.delinquent_total = r.delinquent_total;
    f.delinquency_ratio = r.delinquency_ratio;
    f.senior_nav = r.senior_nav;
    f.mezzanine_nav = r.mezzanine_nav;
    f.subordinated_nav = r.subordinated_nav;
    f.series_nav_total = r.series_nav_total;
    f.investor_count = r.investor_count;
    f.primary_segment_code = r.primary_segment_code;
    f.duplicates_dropped = r.duplicates_dropped;
    return f;
}

}  // namespace

Located RegistryLocator::ByCnpj(odb::database& db, const std::string& cnpj) const {
    return LocateByCnpj(db, cnpj);
}

Located RegistryLocator::ByCvmCode(odb::database& db, std::int64_t code) const {
    return LocateByCvmCode(db, code);
}

std::vector<std::string> FidcMonthlyFactsReader::Months(odb::database& db) const {
    using ReportQuery = odb::query<FidcReport>;
    std::vector<std::string> months;
    for (const FidcReportMonth& row :
         db.query<FidcReportMonth>(odb::query<FidcReportMonth>("ORDER BY" + ReportQuery::month))) {
        months.push_back(row.month);
    }
    return months;
}

void FidcMonthlyFactsReader::ForEachReport(odb::database& db, const std::string& month,
                                           const std::function<void(const FidcMonthlyFact&)>& visit) const {
    using Query = odb::query<FidcReport>;
    // The JSON documents are a lazy section: loading a report here leaves them unread.
    for (const FidcReport& report :
         db.query<FidcReport>(Query(Query::month == month) + "ORDER BY" + Query::cnpj)) {
        visit(Fact(report));
    }
}

}  // namespace lastro::funds
