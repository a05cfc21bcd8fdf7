#include "derive/indicators.hpp"

#include <lastro/sdk/serving/money.hpp>

#include <boost/json/array.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

namespace lastro::industry {
namespace {

using boost::json::array;
using boost::json::object;
using boost::json::value;
using Maybe = std::optional<double>;
using Field = funds::FidcField;

value Json(const Maybe& x) {
    return x ? value(*x) : value(nullptr);
}
value Money(const Maybe& x) {
    return x ? value(sdk::RoundToCents(*x)) : value(nullptr);
}
Maybe Ratio(const Maybe& a, const Maybe& b) {
    if (!a || !b || *b == 0) {
        return std::nullopt;
    }
    return *a / *b;
}

// An item under construction: its figures and the unit of each.
class Item {
public:
    explicit Item(const std::string& month) { item_["month"] = month; }
    void Brl(const char* name, const Maybe& x) { Put(name, Money(x), "BRL"); }
    void Count(const char* name, std::int64_t x) { Put(name, x, "count"); }
    void Fraction(const char* name, const Maybe& x) { Put(name, Json(x), "fraction"); }
    void Percent(const char* name, const Maybe& x) { Put(name, Json(x), "percent"); }
    void Put(const char* name, value x, const char* unit) {
        item_[name] = std::move(x);
        if (unit) {
            units_[name] = unit;
        }
    }
    void Unit(const std::string& name, const char* unit) { units_[name] = unit; }
    object Take() {
        item_["units"] = std::move(units_);
        return std::move(item_);
    }

private:
    object item_;
    object units_;
};

// A sum over vehicles of amounts some may not report: the sum of those present (null when none
// is) and how many did not report.
struct Total {
    sdk::MoneySum sum;
    void Add(const Maybe& x) { sum.Add(x); }
    Maybe Value() const { return sum.PartialTotal(); }
    std::int64_t Missing() const { return static_cast<std::int64_t>(sum.Missing()); }
};

// Nearest-rank percentile of sorted values.
Maybe Percentile(const std::vector<double>& sorted, double p) {
    if (sorted.empty()) {
        return std::nullopt;
    }
    const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(sorted.size())));
    return sorted[std::min(sorted.size() - 1, rank == 0 ? 0 : rank - 1)];
}

Maybe Median(std::vector<double> values) {
    if (values.empty()) {
        return std::nullopt;
    }
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

struct Column {
    const char* key;
    Field field;
};

constexpr Column kAssetColumns[] = {
    {"cash", Field::TAB_I1_VL_DISP},
    {"receivables_with_risk", Field::TAB_I2A_VL_DIRCRED_RISCO},
    {"receivables_without_risk", Field::TAB_I2B_VL_DIRCRED_SEM_RISCO},
    {"securities", Field::TAB_I2C_VL_VLMOB},
    {"federal_bonds", Field::TAB_I2D_VL_TITPUB_FED},
    {"bank_deposits", Field::TAB_I2E_VL_CDB},
    {"repos", Field::TAB_I2F_VL_OPER_COMPROM},
    {"other_fixed_income", Field::TAB_I2G_VL_OUTRO_RF},
    {"fidc_quotas", Field::TAB_I2H_VL_COTA_FIDC},
    {"fidc_np_quotas", Field::TAB_I2I_VL_COTA_FIDC_NP},
    {"futures", Field::TAB_I2J_VL_CONTRATO_FUTURO},
    {"other_portfolio_assets", Field::TAB_I2_VL_OUTRO_ATIVO},
    {"derivatives", Field::TAB_I3_VL_POSICAO_DERIV},
    {"other_assets", Field::TAB_I4_VL_OUTRO_ATIVO},
};

constexpr const char* kBandLabels[10] = {
    "up_to_30_days",   "31_to_60_days",   "61_to_90_days",   "91_to_120_days",   "121_to_150_days",
    "151_to_180_days", "181_to_360_days", "361_to_720_days", "721_to_1080_days", "over_1080_days"};

constexpr Column kLiquidityColumns[] = {
    {"immediate", Field::TAB_X_VL_LIQUIDEZ_0},
    {"up_to_30_days", Field::TAB_X_VL_LIQUIDEZ_30},
    {"up_to_60_days", Field::TAB_X_VL_LIQUIDEZ_60},
    {"up_to_90_days", Field::TAB_X_VL_LIQUIDEZ_90},
    {"up_to_180_days", Field::TAB_X_VL_LIQUIDEZ_180},
    {"up_to_360_days", Field::TAB_X_VL_LIQUIDEZ_360},
    {"over_360_days", Field::TAB_X_VL_LIQUIDEZ_MAIOR_360},
};

// Investors by category (table X_1_1): senior, then subordinated.
struct InvestorCategory {
    const char* key;
    Field senior;
    Field subordinated;
};

constexpr InvestorCategory kInvestorCategories[] = {
    {"individuals", Field::TAB_X_NR_COTST_SENIOR_PF, Field::TAB_X_NR_COTST_SUBORD_PF},
    {"non_financial_companies", Field::TAB_X_NR_COTST_SENIOR_PJ_NAO_FINANC,
     Field::TAB_X_NR_COTST_SUBORD_PJ_NAO_FINANC},
    {"banks", Field::TAB_X_NR_COTST_SENIOR_BANCO, Field::TAB_X_NR_COTST_SUBORD_BANCO},
    {"brokers_and_distributors", Field::TAB_X_NR_COTST_SENIOR_CORRETORA_DISTRIB,
     Field::TAB_X_NR_COTST_SUBORD_CORRETORA_DISTRIB},
    {"other_financial_companies", Field::TAB_X_NR_COTST_SENIOR_PJ_FINANC,
     Field::TAB_X_NR_COTST_SUBORD_PJ_FINANC},
    {"non_resident_investors", Field::TAB_X_NR_COTST_SENIOR_INVNR, Field::TAB_X_NR_COTST_SUBORD_INVNR},
    {"open_pension_entities", Field::TAB_X_NR_COTST_SENIOR_EAPC, Field::TAB_X_NR_COTST_SUBORD_EAPC},
    {"closed_pension_entities", Field::TAB_X_NR_COTST_SENIOR_EFPC, Field::TAB_X_NR_COTST_SUBORD_EFPC},
    {"public_pension_regimes", Field::TAB_X_NR_COTST_SENIOR_RPPS, Field::TAB_X_NR_COTST_SUBORD_RPPS},
    {"insurers", Field::TAB_X_NR_COTST_SENIOR_SEGUR, Field::TAB_X_NR_COTST_SUBORD_SEGUR},
    {"capitalization_companies", Field::TAB_X_NR_COTST_SENIOR_CAPITALIZ,
     Field::TAB_X_NR_COTST_SUBORD_CAPITALIZ},
    {"fidc_quota_funds", Field::TAB_X_NR_COTST_SENIOR_COTA_FIDC, Field::TAB_X_NR_COTST_SUBORD_COTA_FIDC},
    {"real_estate_funds", Field::TAB_X_NR_COTST_SENIOR_FII, Field::TAB_X_NR_COTST_SUBORD_FII},
    {"other_funds", Field::TAB_X_NR_COTST_SENIOR_OUTRO_FI, Field::TAB_X_NR_COTST_SUBORD_OUTRO_FI},
    {"investment_clubs", Field::TAB_X_NR_COTST_SENIOR_CLUBE, Field::TAB_X_NR_COTST_SUBORD_CLUBE},
    {"others", Field::TAB_X_NR_COTST_SENIOR_OUTRO, Field::TAB_X_NR_COTST_SUBORD_OUTRO},
};

// Table X's SCR ratings of debtors.
struct Rating {
    const char* rating;
    Field field;
};

constexpr Rating kRatings[] = {
    {"AA", Field::TAB_X_SCR_RISCO_DEVEDOR_AA}, {"A", Field::TAB_X_SCR_RISCO_DEVEDOR_A},
    {"B", Field::TAB_X_SCR_RISCO_DEVEDOR_B},   {"C", Field::TAB_X_SCR_RISCO_DEVEDOR_C},
    {"D", Field::TAB_X_SCR_RISCO_DEVEDOR_D},   {"E", Field::TAB_X_SCR_RISCO_DEVEDOR_E},
    {"F", Field::TAB_X_SCR_RISCO_DEVEDOR_F},   {"G", Field::TAB_X_SCR_RISCO_DEVEDOR_G},
    {"H", Field::TAB_X_SCR_RISCO_DEVEDOR_H},
};

// Share of each part in a total, as {"key", "vehicles", "nav_brl", "share_ratio"} rows.
struct Group {
    std::int64_t vehicles = 0;
    Total nav;
};

array GroupRows(const std::map<std::string, Group>& groups, const char* key_name, const Maybe& total) {
    array rows;
    for (const auto& [key, group] : groups) {
        rows.push_back(object{{key_name, key},
                              {"vehicles", group.vehicles},
                              {"nav_brl", Money(group.nav.Value())},
                              {"share_ratio", Json(Ratio(group.nav.Value(), total))}});
    }
    return rows;
}

// Top-n share and Herfindahl-Hirschman index (0..10,000) of positive amounts.
void Concentration(Item& item, const std::string& prefix, std::vector<double> amounts,
                   std::initializer_list<std::size_t> tops) {
    std::sort(amounts.begin(), amounts.end(), std::greater<>());
    double total = 0;
    for (const double a : amounts) {
        total += a;
    }
    item.Put((prefix + "_count").c_str(), static_cast<std::int64_t>(amounts.size()), "count");
    for (const std::size_t n : tops) {
        double top = 0;
        for (std::size_t i = 0; i < std::min(n, amounts.size()); ++i) {
            top += amounts[i];
        }
        item.Fraction((prefix + "_top" + std::to_string(n) + "_share_ratio").c_str(),
                      total > 0 ? Maybe(top / total) : std::nullopt);
    }
    Maybe hhi;
    if (total > 0) {
        double sum = 0;
        for (const double a : amounts) {
            sum += (a / total) * (a / total);
        }
        hhi = sum * 10000;
    }
    item.Put((prefix + "_hhi").c_str(), Json(hhi), "index (0..10000)");
}

// One month of one universe, as every indicator reads it.
struct MonthView {
    const MonthUniverse& universe;
    bool include_fic_fidc;
    const PreviousMonth& previous;
    bool has_previous_month;
    std::vector<const Vehicle*> in;  // in the universe and not set aside
    std::int64_t set_aside = 0;
    // Totals of the whole month, FIC-FIDC included, side by side (they may double count).
    Total nav_raw, nav_ex_fic, quotas_held;

    // The vehicle of the month before in the same universe, not set aside; null otherwise.
    const PreviousVehicle* InPrevious(const std::string& cnpj) const {
        const auto found = previous.find(cnpj);
        if (found == previous.end() || found->second.set_aside ||
            (!include_fic_fidc && found->second.fic_fidc)) {
            return nullptr;
        }
        return &found->second;
    }
};

// resumo
object Resumo(const MonthView& m) {
    Item item(m.universe.month);
    Total nav, assets, receivables, investors_total;
    sdk::MoneySum pdd_num, pdd_den, rec_num, rec_den, sub_num, sub_den;
    double delinquent = 0, band_denominator = 0;
    std::int64_t classes = 0, funds = 0, fic = 0, delinquency_vehicles = 0, investors_missing = 0;
    std::int64_t investors = 0;
    for (const Vehicle* v : m.in) {
        const funds::FidcMonthlyFact& f = v->report->fact;
        (v->kind == "class" ? classes : funds) += 1;
        fic += v->fic_fidc ? 1 : 0;
        nav.Add(f.nav);
        assets.Add(f.assets_total);
        receivables.Add(f.receivables_net);
        if (f.receivables_net && f.nav) {
            rec_num.Add(f.receivables_net);
            rec_den.Add(f.nav);
        }
        if (f.pdd && f.receivables_gross) {
            pdd_num.Add(f.pdd);
            pdd_den.Add(f.receivables_gross);
        }
        if (f.series_nav_total && f.subordinated_nav && f.mezzanine_nav) {
            sub_num.Add(sdk::SumOfAmounts({f.subordinated_nav, f.mezzanine_nav}));
            sub_den.Add(f.series_nav_total);
        }
        // Broad delinquency: overdue over to-mature plus overdue, tables V and VI, every band.
        const funds::FidcMaturityBands& b = v->report->bands;
        double d = 0, all = 0;
        bool complete = true;
        for (std::size_t i = 0; i < 10 && complete; ++i) {
            for (const Maybe* x : {&b.delinquent_with_risk[i], &b.delinquent_without_risk[i]}) {
                complete = complete && x->has_value();
                d += x->value_or(0);
                all += x->value_or(0);
            }
            for (const Maybe* x : {&b.to_mature_with_risk[i], &b.to_mature_without_risk[i]}) {
                complete = complete && x->has_value();
                all += x->value_or(0);
            }
        }
        if (complete && all > 0) {
            delinquent += d;
            band_denominator += all;
            ++delinquency_vehicles;
        }
        if (f.investor_count) {
            investors += *f.investor_count;
        } else {
            ++investors_missing;
        }
    }
    item.Count("vehicles", static_cast<std::int64_t>(m.in.size()));
    item.Count("classes", classes);
    item.Count("funds", funds);
    item.Count("fic_fidc_vehicles", fic);
    item.Count("vehicles_set_aside", m.set_aside);
    item.Brl("nav_brl", nav.Value());
    item.Count("nav_missing", nav.Missing());
    item.Brl("nav_all_vehicles_brl", m.nav_raw.Value());
    item.Brl("nav_ex_fic_fidc_brl", m.nav_ex_fic.Value());
    item.Brl("fidc_quotas_held_brl", m.quotas_held.Value());
    item.Brl("nav_net_of_fidc_quotas_brl",
             m.nav_raw.Value() ? sdk::MoneyDifference(m.nav_raw.Value(), m.quotas_held.Value().value_or(0))
                               : Maybe());
    item.Brl("assets_brl", assets.Value());
    item.Brl("receivables_brl", receivables.Value());
    item.Fraction("receivables_to_nav_ratio", Ratio(rec_num.PartialTotal(), rec_den.PartialTotal()));
    item.Fraction("delinquency_ratio", delinquency_vehicles ? Maybe(delinquent / band_denominator) : Maybe());
    item.Count("delinquency_vehicles", delinquency_vehicles);
    item.Fraction("pdd_ratio", Ratio(pdd_num.PartialTotal(), pdd_den.PartialTotal()));
    item.Fraction("subordination_ratio", Ratio(sub_num.PartialTotal(), sub_den.PartialTotal()));
    item.Count("investor_positions", investors);
    item.Count("investor_positions_missing", investors_missing);
    // Variation against the month before: raw, and over the same vehicles (same store).
    Maybe previous_nav, same_now, same_before;
    if (m.has_previous_month) {
        Total before;
        for (const auto& [cnpj, p] : m.previous) {
            if (m.InPrevious(cnpj)) {
                before.Add(p.nav);
            }
        }
        previous_nav = before.Value();
        sdk::MoneySum now_same, before_same;
        for (const Vehicle* v : m.in) {
            const PreviousVehicle* p = m.InPrevious(v->cnpj);
            if (p && p->nav && v->nav) {
                now_same.Add(v->nav);
                before_same.Add(p->nav);
            }
        }
        same_now = now_same.PartialTotal();
        same_before = before_same.PartialTotal();
    }
    const Maybe change = Ratio(nav.Value(), previous_nav);
    item.Fraction("nav_change_ratio", change ? Maybe(*change - 1) : Maybe());
    const Maybe same = Ratio(same_now, same_before);
    item.Fraction("nav_same_store_change_ratio", same ? Maybe(*same - 1) : Maybe());
    return item.Take();
}

// fluxos
object Fluxos(const MonthView& m) {
    Item item(m.universe.month);
    Total subscriptions, redemptions, amortizations, pending;
    std::int64_t unverified = 0, ops_set_aside = 0, entries = 0, exits = 0;
    Total set_aside_brl, entries_nav, exits_nav;
    sdk::MoneySum same_now, same_before, same_flow;
    for (const Vehicle* v : m.in) {
        const auto& ops = v->report->operations;
        for (std::size_t i = 0; i < ops.size(); ++i) {
            if (v->operation_set_aside[i]) {
                ++ops_set_aside;
                set_aside_brl.Add(ops[i].value_brl);
                continue;
            }
            if (ops[i].kind == "subscription") {
                subscriptions.Add(ops[i].value_brl);
            } else if (ops[i].kind == "redemption") {
                redemptions.Add(ops[i].value_brl);
            } else if (ops[i].kind == "amortization") {
                if (!ops[i].value_brl) {
                    ++unverified;
                }
                amortizations.Add(ops[i].value_brl);
            } else if (ops[i].kind == "pending_redemption") {
                pending.Add(ops[i].value_brl);
            }
        }
        if (m.has_previous_month) {
            const PreviousVehicle* p = m.InPrevious(v->cnpj);
            if (!p) {
                ++entries;
                entries_nav.Add(v->nav);
            } else if (p->nav && v->nav) {
                if (const Maybe flow = NetFlow(*v)) {
                    same_now.Add(v->nav);
                    same_before.Add(p->nav);
                    same_flow.Add(flow);
                }
            }
        }
    }
    if (m.has_previous_month) {
        std::set<std::string> now;
        for (const Vehicle& v : m.universe.vehicles) {
            now.insert(v.cnpj);
        }
        for (const auto& [cnpj, p] : m.previous) {
            if (m.InPrevious(cnpj) && !now.count(cnpj)) {
                ++exits;
                exits_nav.Add(p.nav);
            }
        }
    }
    item.Brl("subscriptions_brl", subscriptions.Value());
    item.Brl("redemptions_brl", redemptions.Value());
    item.Brl("amortizations_brl", amortizations.Value());
    item.Count("amortizations_unverified", unverified);
    item.Brl("pending_redemptions_brl", pending.Value());
    const Maybe out = sdk::SumOfAmounts({redemptions.Value().value_or(0), amortizations.Value().value_or(0)});
    item.Brl("net_flow_brl", subscriptions.Value() || redemptions.Value() || amortizations.Value()
                                 ? sdk::MoneyDifference(subscriptions.Value().value_or(0), out)
                                 : Maybe());
    item.Count("operations_set_aside", ops_set_aside);
    item.Brl("operations_set_aside_brl", set_aside_brl.Value());
    const Maybe change = m.has_previous_month && same_now.Present()
                             ? sdk::MoneyDifference(same_now.PartialTotal(), same_before.PartialTotal())
                             : Maybe();
    item.Brl("same_store_nav_change_brl", change);
    item.Brl("same_store_net_flow_brl", m.has_previous_month ? same_flow.PartialTotal() : Maybe());
    item.Brl("same_store_implied_return_brl",
             change ? sdk::MoneyDifference(change, same_flow.PartialTotal().value_or(0)) : Maybe());
    item.Put("entries", m.has_previous_month ? value(entries) : value(nullptr), "count");
    item.Brl("entries_nav_brl", m.has_previous_month ? entries_nav.Value() : Maybe());
    item.Put("exits", m.has_previous_month ? value(exits) : value(nullptr), "count");
    item.Brl("exits_previous_nav_brl", m.has_previous_month ? exits_nav.Value() : Maybe());
    return item.Take();
}

// segmentos (table II sub-items only: the totals C, D, F, H, I are not added again)
object Segmentos(const MonthView& m) {
    Item item(m.universe.month);
    std::map<std::string, std::pair<std::string, Total>> segments;
    std::vector<std::string> order;
    std::int64_t reporting = 0;
    Total total;
    for (const Vehicle* v : m.in) {
        if (v->report->segments.empty()) {
            continue;
        }
        ++reporting;
        for (const funds::FidcSegmentFact& s : v->report->segments) {
            auto [it, fresh] = segments.try_emplace(s.code, s.name, Total{});
            if (fresh) {
                order.push_back(s.code);
            }
            it->second.second.Add(s.value);
            total.Add(s.value);
        }
    }
    array rows;
    for (const std::string& code : order) {
        const auto& [name, sum] = segments.at(code);
        rows.push_back(object{{"code", code},
                              {"name", name},
                              {"value_brl", Money(sum.Value())},
                              {"share_ratio", Json(Ratio(sum.Value(), total.Value()))}});
    }
    item.Count("vehicles_reporting", reporting);
    item.Brl("total_brl", total.Value());
    item.Put("segments", std::move(rows), nullptr);
    item.Unit("segments.value_brl", "BRL");
    item.Unit("segments.share_ratio", "fraction");
    return item.Take();
}

// ativos (table I)
object Ativos(const MonthView& m) {
    Item item(m.universe.month);
    Total assets;
    std::vector<Total> parts(std::size(kAssetColumns));
    for (const Vehicle* v : m.in) {
        assets.Add(v->report->fact.assets_total);
        for (std::size_t i = 0; i < parts.size(); ++i) {
            parts[i].Add(Published(*v->report, kAssetColumns[i].field));
        }
    }
    array rows;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        rows.push_back(object{{"key", kAssetColumns[i].key},
                              {"column", funds::ColumnName(kAssetColumns[i].field)},
                              {"value_brl", Money(parts[i].Value())},
                              {"vehicles_missing", parts[i].Missing()},
                              {"share_ratio", Json(Ratio(parts[i].Value(), assets.Value()))}});
    }
    item.Brl("assets_brl", assets.Value());
    item.Count("assets_missing", assets.Missing());
    item.Put("components", std::move(rows), nullptr);
    item.Unit("components.value_brl", "BRL");
    item.Unit("components.vehicles_missing", "count");
    item.Unit("components.share_ratio", "fraction of assets_brl");
    return item.Take();
}

// prazos (tables V and VI bands, table X_5 liquidity)
object Prazos(const MonthView& m) {
    Item item(m.universe.month);
    std::vector<Total> to_mature(10), delinquent(10), liquidity(std::size(kLiquidityColumns));
    for (const Vehicle* v : m.in) {
        const funds::FidcMaturityBands& b = v->report->bands;
        for (std::size_t i = 0; i < 10; ++i) {
            if (b.to_mature_with_risk[i] || b.to_mature_without_risk[i]) {
                to_mature[i].Add(sdk::SumOfAmounts(
                    {b.to_mature_with_risk[i].value_or(0), b.to_mature_without_risk[i].value_or(0)}));
            }
            if (b.delinquent_with_risk[i] || b.delinquent_without_risk[i]) {
                delinquent[i].Add(sdk::SumOfAmounts(
                    {b.delinquent_with_risk[i].value_or(0), b.delinquent_without_risk[i].value_or(0)}));
            }
        }
        for (std::size_t i = 0; i < liquidity.size(); ++i) {
            liquidity[i].Add(Published(*v->report, kLiquidityColumns[i].field));
        }
    }
    array mature_rows, delinquent_rows, liquidity_rows;
    for (std::size_t i = 0; i < 10; ++i) {
        mature_rows.push_back(object{{"band", kBandLabels[i]}, {"value_brl", Money(to_mature[i].Value())}});
        delinquent_rows.push_back(
            object{{"band", kBandLabels[i]}, {"value_brl", Money(delinquent[i].Value())}});
    }
    for (std::size_t i = 0; i < liquidity.size(); ++i) {
        liquidity_rows.push_back(object{{"bucket", kLiquidityColumns[i].key},
                                        {"column", funds::ColumnName(kLiquidityColumns[i].field)},
                                        {"value_brl", Money(liquidity[i].Value())},
                                        {"vehicles_missing", liquidity[i].Missing()}});
    }
    item.Put("to_mature", std::move(mature_rows), nullptr);
    item.Put("delinquent", std::move(delinquent_rows), nullptr);
    item.Put("liquidity", std::move(liquidity_rows), nullptr);
    item.Unit("to_mature.value_brl", "BRL");
    item.Unit("delinquent.value_brl", "BRL");
    item.Unit("liquidity.value_brl", "BRL (cumulative, as CVM's buckets are)");
    item.Unit("liquidity.vehicles_missing", "count");
    return item.Take();
}

// rentabilidade (X_3, X_6 by seniority, weighted by each series' net worth in X_2)
object Rentabilidade(const MonthView& m) {
    Item item(m.universe.month);
    struct Seniority {
        std::vector<double> returns;
        double weighted = 0, weights = 0;
        double expected = 0, real = 0;
        std::int64_t expected_count = 0;
    };
    std::map<std::string, Seniority> by;
    for (const Vehicle* v : m.in) {
        for (const funds::FidcSeriesFact& s : v->report->series) {
            if (!s.profitability_pct) {
                continue;
            }
            Seniority& g = by[s.seniority];
            g.returns.push_back(*s.profitability_pct);
            if (s.quota_count && s.quota_value && *s.quota_count > 0 && *s.quota_value > 0) {
                const double w = *s.quota_count * *s.quota_value;
                g.weighted += w * *s.profitability_pct;
                g.weights += w;
            }
            if (s.expected_performance_pct && s.real_performance_pct) {
                g.expected += *s.expected_performance_pct;
                g.real += *s.real_performance_pct;
                ++g.expected_count;
            }
        }
    }
    array rows;
    for (const char* seniority : {"senior", "mezzanine", "subordinated", "unknown"}) {
        const auto found = by.find(seniority);
        const Seniority empty;
        const Seniority& g = found == by.end() ? empty : found->second;
        rows.push_back(
            object{{"seniority", seniority},
                   {"series", static_cast<std::int64_t>(g.returns.size())},
                   {"nav_weighted_return_pct", Json(g.weights > 0 ? Maybe(g.weighted / g.weights) : Maybe())},
                   {"median_return_pct", Json(Median(g.returns))},
                   {"mean_expected_performance_pct",
                    Json(g.expected_count ? Maybe(g.expected / g.expected_count) : Maybe())},
                   {"mean_real_performance_pct",
                    Json(g.expected_count ? Maybe(g.real / g.expected_count) : Maybe())},
                   {"series_with_expected_performance", g.expected_count}});
    }
    item.Put("by_seniority", std::move(rows), nullptr);
    item.Unit("by_seniority.series", "count");
    item.Unit("by_seniority.nav_weighted_return_pct", "percent a month");
    item.Unit("by_seniority.median_return_pct", "percent a month");
    item.Unit("by_seniority.mean_expected_performance_pct", "percent of the benchmark");
    item.Unit("by_seniority.mean_real_performance_pct", "percent of the benchmark");
    item.Unit("by_seniority.series_with_expected_performance", "count");
    return item.Take();
}

// concentracao (cedentes of table I, debtors of table VIII, SCR ratings of table X)
object Concentracao(const MonthView& m) {
    Item item(m.universe.month);
    Total receivables_all;
    sdk::MoneySum cedente_receivables, debtor_receivables, debtor_exposure;
    double top1_weighted = 0, top9_weighted = 0, top1_debtor_weighted = 0;
    std::int64_t cedente_vehicles = 0, debtor_vehicles = 0, cedentes_set_aside = 0;
    std::vector<Total> ratings(std::size(kRatings));
    for (const Vehicle* v : m.in) {
        const Maybe receivables = v->report->fact.receivables_net;
        receivables_all.Add(receivables);
        if (v->cedentes_set_aside) {
            ++cedentes_set_aside;
        } else if (receivables && *receivables > 0) {
            // The table of credit rights with acquisition of risks (I2A12) when it names
            // cedentes, else the one without (I2B12); weighted by the vehicle's receivables.
            std::array<Maybe, 9> shares{};
            bool any = false;
            for (const auto& table : kCedenteShares) {
                for (std::size_t k = 0; k < table.size(); ++k) {
                    shares[k] = Published(*v->report, table[k]);
                    any = any || shares[k].has_value();
                }
                if (any) {
                    break;
                }
            }
            if (any) {
                double top9 = 0;
                for (const Maybe& share : shares) {
                    top9 += share.value_or(0);
                }
                ++cedente_vehicles;
                cedente_receivables.Add(receivables);
                top1_weighted += shares[0].value_or(0) * *receivables;
                top9_weighted += std::min(top9, 100.0) * *receivables;
            }
        }
        if (!v->report->largest_debtors.empty() && receivables && *receivables > 0) {
            sdk::MoneySum exposure;
            double top1 = 0;
            for (const Maybe& d : v->report->largest_debtors) {
                if (d) {
                    exposure.Add(d);
                    top1 = std::max(top1, *d);
                }
            }
            if (exposure.Present()) {
                ++debtor_vehicles;
                debtor_receivables.Add(receivables);
                debtor_exposure.Add(exposure.PartialTotal());
                top1_debtor_weighted += top1;
            }
        }
        for (std::size_t r = 0; r < ratings.size(); ++r) {
            ratings[r].Add(Published(*v->report, kRatings[r].field));
        }
    }
    const double cedente_base = cedente_receivables.PartialTotal().value_or(0);
    item.Count("cedente_vehicles", cedente_vehicles);
    item.Count("cedente_vehicles_set_aside", cedentes_set_aside);
    item.Percent("top_cedente_share_pct", cedente_base > 0 ? Maybe(top1_weighted / cedente_base) : Maybe());
    item.Percent("top9_cedentes_share_pct", cedente_base > 0 ? Maybe(top9_weighted / cedente_base) : Maybe());
    item.Fraction("cedente_coverage_ratio",
                  Ratio(cedente_receivables.PartialTotal(), receivables_all.Value()));
    item.Count("debtor_vehicles", debtor_vehicles);
    item.Fraction("top25_debtors_share_ratio",
                  Ratio(debtor_exposure.PartialTotal(), debtor_receivables.PartialTotal()));
    item.Fraction("top_debtor_share_ratio", Ratio(debtor_vehicles ? Maybe(top1_debtor_weighted) : Maybe(),
                                                  debtor_receivables.PartialTotal()));
    item.Fraction("debtor_coverage_ratio", Ratio(debtor_receivables.PartialTotal(), receivables_all.Value()));
    Total rated;
    for (const Total& r : ratings) {
        if (r.Value()) {
            rated.Add(r.Value());
        }
    }
    array rating_rows;
    for (std::size_t r = 0; r < ratings.size(); ++r) {
        rating_rows.push_back(object{{"rating", kRatings[r].rating},
                                     {"value_brl", Money(ratings[r].Value())},
                                     {"share_ratio", Json(Ratio(ratings[r].Value(), rated.Value()))}});
    }
    item.Put("scr_debtor_ratings", std::move(rating_rows), nullptr);
    item.Unit("scr_debtor_ratings.value_brl", "BRL");
    item.Unit("scr_debtor_ratings.share_ratio", "fraction of the rated total");
    return item.Take();
}

// anbima and anbima/segmentos: ANBIMA type and focus; FIC-FIDC apart; none is N/D
std::pair<object, object> Anbima(const MonthView& m) {
    Total nav;
    std::map<std::string, Group> types, focuses;
    for (const Vehicle* v : m.in) {
        nav.Add(v->nav);
        const std::string type = v->fic_fidc ? "FIC-FIDC" : v->anbima_type.value_or("N/D");
        const std::string focus = v->fic_fidc ? "FIC-FIDC" : v->anbima_focus.value_or("N/D");
        types[type].vehicles += 1;
        types[type].nav.Add(v->nav);
        focuses[focus].vehicles += 1;
        focuses[focus].nav.Add(v->nav);
    }
    Item type_item(m.universe.month), focus_item(m.universe.month);
    type_item.Brl("nav_brl", nav.Value());
    type_item.Put("types", GroupRows(types, "type", nav.Value()), nullptr);
    type_item.Unit("types.vehicles", "count");
    type_item.Unit("types.nav_brl", "BRL");
    type_item.Unit("types.share_ratio", "fraction of nav_brl");
    focus_item.Brl("nav_brl", nav.Value());
    focus_item.Put("focuses", GroupRows(focuses, "focus", nav.Value()), nullptr);
    focus_item.Unit("focuses.vehicles", "count");
    focus_item.Unit("focuses.nav_brl", "BRL");
    focus_item.Unit("focuses.share_ratio", "fraction of nav_brl");
    return {type_item.Take(), focus_item.Take()};
}

// distribuicao-pl: net worth and investors per vehicle
object DistribuicaoPl(const MonthView& m) {
    Item item(m.universe.month);
    std::vector<double> navs, investors;
    for (const Vehicle* v : m.in) {
        if (v->nav) {
            navs.push_back(*v->nav);
        }
        if (v->report->fact.investor_count) {
            investors.push_back(static_cast<double>(*v->report->fact.investor_count));
        }
    }
    std::sort(navs.begin(), navs.end());
    std::sort(investors.begin(), investors.end());
    double sum = 0;
    for (const double n : navs) {
        sum += n;
    }
    item.Count("vehicles_with_nav", static_cast<std::int64_t>(navs.size()));
    item.Brl("mean_nav_brl", navs.empty() ? Maybe() : Maybe(sum / static_cast<double>(navs.size())));
    item.Brl("p10_nav_brl", Percentile(navs, 0.10));
    item.Brl("p25_nav_brl", Percentile(navs, 0.25));
    item.Brl("median_nav_brl", Median(navs));
    item.Brl("p75_nav_brl", Percentile(navs, 0.75));
    item.Brl("p90_nav_brl", Percentile(navs, 0.90));
    item.Brl("p99_nav_brl", Percentile(navs, 0.99));
    struct Bucket {
        const char* label;
        double upper;
    };
    constexpr Bucket kBuckets[] = {{"below_10m", 1e7},        {"10m_to_50m", 5e7}, {"50m_to_100m", 1e8},
                                   {"100m_to_500m", 5e8},     {"500m_to_1b", 1e9}, {"1b_to_5b", 5e9},
                                   {"5b_and_above", INFINITY}};
    array buckets;
    double lower = -INFINITY;
    for (const Bucket& b : kBuckets) {
        std::int64_t count = 0;
        Total total;
        for (const double n : navs) {
            if (n >= lower && n < b.upper) {
                ++count;
                total.Add(n);
            }
        }
        buckets.push_back(
            object{{"bucket", b.label}, {"vehicles", count}, {"nav_brl", Money(total.Value())}});
        lower = b.upper;
    }
    item.Put("histogram", std::move(buckets), nullptr);
    item.Unit("histogram.vehicles", "count");
    item.Unit("histogram.nav_brl", "BRL");
    item.Count("vehicles_with_investors", static_cast<std::int64_t>(investors.size()));
    item.Put("median_investors", Json(Median(investors)), "investor positions");
    item.Put("mean_investors", Json(investors.empty() ? Maybe() : [&] {
                 double s = 0;
                 for (const double x : investors) {
                     s += x;
                 }
                 return Maybe(s / static_cast<double>(investors.size()));
             }()),
             "investor positions");
    item.Put("p90_investors", Json(Percentile(investors, 0.90)), "investor positions");
    return item.Take();
}

// participantes: administrators and managers, investor categories of X_1_1
object Participantes(const MonthView& m) {
    Item item(m.universe.month);
    std::set<std::string> administrators, managers;
    std::int64_t unknown_manager = 0;
    Total unknown_nav, nav;
    for (const Vehicle* v : m.in) {
        nav.Add(v->nav);
        if (v->administrator_cnpj || v->administrator) {
            administrators.insert(v->administrator_cnpj.value_or(v->administrator.value_or("")));
        }
        if (v->manager.key) {
            managers.insert(*v->manager.key);
        } else {
            ++unknown_manager;
            unknown_nav.Add(v->nav);
        }
    }
    item.Count("administrators", static_cast<std::int64_t>(administrators.size()));
    item.Count("managers", static_cast<std::int64_t>(managers.size()));
    item.Count("vehicles_manager_unknown", unknown_manager);
    item.Brl("nav_manager_unknown_brl", unknown_nav.Value());
    item.Fraction("manager_known_nav_ratio", nav.Value() && *nav.Value() > 0
                                                 ? Maybe(1 - unknown_nav.Value().value_or(0) / *nav.Value())
                                                 : Maybe());
    array categories;
    std::int64_t reporting = 0;
    std::vector<std::int64_t> senior(std::size(kInvestorCategories)),
        subordinated(std::size(kInvestorCategories));
    for (const Vehicle* v : m.in) {
        bool any = false;
        for (std::size_t c = 0; c < std::size(kInvestorCategories); ++c) {
            const Maybe s = Published(*v->report, kInvestorCategories[c].senior);
            const Maybe d = Published(*v->report, kInvestorCategories[c].subordinated);
            any = any || s || d;
            senior[c] += static_cast<std::int64_t>(s.value_or(0));
            subordinated[c] += static_cast<std::int64_t>(d.value_or(0));
        }
        reporting += any ? 1 : 0;
    }
    std::int64_t all = 0;
    for (std::size_t c = 0; c < senior.size(); ++c) {
        all += senior[c] + subordinated[c];
    }
    for (std::size_t c = 0; c < senior.size(); ++c) {
        const std::int64_t total = senior[c] + subordinated[c];
        categories.push_back(
            object{{"category", kInvestorCategories[c].key},
                   {"senior", senior[c]},
                   {"subordinated", subordinated[c]},
                   {"total", total},
                   {"share_ratio", Json(all ? Maybe(double(total) / double(all)) : Maybe())}});
    }
    item.Count("investor_category_vehicles", reporting);
    item.Put("investor_categories", std::move(categories), nullptr);
    item.Unit("investor_categories.senior", "investor positions");
    item.Unit("investor_categories.subordinated", "investor positions");
    item.Unit("investor_categories.total", "investor positions");
    item.Unit("investor_categories.share_ratio", "fraction");
    return item.Take();
}

// concentracao-top: by vehicle, manager and administrator
object ConcentracaoTop(const MonthView& m) {
    Item item(m.universe.month);
    std::vector<double> vehicles;
    std::map<std::string, double> by_manager, by_administrator;
    for (const Vehicle* v : m.in) {
        if (!v->nav || *v->nav <= 0) {
            continue;
        }
        vehicles.push_back(*v->nav);
        if (v->manager.key) {
            by_manager[*v->manager.key] += *v->nav;
        }
        if (v->administrator_cnpj || v->administrator) {
            by_administrator[v->administrator_cnpj.value_or(v->administrator.value_or(""))] += *v->nav;
        }
    }
    auto values = [](const std::map<std::string, double>& m) {
        std::vector<double> out;
        for (const auto& [k, x] : m) {
            out.push_back(x);
        }
        return out;
    };
    Concentration(item, "vehicles", vehicles, {10, 50});
    Concentration(item, "managers", values(by_manager), {5, 10});
    Concentration(item, "administrators", values(by_administrator), {5, 10});
    return item.Take();
}

}  // namespace

bool InUniverse(const Vehicle& v, bool include_fic_fidc) {
    return include_fic_fidc || !v.fic_fidc;
}

std::map<std::string, object> ComputeIndicators(const MonthUniverse& universe, bool include_fic_fidc,
                                                const PreviousMonth& previous, bool has_previous_month) {
    MonthView view{universe, include_fic_fidc, previous, has_previous_month, {}, 0, {}, {}, {}};
    for (const Vehicle& v : universe.vehicles) {
        if (v.report_set_aside) {
            view.set_aside += InUniverse(v, include_fic_fidc) ? 1 : 0;
            continue;
        }
        if (InUniverse(v, include_fic_fidc)) {
            view.in.push_back(&v);
        }
        view.nav_raw.Add(v.nav);
        if (!v.fic_fidc) {
            view.nav_ex_fic.Add(v.nav);
        }
        const Maybe h = Published(*v.report, Field::TAB_I2H_VL_COTA_FIDC);
        const Maybe np = Published(*v.report, Field::TAB_I2I_VL_COTA_FIDC_NP);
        if (h || np) {
            view.quotas_held.Add(sdk::SumOfAmounts({h.value_or(0), np.value_or(0)}));
        }
    }
    std::map<std::string, object> items;
    items["resumo"] = Resumo(view);
    items["fluxos"] = Fluxos(view);
    items["segmentos"] = Segmentos(view);
    items["ativos"] = Ativos(view);
    items["prazos"] = Prazos(view);
    items["rentabilidade"] = Rentabilidade(view);
    items["concentracao"] = Concentracao(view);
    std::tie(items["anbima"], items["anbima/segmentos"]) = Anbima(view);
    items["distribuicao-pl"] = DistribuicaoPl(view);
    items["participantes"] = Participantes(view);
    items["concentracao-top"] = ConcentracaoTop(view);
    return items;
}

}  // namespace lastro::industry
