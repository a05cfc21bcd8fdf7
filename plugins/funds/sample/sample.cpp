#include "sample/sample.hpp"

#include "sample/anbima_writer.hpp"
#include "sample/cda_writer.hpp"
#include "sample/documents_writer.hpp"
#include "sample/fidc_report_writer.hpp"
#include "sample/kit.hpp"
#include "sample/monthly_history.hpp"
#include "sample/registry_writer.hpp"
#include "sample/universe.hpp"

#include <algorithm>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>

namespace lastro::funds::sample {

std::time_t ArchiveTimestamp(std::uint64_t seed) {
    return sdk::sample::ArchiveTimestamp(seed, kReferenceDate);
}

int ReportMonths(const sdk::SampleRequest& request) {
    const int months = request.months.value_or(
        request.scale == sdk::SampleScale::kFull ? kDefaultFullMonths : kDefaultReportMonths);
    if (months < 1 || months > kMaxReportMonths) {
        throw std::invalid_argument("the funds sample covers 1 to " + std::to_string(kMaxReportMonths) +
                                    " months of FIDC monthly reports, not " + std::to_string(months));
    }
    return months;
}

WrittenSample WriteSample(const sdk::SampleRequest& request) {
    const int months = ReportMonths(request);
    sdk::sample::SampleDirectory out(request.out_dir, ArchiveTimestamp(request.seed));
    const bool full = request.scale == sdk::SampleScale::kFull;
    const Universe universe = BuildUniverse(request.seed, full ? UniverseSize::kFull : UniverseSize::kSample);
    RegistryFiles registry = RenderRegistry(universe);

    WrittenSample written;
    written.funds = universe.funds.size();
    written.classes = universe.ClassCount();
    written.subclasses = universe.SubclassCount();

    out.Write(kFundFileName, registry.funds);
    out.Write(kClassFileName, registry.classes);
    out.Write(kSubclassFileName, registry.subclasses);
    out.WriteZip(kRegistryZipName, {{std::string(kFundFileName), std::move(registry.funds)},
                                    {std::string(kClassFileName), std::move(registry.classes)},
                                    {std::string(kSubclassFileName), std::move(registry.subclasses)}});

    const History history = BuildHistory(universe, months);
    written.months = months;
    written.first_month = history.first_month;
    written.irregularities = history.irregularities;
    auto published = std::make_shared<SampleUniverse>();
    published->funds = RegistryFunds(universe);
    published->reference_day = kReferenceDate;  // the day of ArchiveTimestamp(seed)
    published->first_report_month = history.first_month;
    published->last_report_month = kLastReportMonth;
    written.universe = std::move(published);
    // The months before 2025 sit in one yearly history zip per year, as on CVM's site
    // (DADOS/HIST); a history starting inside a year has that year's months from then on.
    std::vector<ArchiveMember> yearly;
    for (int m = 0; m < history.month_count; ++m) {
        const sdk::Month month = history.MonthAt(m);
        FidcMonth rendered = RenderFidcMonth(history, universe.administrators, month);
        written.fidc_reports += rendered.reports;
        written.fidc_fund_reports += rendered.fund_reports;
        if (month.year < 2025) {
            std::move(rendered.members.begin(), rendered.members.end(), std::back_inserter(yearly));
            if (month.month == 12) {
                out.WriteZip(FidcYearlyZipName(month.year), std::move(yearly));
                yearly.clear();
            }
        } else {
            out.WriteZip(FidcMonthlyZipName(month), std::move(rendered.members));
        }
    }
    // At full scale every writer runs on the full-size universe: the CDA adds the real file's
    // other holders (cda_writer.hpp), the documents cover every year of the reports.
    const UniverseSize size = full ? UniverseSize::kFull : UniverseSize::kSample;
    RenderCda(universe, history, size, [&](CdaMonth&& cda) {
        written.cda_positions += cda.positions;
        out.WriteZip(CdaZipName(cda.month), std::move(cda.members));
    });
    const int first_document_year =
        full ? std::min(kFirstDocumentYear, history.first_month.year) : kFirstDocumentYear;
    DocumentFiles documents = RenderDocuments(universe, first_document_year);
    written.documents = documents.documents;
    for (const ArchiveMember& file : documents.files) {
        out.Write(file.name, file.bytes);
    }
    const AnbimaFile anbima = RenderAnbimaSubclasses(universe, size);
    written.anbima_rows = anbima.rows;
    out.Write(kAnbimaFileName, anbima.bytes);
    written.files = out.Files();
    return written;
}

sdk::SampleReport FundsSampleWriter::Write(const sdk::SampleRequest& request) {
    const WrittenSample written = WriteSample(request);
    sdk::SampleReport report;
    report.files = written.files;
    report.universe = written.universe;
    report.counts = {{"funds", written.funds},
                     {"classes", written.classes},
                     {"subclasses", written.subclasses},
                     {"FIDC monthly reports", written.fidc_reports}};
    report.notes.push_back("FIDC monthly reports of " + std::to_string(written.months) +
                           (written.months == 1 ? " month, " : " months, ") + written.first_month.ToString() +
                           " .. " + kLastReportMonth.ToString() + " (--months N for another length)");
    report.counts.push_back({"CDA positions", written.cda_positions});
    report.counts.push_back({"documents", written.documents});
    report.counts.push_back({"ANBIMA subclasses", written.anbima_rows});
    if (request.scale == sdk::SampleScale::kFull) {
        report.notes.push_back(
            "full scale: the CDA holds 25,534 other holders a month beside the FIDC universe's, as CVM's "
            "real CDA (their CNPJs are not in the registry)");
    }
    return report;
}

}  // namespace lastro::funds::sample
