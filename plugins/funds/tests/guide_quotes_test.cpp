// docs/plugins.md ("Testing a plugin") quotes this plugin's tests and build. Each quote names the
// file and the marked region it comes from (`<!-- quote: path#name -->` before a fenced block;
// `docs/plugins.md quotes from here: name` ... `docs/plugins.md quotes up to here` in the file),
// and must be that region: the guide shows code that compiles and passes.
#include <lastro/sdk/testing/temp_dir.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace lastro::funds::testing {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kQuote = "<!-- quote: ";
constexpr std::string_view kFrom = "docs/plugins.md quotes from here: ";
constexpr std::string_view kUpTo = "docs/plugins.md quotes up to here";

std::vector<std::string> Lines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        lines.push_back(line);
    }
    return lines;
}

// The lines without the indentation they all share.
std::vector<std::string> Dedented(std::vector<std::string> lines) {
    std::size_t common = std::string::npos;
    for (const std::string& line : lines) {
        if (line.find_first_not_of(' ') != std::string::npos) {
            common = std::min(common, line.find_first_not_of(' '));
        }
    }
    for (std::string& line : lines) {
        line = line.size() > common ? line.substr(common) : "";
    }
    return lines;
}

// Every marked region of `file`, by name.
std::map<std::string, std::vector<std::string>> Regions(const fs::path& file) {
    std::map<std::string, std::vector<std::string>> regions;
    const std::vector<std::string> lines = Lines(sdk::testing::ReadFile(file));
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::size_t at = lines[i].find(kFrom);
        if (at == std::string::npos) {
            continue;
        }
        const std::string name = lines[i].substr(at + kFrom.size());
        std::vector<std::string> region;
        for (++i; i < lines.size() && lines[i].find(kUpTo) == std::string::npos; ++i) {
            region.push_back(lines[i]);
        }
        EXPECT_LT(i, lines.size()) << file << ": region " << name << " has no end";
        EXPECT_TRUE(regions.emplace(name, Dedented(region)).second)
            << file << ": region " << name << " twice";
    }
    return regions;
}

TEST(GuideQuotesTest, EveryQuoteIsTheRegionItNamesAndEveryRegionIsQuoted) {
    const fs::path root(LASTRO_SOURCE_DIR);
    const std::vector<std::string> guide = Lines(sdk::testing::ReadFile(root / "docs/plugins.md"));
    std::map<std::string, std::set<std::string>> quoted;  // file -> region names
    for (std::size_t i = 0; i < guide.size(); ++i) {
        if (guide[i].rfind(kQuote, 0) != 0) {
            continue;
        }
        const std::string target = guide[i].substr(kQuote.size(), guide[i].find(" -->") - kQuote.size());
        const std::string file = target.substr(0, target.find('#'));
        const std::string name = target.substr(target.find('#') + 1);
        SCOPED_TRACE("docs/plugins.md:" + std::to_string(i + 1) + ": " + target);
        ASSERT_LT(i + 1, guide.size());
        ASSERT_EQ(guide[i + 1].rfind("```", 0), 0u) << "a fenced block follows the quote line";
        std::vector<std::string> block;
        for (i += 2; i < guide.size() && guide[i].rfind("```", 0) != 0; ++i) {
            block.push_back(guide[i]);
        }
        const auto regions = Regions(root / file);
        const auto region = regions.find(name);
        ASSERT_NE(region, regions.end()) << file << " marks no region " << name;
        EXPECT_EQ(Dedented(block), region->second);
        quoted[file].insert(name);
    }
    EXPECT_GE(quoted.size(), 5u) << "the guide quotes the plugin database, the host runs, a unit test, "
                                    "the registration check and the end-to-end fixture";
    for (const auto& [file, names] : quoted) {
        for (const auto& [name, lines] : Regions(root / file)) {
            EXPECT_TRUE(names.count(name))
                << file << " marks region " << name << ", which the guide does not quote";
        }
    }
}

}  // namespace
}  // namespace lastro::funds::testing
