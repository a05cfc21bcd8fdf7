// Scratch files for tests: a fresh directory removed with its contents, and whole-file reads and
// writes that throw instead of failing quietly.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace lastro::sdk::testing {

// A new directory $TMPDIR/<prefix>XXXXXX (mode 0700); throws when it cannot be made.
std::filesystem::path MakeTempDir(const std::string& prefix);

class TempDir {
public:
    explicit TempDir(const std::string& prefix = "lastro-test-");
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& Path() const { return path_; }
    // Path()/name, created on first use.
    std::filesystem::path Subdir(const std::string& name) const;
    // Writes `bytes` to Path()/name and returns that path.
    std::filesystem::path Write(const std::string& name, const std::string& bytes) const;

private:
    std::filesystem::path path_;
};

// The whole file; throws std::runtime_error naming it when it cannot be read.
std::string ReadFile(const std::filesystem::path& path);
// Replaces the file's contents; throws std::runtime_error naming it when it cannot be written.
void WriteFile(const std::filesystem::path& path, const std::string& bytes);
// Every member of a zip archive as (name, bytes), in the archive's order.
std::vector<std::pair<std::string, std::string>> ZipMemberBytes(const std::filesystem::path& zip);

}  // namespace lastro::sdk::testing
