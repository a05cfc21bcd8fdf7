// Plugin versions (MAJOR.MINOR.PATCH, digits only) and the ranges a manifest's `requires:`
// accepts (docs/plugins.md): comparators separated by spaces or commas, all of which must hold:
//   >=1.2.0  >1.2.0  <=1.2.0  <2.0.0  =1.2.0 (or 1.2.0)  ^1.2.0 (>=1.2.0 <2.0.0)
//   ~1.2.0 (>=1.2.0 <1.3.0)  * (any)
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace lastro::plugins {

struct Version {
    std::array<unsigned, 3> parts{};
    static std::optional<Version> Parse(const std::string& text);
    std::string ToString() const;
    friend auto operator<=>(const Version&, const Version&) = default;
};

class VersionRange {
public:
    // nullopt with `error` set when the text is not a range.
    static std::optional<VersionRange> Parse(const std::string& text, std::string& error);
    bool Contains(const Version& version) const;
    const std::string& Text() const { return text_; }

private:
    enum class Op { kEq, kGe, kGt, kLe, kLt };
    struct Comparator {
        Op op;
        Version version;
    };
    std::string text_;
    std::vector<Comparator> comparators_;  // empty: any version
};

}  // namespace lastro::plugins
