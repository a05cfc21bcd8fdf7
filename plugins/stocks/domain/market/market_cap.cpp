#include "domain/market/market_cap.hpp"

namespace lastro::stocks {

MarketCap ComputeMarketCap(const std::vector<CapitalClass>& classes) {
    MarketCap cap;
    double total = 0;
    for (const CapitalClass& item : classes) {
        if (!item.close) {
            cap.left_out.emplace_back(&item, "no close loaded");
            continue;
        }
        if (!item.shares) {
            cap.left_out.emplace_back(&item,
                                      "no share count of its class in the FRE or in B3's company data");
            continue;
        }
        total += *item.close * *item.shares;
        cap.parts.push_back(&item);
    }
    if (!cap.parts.empty()) {
        cap.value = total;
    }
    return cap;
}

}  // namespace lastro::stocks
