// The random streams of the sample (Prng::ForStream). Each dataset draws from its own streams, so
// adding one never changes the bytes of another: a new dataset takes a new number here.
#pragma once

#include <cstdint>

namespace lastro::sample {

enum Stream : std::uint64_t {
    // The universe (registry).
    kInstitutionStream = 1,
    kPlanStream = 2,
    kFundStream = 3,
    kIdStream = 4,
    kSupersededStream = 5,
    // The monthly history behind the FIDC reports and the CDA (index: class id).
    kHistoryPlanStream = 10,  // which classes hold securities, which carry the irregularities
    kClassProfileStream = 11,
    kSeriesStream = 12,
    kBalanceStream = 13,  // index: class id and month
    // The FIDC monthly report's descriptive tables (index: class id, month and variant).
    kReportDetailStream = 20,
    kCdaStream = 30,
    kDocumentStream = 40,
    kAnbimaStream = 50,
};

}  // namespace lastro::sample
