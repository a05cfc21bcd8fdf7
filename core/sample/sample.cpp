#include "core/sample/sample.hpp"

#include "core/sample/registry_writer.hpp"
#include "core/sample/universe.hpp"

#include <lastro/sdk/zip_archive.hpp>

#include <fstream>
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
    const Universe universe = BuildUniverse(options.seed);
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
    return report;
}

}  // namespace lastro::sample
