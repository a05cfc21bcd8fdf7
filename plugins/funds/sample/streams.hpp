// The random streams of the funds sample (sdk::sample::Prng::ForStream). Each dataset draws from
// its own streams, so adding one never changes the bytes of another. These numbers predate the
// SDK's keyed streams (sdk::sample::StreamOf) and stay, since changing them would change every
// file of the sample; a new dataset takes StreamOf(its id) instead of a number here.
#pragma once

#include <cstdint>

namespace lastro::funds::sample {

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
    kCdaOtherStream = 31,  // the full-size CDA's holders outside the universe (index: their place)
    kDocumentStream = 40,
    kAnbimaStream = 50,
};

}  // namespace lastro::funds::sample
