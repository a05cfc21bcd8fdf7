// Zip archives as CVM publishes them (libzip underneath): list and stream members, and write
// archives for the sample generator.
#pragma once

#include <lastro/sdk/byte_source.hpp>

#include <boost/config.hpp>

#include <ctime>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lastro::sdk {

// One archive must not be used from several threads at once (libzip's archives are not).
class BOOST_SYMBOL_VISIBLE ZipArchive {
public:
    // Throws IngestError naming the file when it is missing, not a zip, or truncated.
    explicit ZipArchive(const std::filesystem::path& path);
    ~ZipArchive();
    ZipArchive(const ZipArchive&) = delete;
    ZipArchive& operator=(const ZipArchive&) = delete;

    // Member names in archive order; directory entries are left out.
    const std::vector<std::string>& Members() const { return members_; }
    bool Has(const std::string& member) const;
    // The member's modification time as stored in the archive.
    std::optional<std::time_t> ModifiedAt(const std::string& member) const;
    // Streams one member; the archive must outlive the source. Throws IngestError when absent.
    std::unique_ptr<ByteSource> Open(const std::string& member) const;

private:
    std::string name_;
    void* zip_ = nullptr;  // zip_t*
    std::vector<std::string> members_;
};

// Writes a zip archive with deflated members (the sample generator's output).
class BOOST_SYMBOL_VISIBLE ZipWriter {
public:
    explicit ZipWriter(const std::filesystem::path& path);
    // Without a successful Close() nothing is written.
    ~ZipWriter();
    ZipWriter(const ZipWriter&) = delete;
    ZipWriter& operator=(const ZipWriter&) = delete;

    void Add(const std::string& member, std::string bytes, std::time_t modified_at);
    // Writes the archive to disk; throws std::runtime_error naming the path on failure.
    void Close();

private:
    std::filesystem::path path_;
    void* zip_ = nullptr;
    std::vector<std::unique_ptr<std::string>> buffers_;  // libzip reads them at Close()
};

}  // namespace lastro::sdk
