// Writes anbima_subclasses.csv (anbima.subclasses): the subclasses of FIDC-family classes as the
// market association identifies them. No public bulk ANBIMA file exists, so this is our own
// layout: UTF-8, ';', unquoted, LF, the header kAnbimaColumns; CNPJs bare, dates YYYY-MM-DD,
// amounts with a decimal point; an empty field is a missing value.
#pragma once

#include "sample/universe.hpp"

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace lastro::funds::sample {

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

struct AnbimaFile {
    std::string bytes;  // UTF-8
    std::size_t rows = 0;
};

// One row per registry subclass of a FIDC-family class (seniority ranked), plus one row per
// class for about twenty single-class FIDCs without registry subclasses (cvm_code empty).
AnbimaFile RenderAnbimaSubclasses(const Universe& universe);

}  // namespace lastro::funds::sample
