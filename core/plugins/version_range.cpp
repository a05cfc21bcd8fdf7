#include "core/plugins/version_range.hpp"

#include <charconv>
#include <sstream>

namespace lastro::plugins {

std::optional<Version> Version::Parse(const std::string& text) {
    Version v;
    const char* p = text.data();
    const char* end = text.data() + text.size();
    for (std::size_t i = 0; i < 3; ++i) {
        if (i > 0) {
            if (p == end || *p != '.') {
                return std::nullopt;
            }
            ++p;
        }
        if (p == end || *p < '0' || *p > '9') {
            return std::nullopt;
        }
        auto [next, ec] = std::from_chars(p, end, v.parts[i]);
        if (ec != std::errc()) {
            return std::nullopt;
        }
        p = next;
    }
    if (p != end) {
        return std::nullopt;
    }
    return v;
}

std::string Version::ToString() const {
    return std::to_string(parts[0]) + "." + std::to_string(parts[1]) + "." + std::to_string(parts[2]);
}

std::optional<VersionRange> VersionRange::Parse(const std::string& text, std::string& error) {
    VersionRange range;
    range.text_ = text;
    std::string spaced = text;
    for (char& c : spaced) {
        if (c == ',') {
            c = ' ';
        }
    }
    std::istringstream in(spaced);
    std::string token;
    bool any = false;
    while (in >> token) {
        any = true;
        if (token == "*") {
            continue;
        }
        std::size_t skip = 0;
        Op op = Op::kEq;
        char shorthand = 0;
        if (token.rfind(">=", 0) == 0) {
            op = Op::kGe, skip = 2;
        } else if (token.rfind("<=", 0) == 0) {
            op = Op::kLe, skip = 2;
        } else if (token[0] == '>') {
            op = Op::kGt, skip = 1;
        } else if (token[0] == '<') {
            op = Op::kLt, skip = 1;
        } else if (token[0] == '=') {
            skip = 1;
        } else if (token[0] == '^' || token[0] == '~') {
            shorthand = token[0], skip = 1;
        }
        auto version = Version::Parse(token.substr(skip));
        if (!version) {
            error = "'" + token + "' is not a version comparator (e.g. >=1.0.0, <2.0.0, ^1.2.0, ~1.2.0)";
            return std::nullopt;
        }
        if (shorthand) {
            Version upper = *version;
            const std::size_t bumped = shorthand == '^' ? 0 : 1;
            upper.parts[bumped] += 1;
            for (std::size_t i = bumped + 1; i < 3; ++i) {
                upper.parts[i] = 0;
            }
            range.comparators_.push_back({Op::kGe, *version});
            range.comparators_.push_back({Op::kLt, upper});
        } else {
            range.comparators_.push_back({op, *version});
        }
    }
    if (!any) {
        error = "the version range is empty (use * for any version)";
        return std::nullopt;
    }
    return range;
}

bool VersionRange::Contains(const Version& version) const {
    for (const Comparator& c : comparators_) {
        bool ok = false;
        switch (c.op) {
            case Op::kEq:
                ok = version == c.version;
                break;
            case Op::kGe:
                ok = version >= c.version;
                break;
            case Op::kGt:
                ok = version > c.version;
                break;
            case Op::kLe:
                ok = version <= c.version;
                break;
            case Op::kLt:
                ok = version < c.version;
                break;
        }
        if (!ok) {
            return false;
        }
    }
    return true;
}

}  // namespace lastro::plugins
