#include <lastro/sdk/sample/sample_directory.hpp>

#include <lastro/sdk/zip_archive.hpp>

#include <fstream>
#include <stdexcept>
#include <system_error>

namespace lastro::sdk::sample {

std::time_t ArchiveTimestamp(std::uint64_t seed, const Date& day) {
    // Even seconds survive zip's 2 s resolution.
    const auto seconds = static_cast<int>(seed % 3600) & ~1;
    std::tm local{};
    local.tm_year = day.year - 1900;
    local.tm_mon = day.month - 1;
    local.tm_mday = day.day;
    local.tm_hour = 5 + seconds / 3600;
    local.tm_min = seconds % 3600 / 60;
    local.tm_sec = seconds % 60;
    local.tm_isdst = -1;
    return std::mktime(&local);
}

SampleDirectory::SampleDirectory(std::filesystem::path dir, std::time_t zip_time)
    : dir_(std::move(dir)), zip_time_(zip_time) {
    std::error_code error;
    std::filesystem::create_directories(dir_, error);
    if (error) {
        throw std::runtime_error("cannot create directory " + dir_.string() + ": " + error.message());
    }
}

void SampleDirectory::Write(std::string_view name, const std::string& bytes) {
    const std::filesystem::path path = dir_ / name;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) {
        throw std::runtime_error("cannot create " + path.string());
    }
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
        throw std::runtime_error("cannot write " + path.string());
    }
    files_.push_back(path);
}

void SampleDirectory::WriteZip(std::string_view name, std::vector<ArchiveMember> members) {
    const std::filesystem::path path = dir_ / name;
    ZipWriter archive(path);
    for (ArchiveMember& member : members) {
        archive.Add(member.name, std::move(member.bytes), zip_time_);
    }
    archive.Close();
    files_.push_back(path);
}

}  // namespace lastro::sdk::sample
