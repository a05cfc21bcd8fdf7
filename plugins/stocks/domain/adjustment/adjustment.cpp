#include "domain/adjustment/adjustment.hpp"

#include <algorithm>

namespace lastro::stocks {

std::vector<DayFactors> FactorsOf(const std::vector<std::string>& days, const std::vector<PriceEvent>& events,
                                  const std::string& base_date, Adjustment mode) {
    std::vector<DayFactors> factors(days.size());
    if (mode == Adjustment::kNone) {
        return factors;
    }
    // Events by last date with rights, latest first: walking the days backwards, each event joins
    // the running product once the walk reaches its last date with rights.
    std::vector<const PriceEvent*> applied;
    for (const PriceEvent& event : events) {
        const bool wanted = event.kind == "stock" || (mode == Adjustment::kTotal && event.kind == "cash");
        if (wanted && event.last_date_with_rights < base_date) {
            applied.push_back(&event);
        }
    }
    std::sort(applied.begin(), applied.end(), [](const PriceEvent* a, const PriceEvent* b) {
        return a->last_date_with_rights > b->last_date_with_rights;
    });
    DayFactors running;
    std::size_t next = 0;
    for (std::size_t i = days.size(); i-- > 0;) {
        while (next < applied.size() && applied[next]->last_date_with_rights >= days[i]) {
            (applied[next]->kind == "stock" ? running.split : running.dividend) *=
                applied[next]->price_factor;
            ++next;
        }
        factors[i] = running;
    }
    return factors;
}

}  // namespace lastro::stocks
