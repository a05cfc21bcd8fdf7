// Which column of an X_4 amortization row holds the BRL amount. CVM's real files put the
// amount per quota in TAB_X_VL_TOTAL and the total in TAB_X_QT_COTA, the reverse of the names,
// for some filers; the series' quota count in X_2 of the same report tells the two readings
// apart (docs/api/fidc-metrics.md#amortization-reading).
#pragma once

#include <optional>
#include <string_view>

namespace lastro::funds {

enum class FidcReading {
    kAsPublished,  // TAB_X_VL_TOTAL is the BRL total, TAB_X_QT_COTA the quotas
    kSwapped,      // TAB_X_QT_COTA is the BRL total, TAB_X_VL_TOTAL the amount per quota
    kUnverified,   // no evidence, or evidence for both or neither: no BRL amount
};

// "as_published", "swapped", "unverified".
std::string_view ReadingName(FidcReading reading);

struct FidcReadAmount {
    FidcReading reading = FidcReading::kUnverified;
    std::optional<double> value_brl;  // NULL when unverified (never a guess) or nothing published
};

// Relative distance within which a published figure matches the series' quota count.
inline constexpr double kReadingTolerance = 0.01;

// `value` and `quota_count` as published (TAB_X_VL_TOTAL, TAB_X_QT_COTA); `series_quotas` the
// series' X_2 TAB_X_QT_COTA in the same report (NULL when the series has no X_2 row).
// Both empty: as published, no amount. Both 0: as published, 0. A value with 0 quotas: as
// published (swapped, a per-quota amount would have a total of 0). Otherwise, with N =
// series_quotas: swapped fits when value != 0 and |quota_count / value - N| <= 1% of N; as
// published fits when |quota_count - N| <= 1% of N; exactly one fitting reading is taken, and
// with no N (NULL or 0), an empty figure, or both or neither fitting, the row is unverified.
FidcReadAmount ReadAmortization(std::optional<double> value, std::optional<double> quota_count,
                                std::optional<double> series_quotas);

}  // namespace lastro::funds
