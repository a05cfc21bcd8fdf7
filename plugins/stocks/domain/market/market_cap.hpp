// A company's market capitalization (docs/api/acoes.md, "Market capitalization"): the sum over
// its share classes (ON, PN, PNA...) of the class's last close times the class's shares. Units
// and BDRs are claims on those shares and are never added again; a class with a price and no
// share count (or the reverse) is left out and named, never guessed.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace lastro::stocks {

struct CapitalClass {
    std::string ticker;
    std::string share_class;  // ON, PN, PNA...
    std::optional<double> close;
    std::string close_date;
    std::optional<double> shares;
    std::string shares_source;  // "companies.shares_outstanding: capital_social row 3..." or B3's file
};

struct MarketCap {
    std::optional<double> value;  // null when no class has both
    std::vector<const CapitalClass*> parts;
    std::vector<std::pair<const CapitalClass*, std::string>> left_out;  // with the reason
};

MarketCap ComputeMarketCap(const std::vector<CapitalClass>& classes);

}  // namespace lastro::stocks
