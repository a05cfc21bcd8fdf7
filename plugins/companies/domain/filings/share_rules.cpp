#include "domain/filings/share_rules.hpp"

#include "domain/text_folding.hpp"

namespace lastro::companies {

bool IsPaidInCapital(const std::optional<std::string>& capital_type) {
    return FoldedFilter(capital_type) == "capital integralizado";
}

std::optional<std::size_t> ChooseCapitalRow(const std::vector<CapitalRow>& rows) {
    std::optional<std::size_t> chosen;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (!IsPaidInCapital(rows[i].capital_type)) {
            continue;
        }
        if (!chosen) {
            chosen = i;
            continue;
        }
        const CapitalRow& best = rows[*chosen];
        const bool later =
            rows[i].approved_on && (!best.approved_on || *rows[i].approved_on > *best.approved_on);
        const bool same = rows[i].approved_on == best.approved_on;
        if (later || (same && rows[i].ordinal < best.ordinal)) {
            chosen = i;
        }
    }
    return chosen;
}

std::optional<std::string> ShareClassOf(const std::optional<std::string>& security,
                                        const std::optional<std::string>& preferred_class) {
    const std::optional<std::string> folded = FoldedFilter(security);
    if (!folded) {
        return std::nullopt;
    }
    if (folded->starts_with("acoes ordinarias") || *folded == "acao ordinaria") {
        return "ON";
    }
    if (folded->starts_with("acoes preferenciais") || *folded == "acao preferencial") {
        return preferred_class ? *preferred_class : "PN";
    }
    if (folded->starts_with("units") || *folded == "unit") {
        return "UNIT";
    }
    return std::nullopt;
}

}  // namespace lastro::companies
