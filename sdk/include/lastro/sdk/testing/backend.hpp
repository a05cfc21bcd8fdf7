// The two database backends a plugin's code runs on; tests run on both.
#pragma once

#include <ostream>
#include <string>

namespace lastro::sdk::testing {

enum class Backend { kSqlite, kPostgres };

inline std::string BackendName(Backend backend) {
    return backend == Backend::kSqlite ? "sqlite" : "postgres";
}

// For GoogleTest's messages ("sqlite" rather than the bytes of the enum).
inline void PrintTo(Backend backend, std::ostream* os) {
    *os << BackendName(backend);
}

}  // namespace lastro::sdk::testing
