#include <lastro/sdk/testing/temp_dir.hpp>

#include <lastro/sdk/byte_source.hpp>
#include <lastro/sdk/zip_archive.hpp>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <system_error>

namespace lastro::sdk::testing {

namespace fs = std::filesystem;

fs::path MakeTempDir(const std::string& prefix) {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/" + prefix + "XXXXXX";
    if (!::mkdtemp(pattern.data())) {
        throw std::runtime_error("mkdtemp " + pattern + ": " + std::strerror(errno));
    }
    return pattern;
}

TempDir::TempDir(const std::string& prefix) : path_(MakeTempDir(prefix)) {}

TempDir::~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
}

fs::path TempDir::Subdir(const std::string& name) const {
    const fs::path path = path_ / name;
    fs::create_directories(path);
    return path;
}

fs::path TempDir::Write(const std::string& name, const std::string& bytes) const {
    const fs::path path = path_ / name;
    WriteFile(path, bytes);
    return path;
}

std::string ReadFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw std::runtime_error("cannot read " + path.string());
    }
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void WriteFile(const fs::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
        throw std::runtime_error("cannot write " + path.string());
    }
}

std::vector<std::pair<std::string, std::string>> ZipMemberBytes(const fs::path& zip) {
    const ZipArchive archive(zip);
    std::vector<std::pair<std::string, std::string>> members;
    for (const std::string& name : archive.Members()) {
        const std::unique_ptr<ByteSource> source = archive.Open(name);
        std::string bytes;
        char buffer[1 << 16];
        while (const std::size_t n = source->Read(buffer, sizeof buffer)) {
            bytes.append(buffer, n);
        }
        members.emplace_back(name, std::move(bytes));
    }
    return members;
}

}  // namespace lastro::sdk::testing
