#include "sample/sample_writer.hpp"

#include "sample/company_universe.hpp"
#include "sample/documents_writer.hpp"
#include "sample/filings_writer.hpp"
#include "sample/issuances_writer.hpp"
#include "sample/registry_writer.hpp"

#include <lastro/sdk/sample/sample_directory.hpp>

#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <vector>

namespace lastro::companies {
namespace {

void SetWrittenAt(const std::filesystem::path& path, std::time_t time) {
    std::error_code error;
    std::filesystem::last_write_time(
        path, std::chrono::clock_cast<std::chrono::file_clock>(std::chrono::system_clock::from_time_t(time)),
        error);
    if (error) {
        throw std::runtime_error(path.string() + ": cannot set its modification time: " + error.message());
    }
}

}  // namespace

sdk::SampleReport CompaniesSampleWriter::Write(const sdk::SampleRequest& request) {
    const CompanyUniverse universe = DrawCompanyUniverse(request.seed, request.scale);
    sdk::sample::SampleDirectory out(request.out_dir,
                                     sdk::sample::ArchiveTimestamp(request.seed, kCompaniesReferenceDate));
    out.Write("cad_cia_aberta_" + kEarlierSnapshotDate.ToString() + ".csv",
              RegistryCsv(universe.earlier, universe.cases.duplicated_code));
    out.Write("cad_cia_aberta.csv", RegistryCsv(universe.current, universe.cases.duplicated_code));
    // Each snapshot is stamped with the day CVM wrote it (the ingest records the file's time as
    // the snapshot's date), so the same seed gives the same answers whatever day it is written.
    const std::vector<std::filesystem::path>& files = out.Files();
    SetWrittenAt(files[files.size() - 2], sdk::sample::ArchiveTimestamp(request.seed, kEarlierSnapshotDate));
    SetWrittenAt(files.back(), sdk::sample::ArchiveTimestamp(request.seed, kCompaniesReferenceDate));

    const DocumentsSample documents = WriteIpeSample(out, universe, request.seed, request.scale);
    const FilingsSample filings = WriteFreSample(out, universe, request.seed, request.scale);
    const SecuritiesSample securities = WriteFcaSample(out, universe, request.seed, request.scale);
    const IssuancesSample issuances = WriteIssuancesSample(out, universe, request.seed, request.scale);

    sdk::SampleReport report;
    report.files = out.Files();
    report.counts.push_back({"companies", universe.current.size()});
    report.counts.push_back({"registry snapshots", 2});
    report.counts.push_back({"IPE deliveries", documents.rows});
    report.counts.push_back({"FRE documents", filings.index_rows});
    report.counts.push_back({"FRE table rows", filings.table_rows});
    report.counts.push_back({"FCA documents", securities.index_rows});
    report.counts.push_back({"CRI monthly reports", issuances.cri_reports});
    report.counts.push_back({"CRA monthly reports", issuances.cra_reports});
    report.counts.push_back({"offerings (every asset)", issuances.offerings});
    return report;
}

}  // namespace lastro::companies
