#include "sample/sample_writer.hpp"

#include "ingest/cad_fi_hist/cad_fi_hist_layout.hpp"

#include <lastro/sdk/sample/sample_directory.hpp>

#include <algorithm>
#include <string>

namespace lastro::industry::sample {

WrittenHistory WriteManagerHistory(const sdk::SampleRequest& request) {
    WrittenHistory written;
    if (std::find(kManagerHistoryScales.begin(), kManagerHistoryScales.end(), request.scale) ==
        kManagerHistoryScales.end()) {
        return written;
    }
    const funds::SampleUniverse& universe = request.Get<funds::SampleUniverse>();
    written.history = BuildManagerHistory(universe, request.seed);
    written.first_report_month = universe.first_report_month;
    written.last_report_month = universe.last_report_month;
    sdk::sample::SampleDirectory out(request.out_dir,
                                     sdk::sample::ArchiveTimestamp(request.seed, universe.reference_day));
    out.WriteZip(kHistoryZipName, RenderHistory(written.history));
    written.files = out.Files();
    return written;
}

sdk::SampleReport IndustrySampleWriter::Write(const sdk::SampleRequest& request) {
    const WrittenHistory written = WriteManagerHistory(request);
    sdk::SampleReport report;
    report.files = written.files;
    if (written.files.empty()) {
        report.notes.push_back(std::string(sdk::SampleScaleName(request.scale)) + " scale: no " +
                               std::string(kHistoryZipName) + " (" + std::string(kManagerHistoryDataset) +
                               " has a sample at scale sample only)");
        return report;
    }
    const ManagerHistory& h = written.history;
    report.counts = {{"manager spells", h.spells.size()},
                     {"legacy FIDC-family funds", h.funds.size()},
                     {"funds with a manager change", h.manager_changes},
                     {"funds without manager history", h.without_history + h.without_manager}};
    report.notes.push_back(std::string(kHistoryZipName) + ": " + std::to_string(h.changes_in_reports) +
                           " manager changes end on or after " + h.first_report_month_end.ToString() +
                           " (inside the funds sample's FIDC reports, " +
                           written.first_report_month.ToString() + " .. " +
                           written.last_report_month.ToString() + "); " + std::to_string(h.rcvm175_natives) +
                           " FIDC-family funds registered under RCVM 175 have no legacy history");
    return report;
}

}  // namespace lastro::industry::sample
