#include "core/sample/sample.hpp"

#include "core/sample/anbima_writer.hpp"
#include "core/sample/cda_writer.hpp"
#include "core/sample/documents_writer.hpp"
#include "core/sample/fidc_report_writer.hpp"
#include "core/sample/monthly_history.hpp"
#include "core/sample/registry_writer.hpp"
#include "core/sample/universe.hpp"

#include <lastro/sdk/zip_archive.hpp>

#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <system_error>

namespace lastro::sample {
namespace {

void WriteFile(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) {
        throw std::runtime_error("cannot create " + path.string());
    }
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
        throw std::runtime_error("cannot write " + path.string());
    }
}

}  // namespace

std::time_t ArchiveTimestamp(std::uint64_t seed) {
    // Early morning, when CVM regenerates its files; even seconds survive zip's 2 s resolution.
    const auto seconds = static_cast<int>(seed % 3600) & ~1;
    std::tm local{};
    local.tm_year = kReferenceDate.year - 1900;
    local.tm_mon = kReferenceDate.month - 1;
    local.tm_mday = kReferenceDate.day;
    local.tm_hour = 5 + seconds / 3600;
    local.tm_min = seconds % 3600 / 60;
    local.tm_sec = seconds % 60;
    local.tm_isdst = -1;
    return std::mktime(&local);
}

SampleReport WriteSample(const SampleOptions& options) {
    std::error_code error;
    std::filesystem::create_directories(options.out_dir, error);
    if (error) {
        throw std::runtime_error("cannot create directory " + options.out_dir.string() + ": " +
                                 error.message());
    }
    const bool full = options.scale == Scale::kFull;
    const Universe universe = BuildUniverse(options.seed, full ? UniverseSize::kFull : UniverseSize::kSample);
    RegistryFiles registry = RenderRegistry(universe);

    SampleReport report;
    report.funds = universe.funds.size();
    report.classes = universe.ClassCount();
    report.subclasses = universe.SubclassCount();

    const auto write = [&](std::string_view name, const std::string& bytes) {
        const std::filesystem::path path = options.out_dir / name;
        WriteFile(path, bytes);
        report.files.push_back(path);
    };
    write(kFundFileName, registry.funds);
    write(kClassFileName, registry.classes);
    write(kSubclassFileName, registry.subclasses);

    const std::filesystem::path zip_path = options.out_dir / kRegistryZipName;
    const std::time_t modified_at = ArchiveTimestamp(options.seed);
    sdk::ZipWriter zip(zip_path);
    zip.Add(std::string(kFundFileName), std::move(registry.funds), modified_at);
    zip.Add(std::string(kClassFileName), std::move(registry.classes), modified_at);
    zip.Add(std::string(kSubclassFileName), std::move(registry.subclasses), modified_at);
    zip.Close();
    report.files.push_back(zip_path);

    const History history = BuildHistory(universe);
    report.irregularities = history.irregularities;
    const auto write_zip = [&](const std::string& name, std::vector<ArchiveMember> members) {
        const std::filesystem::path path = options.out_dir / name;
        sdk::ZipWriter archive(path);
        for (ArchiveMember& member : members) {
            archive.Add(member.name, std::move(member.bytes), modified_at);
        }
        archive.Close();
        report.files.push_back(path);
    };
    // The months before 2025 sit in one yearly history zip, as on CVM's site (DADOS/HIST).
    std::vector<ArchiveMember> yearly;
    for (int m = full ? kReportMonths - 1 : 0; m < kReportMonths; ++m) {
        const sdk::Month month = MonthAt(m);
        FidcMonth rendered = RenderFidcMonth(history, universe.administrators, month);
        report.fidc_reports += rendered.reports;
        if (month.year < 2025) {
            std::move(rendered.members.begin(), rendered.members.end(), std::back_inserter(yearly));
            if (month.month == 12) {
                write_zip(FidcYearlyZipName(month.year), std::move(yearly));
                yearly.clear();
            }
        } else {
            write_zip(FidcMonthlyZipName(month), std::move(rendered.members));
        }
    }
    if (full) {
        return report;
    }

    for (CdaMonth& cda : RenderCda(universe, history)) {
        report.cda_positions += cda.positions;
        write_zip(CdaZipName(cda.month), std::move(cda.members));
    }
    DocumentFiles documents = RenderDocuments(universe);
    report.documents = documents.documents;
    for (const ArchiveMember& file : documents.files) {
        write(file.name, file.bytes);
    }
    const AnbimaFile anbima = RenderAnbimaSubclasses(universe);
    report.anbima_rows = anbima.rows;
    write(kAnbimaFileName, anbima.bytes);
    return report;
}

}  // namespace lastro::sample
