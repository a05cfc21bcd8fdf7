// The derivation's clock as text, in UTC: a derivation labels what it writes with the ingest's
// time (sdk::DerivationContext::now), never the local zone's (sdk::Rfc3339Utc, sdk::UtcDate).
#pragma once

#include <lastro/sdk/calendar.hpp>

#include <ctime>
#include <string>

namespace lastro::industry {

inline std::string UtcDate(std::time_t t) {
    return sdk::UtcDate(t).ToString();
}
inline std::string Rfc3339(std::time_t t) {
    return sdk::Rfc3339Utc(t);
}

}  // namespace lastro::industry
