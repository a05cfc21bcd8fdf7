// anbima.subclasses (docs/datasets/anbima_subclasses.md): Lastro's own interchange layout,
// anbima_subclasses.csv, whose header is exactly these columns in this order.
#pragma once

#include "layouts/columns.hpp"

#include <array>
#include <cstddef>
#include <string_view>

namespace lastro::funds {

inline constexpr std::string_view kAnbimaFileName = "anbima_subclasses.csv";

inline constexpr std::array<std::string_view, 17> kAnbimaColumns{"anbima_code",
                                                                 "class_cnpj",
                                                                 "fund_cnpj",
                                                                 "cvm_code",
                                                                 "name",
                                                                 "status",
                                                                 "activity_started_at",
                                                                 "first_subscription_at",
                                                                 "category",
                                                                 "type",
                                                                 "focus",
                                                                 "investor_type",
                                                                 "investor_characteristic",
                                                                 "opening_share",
                                                                 "adapted_to_rcvm_175",
                                                                 "minimum_initial_subscription_brl",
                                                                 "redemption_payment_days"};

// Positions in kAnbimaColumns (the header is fixed, so they are the fields' positions too).
namespace anbima_column {
enum Column : std::size_t {
    kAnbimaCode,
    kClassCnpj,
    kFundCnpj,
    kCvmCode,
    kName,
    kStatus,
    kActivityStartedAt,
    kFirstSubscriptionAt,
    kCategory,
    kType,
    kFocus,
    kInvestorType,
    kInvestorCharacteristic,
    kOpeningShare,
    kAdaptedToRcvm175,
    kMinimumInitialSubscription,
    kRedemptionPaymentDays,
};
}  // namespace anbima_column

}  // namespace lastro::funds
