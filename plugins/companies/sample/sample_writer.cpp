#include "sample/sample_writer.hpp"

#include "sample/company_universe.hpp"
#include "sample/registry_writer.hpp"

#include <lastro/sdk/sample/sample_directory.hpp>

namespace lastro::companies {

sdk::SampleReport CompaniesSampleWriter::Write(const sdk::SampleRequest& request) {
    const CompanyUniverse universe = DrawCompanyUniverse(request.seed, request.scale);
    sdk::sample::SampleDirectory out(request.out_dir,
                                     sdk::sample::ArchiveTimestamp(request.seed, kCompaniesReferenceDate));
    out.Write("cad_cia_aberta_" + kEarlierSnapshotDate.ToString() + ".csv",
              RegistryCsv(universe.earlier, universe.cases.duplicated_code));
    out.Write("cad_cia_aberta.csv", RegistryCsv(universe.current, universe.cases.duplicated_code));

    sdk::SampleReport report;
    report.files = out.Files();
    report.counts.push_back({"companies", universe.current.size()});
    report.counts.push_back({"registry snapshots", 2});
    return report;
}

}  // namespace lastro::companies
