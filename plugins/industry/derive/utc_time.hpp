// The derivation's clock as text, in UTC: a derivation labels what it writes with the ingest's
// time (sdk::DerivationContext::now), never the local zone's.
#pragma once

#include <ctime>
#include <string>

namespace lastro::industry {

// `format` is a strftime format, e.g. "%Y-%m-%d".
inline std::string UtcText(std::time_t t, const char* format) {
    std::tm utc{};
    gmtime_r(&t, &utc);
    char text[32];
    std::strftime(text, sizeof text, format, &utc);
    return text;
}

inline std::string UtcDate(std::time_t t) {
    return UtcText(t, "%Y-%m-%d");
}
inline std::string Rfc3339(std::time_t t) {
    return UtcText(t, "%Y-%m-%dT%H:%M:%SZ");
}

}  // namespace lastro::industry
