// Helpers of the kit's own sources (not installed): YAML for the configurations it writes, and
// commands that must succeed.
#pragma once

#include <lastro/sdk/testing/backend.hpp>
#include <lastro/sdk/testing/process.hpp>

#include <stdexcept>
#include <string>

namespace lastro::sdk::testing {

// A YAML double-quoted scalar.
inline std::string Quote(const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') {
            out.push_back('\\');
        }
        out.push_back(c);
    }
    return out + "\"";
}

// `manifest_dirs: [...]` items.
template <typename Paths>
std::string QuotedList(const Paths& paths) {
    std::string list;
    for (const auto& path : paths) {
        list += (list.empty() ? "" : ", ") + Quote(path.string());
    }
    return list;
}

// The `database:` section of a configuration: a SQLite file, or a PostgreSQL conninfo.
inline std::string DatabaseYaml(Backend backend, const std::string& path_or_conninfo) {
    return backend == Backend::kSqlite
               ? "database:\n  backend: sqlite\n  sqlite:\n    path: " + Quote(path_or_conninfo) + "\n"
               : "database:\n  backend: pgsql\n  pgsql:\n    conninfo: " + Quote(path_or_conninfo) + "\n";
}

inline void Require(const CommandResult& result, const std::string& what) {
    if (result.exit_code != 0 || result.timed_out) {
        throw std::runtime_error(what + " failed: " + result.Describe());
    }
}

}  // namespace lastro::sdk::testing
