// Adjusted prices the CRSP way (docs/api/cotacoes.md, "Adjustment"): raw prices are stored, and
// factors are applied back from a base date. An event with last date with rights L (data com)
// multiplies the prices of every day on or before L by its price factor, when its ex-date (the
// trading day after L) is on or before the base date; several events of one day compose by
// multiplication. Splits, reverse splits and stock dividends also divide earlier quantities by
// their factor (a 1:2 split: prices x 0.5, quantities x 2). Cash events use B3's own number,
// 1 - corporateActionPrice/100, so each factor points to what B3 published.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace lastro::stocks {

enum class Adjustment { kNone, kSplits, kTotal };

struct PriceEvent {
    std::string id;
    std::string kind;   // "cash" or "stock"
    std::string label;  // DIVIDENDO, DESDOBRAMENTO...
    std::string last_date_with_rights;
    double price_factor = 1;
};

struct DayFactors {
    double split = 1;
    double dividend = 1;
    double Total() const { return split * dividend; }
};

// The factors of each of `days` (ascending YYYY-MM-DD) for `mode` against `base_date`.
std::vector<DayFactors> FactorsOf(const std::vector<std::string>& days, const std::vector<PriceEvent>& events,
                                  const std::string& base_date, Adjustment mode);

}  // namespace lastro::stocks
