// Renders the portfolios of FIDC-family classes as CVM's CDA (cvm.cda_fi, FORMATS.md §4):
// `cda_fi_YYYYMM.zip` with the members cda_fi_BLC_1..8, cda_fi_CONFID (from 2026-06),
// cda_fi_PL and cda_fie, ISO-8859-1, ';', masked CNPJs. Holders are every FIC-FIDC class and
// the FIDCs the history marks as holding securities; positions add up to the securities of the
// same month's FIDC report, and PL equals its tab_IV. Headers: CdaColumns (layouts/cda_fi.hpp).
#pragma once

#include "layouts/cda_fi.hpp"
#include "sample/kit.hpp"
#include "sample/monthly_history.hpp"

#include <lastro/sdk/calendar.hpp>

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::funds::sample {

inline constexpr sdk::Month kFirstCdaMonth{2026, 3};
inline constexpr sdk::Month kLastCdaMonth{2026, 8};
// The member of confidential positions appears from this month on.
inline constexpr sdk::Month kFirstConfidentialMonth{2026, 6};
inline constexpr std::string_view kCdaClassType = "CLASSES - FIDC";

std::string CdaZipName(const sdk::Month& month);  // cda_fi_202608.zip

struct CdaMonth {
    sdk::Month month;
    std::vector<ArchiveMember> members;
    std::size_t positions = 0;  // BLC_1..BLC_8 rows
};

// The CDA holders of the real file that the FIDC universe leaves out, written at kFull so that
// a month holds as many PL lines as CVM's: its PL of 2026-05 lists 25,381 `CLASSES - FIF`, 145
// `CLASSES - FIP` and 8 `FI` (shared/datasets/FORMATS.md §4, counted on the real file).
inline constexpr std::size_t kOtherFifHolders = 25'381;
inline constexpr std::size_t kOtherFipHolders = 145;
inline constexpr std::size_t kOtherFiHolders = 8;

// The six months 2026-03 .. 2026-08 (those the history covers, when it is shorter), oldest first.
// kSample: the universe's holders. kFull: the same holders (of the full-size universe) and, each
// month, the 25,534 other holders above with 1 to 30 positions each (about 9 on average: the
// shared material gives no row count per block, so that figure is ours), in invented CNPJs.
std::vector<CdaMonth> RenderCda(const Universe& universe, const History& history,
                                UniverseSize size = UniverseSize::kSample);
// The same months handed to `sink` one at a time, oldest first, so that only one full-size month
// (about 240,000 positions) is in memory at once.
void RenderCda(const Universe& universe, const History& history, UniverseSize size,
               const std::function<void(CdaMonth&&)>& sink);

}  // namespace lastro::funds::sample
