// Where a sample writer puts its files: plain files and zip archives in one directory, listed in
// writing order for the SampleReport, every zip member stamped with one fixed time so that the
// same seed gives the same bytes.
#pragma once

#include <lastro/sdk/calendar.hpp>

#include <boost/config.hpp>

#include <cstdint>
#include <ctime>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::sdk::sample {

// One member of a zip archive (or one plain file): its name and its bytes.
struct BOOST_SYMBOL_VISIBLE ArchiveMember {
    std::string name;
    std::string bytes;
};

// The modification time for every zip member of a sample: early morning of `day` (when
// publishers regenerate their files), minutes and seconds from the seed. Zip stores local
// wall-clock time, so this is that time in the process's time zone, which keeps the archive's
// bytes the same in every time zone.
BOOST_SYMBOL_VISIBLE std::time_t ArchiveTimestamp(std::uint64_t seed, const Date& day);

class BOOST_SYMBOL_VISIBLE SampleDirectory {
public:
    // Creates `dir` when needed; throws std::runtime_error naming it.
    SampleDirectory(std::filesystem::path dir, std::time_t zip_time);

    // (Over)writes one file; throws std::runtime_error naming the path.
    void Write(std::string_view name, const std::string& bytes);
    // (Over)writes a zip of deflated members, in the given order, stamped with `zip_time`.
    void WriteZip(std::string_view name, std::vector<ArchiveMember> members);

    const std::filesystem::path& Dir() const { return dir_; }
    // Every file written, in writing order.
    const std::vector<std::filesystem::path>& Files() const { return files_; }

private:
    std::filesystem::path dir_;
    std::time_t zip_time_;
    std::vector<std::filesystem::path> files_;
};

}  // namespace lastro::sdk::sample
