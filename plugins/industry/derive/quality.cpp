#include "derive/quality.hpp"

#include <boost/json/object.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>

namespace lastro::industry {
namespace {

std::optional<double> NavIn(const NavByCnpj& month, const std::string& cnpj) {
    const auto found = month.find(cnpj);
    return found == month.end() ? std::nullopt : found->second;
}

boost::json::object Warning(const MonthUniverse& universe, const Vehicle& v, const char* rule,
                            std::string_view field, double value, const char* unit, const char* set_aside,
                            const std::string& detail) {
    return {{"month", universe.month},
            {"rule", rule},
            {"cnpj", v.cnpj},
            {"name", v.name ? boost::json::value(*v.name) : nullptr},
            {"field", field},
            {"value", value},
            {"unit", unit},
            {"set_aside", set_aside},
            {"detail", detail}};
}

std::string Brl(double value) {
    char text[64];
    std::snprintf(text, sizeof text, "R$ %.2f", value);
    return text;
}

bool OutOfRange(const std::optional<double>& nav) {
    return nav && std::fabs(*nav) >= kAmountLimitBrl;
}

bool Negative(const std::optional<double>& nav) {
    return nav && *nav < 0;
}

bool Spike(const std::optional<double>& nav, const std::optional<double>& before,
           const std::optional<double>& after) {
    return nav && *nav > kSpikeFloorBrl && before && after && *nav > kSpikeFactor * std::fabs(*before) &&
           *nav > kSpikeFactor * std::fabs(*after);
}

}  // namespace

bool ReportSetAside(const std::optional<double>& nav, const std::optional<double>& before,
                    const std::optional<double>& after) {
    return OutOfRange(nav) || Negative(nav) || Spike(nav, before, after);
}

boost::json::array ApplySanityFilters(MonthUniverse& universe, const NavByCnpj& previous,
                                      const NavByCnpj& next) {
    boost::json::array warnings;
    for (Vehicle& v : universe.vehicles) {
        const Report& report = *v.report;
        // The report as a whole: an amount beyond any real vehicle, a negative net worth, or a
        // net worth that spikes above both neighbouring months.
        const std::optional<double> before = NavIn(previous, v.cnpj);
        const std::optional<double> after = NavIn(next, v.cnpj);
        if (OutOfRange(v.nav)) {
            v.report_set_aside = true;
            warnings.push_back(Warning(universe, v, "amount_out_of_range", "TAB_IV_A_VL_PL", *v.nav, "BRL",
                                       "report", "net worth beyond R$ 10 trillion"));
        } else if (Negative(v.nav)) {
            v.report_set_aside = true;
            warnings.push_back(Warning(universe, v, "negative_nav", "TAB_IV_A_VL_PL", *v.nav, "BRL", "report",
                                       "negative net worth"));
        } else if (Spike(v.nav, before, after)) {
            v.report_set_aside = true;
            warnings.push_back(Warning(universe, v, "nav_spike", "TAB_IV_A_VL_PL", *v.nav, "BRL", "report",
                                       "net worth over 20 times both the month before (" + Brl(*before) +
                                           ") and the month after (" + Brl(*after) + ")"));
        }
        // Operations far beyond the vehicle's net worth.
        const double scale =
            std::max(std::fabs(v.nav.value_or(0)), std::fabs(NavIn(previous, v.cnpj).value_or(0)));
        const double limit = std::min(kOperationFactor * scale + kOperationSlackBrl, kAmountLimitBrl);
        for (std::size_t i = 0; i < report.operations.size(); ++i) {
            const std::optional<double>& value = report.operations[i].value_brl;
            if (value && std::fabs(*value) > limit) {
                v.operation_set_aside[i] = true;
                warnings.push_back(
                    Warning(universe, v, "operation_outlier", "TAB_X_VL_TOTAL", *value, "BRL", "operation",
                            report.operations[i].kind + " of series " + report.operations[i].series_key +
                                " over 3 x max(net worth, net worth the month before) + R$ 100 million"));
            }
        }
        // A cedente's share above 100% of the receivables.
        for (const auto& table : kCedenteShares) {
            for (const funds::FidcField field : table) {
                const std::optional<double> share = Published(report, field);
                if (share && (*share > kMaxSharePct || *share < 0)) {
                    v.cedentes_set_aside = true;
                    warnings.push_back(Warning(universe, v, "share_over_100", funds::ColumnName(field),
                                               *share, "percent", "cedentes",
                                               "a cedente's share outside 0..100% of the receivables"));
                }
            }
        }
    }
    return warnings;
}

}  // namespace lastro::industry
