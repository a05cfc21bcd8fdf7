#include "sample/monthly_history.hpp"

#include "sample/kit.hpp"
#include "sample/streams.hpp"

#include <lastro/sdk/cnpj.hpp>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <set>
#include <string_view>
#include <utility>

namespace lastro::funds::sample {

// The monthly CDI matching AnnualSelic (less 0.10 point), in units of 1e-8. Senior quotas
// accrue on top of it.
constexpr std::array<std::int64_t, kReportMonths> kMonthlyCdi{
    846915,  846915,  884812,  960139,  960139,  1034853, 1108964, 1108964,
    1145796, 1164158, 1164158, 1164158, 1164158, 1164158, 1164158, 1164158,
    1164158, 1145796, 1127399, 1108964, 1108964, 1090492, 1071983, 1071983};

int MonthIndex(const sdk::Month& month) {
    return (month.year - kFirstReportMonth.year) * 12 + (month.month - kFirstReportMonth.month);
}

sdk::Month MonthAt(int index) {
    const int total = kFirstReportMonth.year * 12 + (kFirstReportMonth.month - 1) + index;
    return {total / 12, total % 12 + 1};
}

sdk::Date MonthEnd(const sdk::Month& month) {
    return LastDayOfMonth(month.year, month.month);
}

std::string Compact(const sdk::Month& month) {
    char text[16];
    std::snprintf(text, sizeof text, "%04d%02d", month.year, month.month);
    return text;
}

std::int64_t AnnualSelic(int month) {
    static constexpr std::array<std::int64_t, kReportMonths> kSelic{
        1075, 1075, 1125, 1225, 1225, 1325, 1425, 1425, 1475, 1500, 1500, 1500,
        1500, 1500, 1500, 1500, 1500, 1475, 1450, 1425, 1425, 1400, 1375, 1375};
    return kSelic.at(static_cast<std::size_t>(month));
}

std::int64_t MonthlyCdi(int month) {
    return kMonthlyCdi.at(static_cast<std::size_t>(month));
}

std::int64_t ClassHistory::NetAssets(int month) const {
    ValueSum total;
    for (const SeriesMonth& s : months[static_cast<std::size_t>(month)].series) {
        if (s.exists) {
            total.Add(s.quantity, s.value);
        }
    }
    return total.Cents();
}

namespace {

bool Operating(const FundClass& c, int month) {
    const sdk::Date end = MonthEnd(MonthAt(month));
    if (c.situation == Situation::kPreOperational || !c.started || end < *c.started) {
        return false;
    }
    return !(c.situation == Situation::kCancelled && !(end < c.situation_since));
}

// ---- Series -------------------------------------------------------------------------------

// Free-text labels as administrators type them (FORMATS.md §1.4): three house styles.
std::string SeriesLabel(int style, Seniority seniority, int ordinal) {
    const std::string n = std::to_string(ordinal);
    switch (style) {
        case 0:
            switch (seniority) {
                case Seniority::kSenior:
                    return "Subclasse Senior Série " + n;
                case Seniority::kMezzanine:
                    return "Subclasse Subordinada Cota Mezanino | Serie " + n;
                case Seniority::kSubordinated:
                    return "Subclasse Subordinada Sub | Subordinada " + n;
                case Seniority::kNone:
                    return "Subclasse Única";
            }
            break;
        case 1:
            switch (seniority) {
                case Seniority::kSenior:
                    return ordinal == 1 ? "Classe Sênior" : "Classe Sênior " + n;
                case Seniority::kMezzanine:
                    return ordinal == 1 ? "Subordinada Mezanino" : "Subordinada Mezanino " + n;
                case Seniority::kSubordinated:
                    return ordinal == 1 ? "Subordinada Júnior" : "Subordinada Júnior " + n;
                case Seniority::kNone:
                    return "Classe Única";
            }
            break;
        default:
            switch (seniority) {
                case Seniority::kSenior:
                    return ordinal == 1 ? "Sênior" : "Senior " + n;
                case Seniority::kMezzanine:
                    return ordinal == 1 ? "Subordinada Mezanino" : "Mezanino " + n;
                case Seniority::kSubordinated:
                    return ordinal == 1 ? "Subordinada" : "Subordinada " + n;
                case Seniority::kNone:
                    return "Única";
            }
            break;
    }
    return "Única";
}

std::vector<Series> DrawSeries(const Fund& fund, const FundClass& c, Prng& rng) {
    std::vector<Series> series;
    std::vector<Seniority> ranks;
    const Subclass* first_subclass = nullptr;
    for (const Subclass& s : c.subclasses) {
        if (s.seniority != Seniority::kNone) {
            first_subclass = &s;
            break;
        }
    }
    int style = 0;
    if (first_subclass) {
        style = static_cast<int>(rng.Weighted({700, 150, 150}));
        for (const Subclass& s : c.subclasses) {
            if (s.seniority == Seniority::kNone || !s.started || MonthEnd(kLastReportMonth) < *s.started) {
                continue;  // a subclass without quotas yet has no series in the report
            }
            Series added;
            added.seniority = s.seniority;
            added.subclass = &s;
            added.first_month = *s.started < sdk::Date{2024, 9, 1} ? -1 : MonthIndex(s.started->ToMonth());
            series.push_back(std::move(added));
        }
    } else {
        style = static_cast<int>(rng.Weighted({200, 400, 400}));
        std::size_t plan = 0;
        switch (fund.type) {
            case FundType::kFicFidc:
                plan = rng.Weighted({700, 250, 50, 0, 0});
                break;
            case FundType::kFidcNp:
                plan = rng.Weighted({200, 250, 150, 50, 350});
                break;
            default:
                plan = rng.Weighted({250, 350, 250, 150, 0});
                break;
        }
        static constexpr Seniority S = Seniority::kSenior;
        static constexpr Seniority M = Seniority::kMezzanine;
        static constexpr Seniority J = Seniority::kSubordinated;
        switch (plan) {
            case 0:
                ranks = {Seniority::kNone};
                break;
            case 1:
                ranks = {S, J};
                break;
            case 2:
                ranks = {S, M, J};
                break;
            case 3:
                ranks = {S, S, M, J};
                break;
            default:
                ranks = {J};  // a non-standard FIDC held only by its subordinated quotaholders
                break;
        }
        for (std::size_t i = 0; i < ranks.size(); ++i) {
            Series added;
            added.seniority = ranks[i];
            // A second senior series issued inside the window, now and then.
            if (i == 1 && ranks[0] == S && ranks[1] == S && rng.Chance(500)) {
                added.first_month = static_cast<int>(rng.Between(4, 18));
            }
            series.push_back(std::move(added));
        }
    }
    std::array<int, 4> ordinals{};
    for (Series& s : series) {
        const int ordinal = ++ordinals[static_cast<std::size_t>(s.seniority)];
        s.label = SeriesLabel(style, s.seniority, ordinal);
    }
    return series;
}

// Random draws of one series for every month, drawn up front: the simulation runs twice (to
// reach the registry's net assets) and must see the same draws both times.
struct MonthDraw {
    std::int64_t return_noise = 0;  // 1e-8 per month
    std::int64_t subscribe_ppm = 0;
    std::int64_t redeem_ppm = 0;
    std::int64_t amortize_ppm = 0;
    std::int64_t request_ppm = 0;
    std::int64_t holders_ppm = 0;
};

struct SeriesPlan {
    std::int64_t weight = 0;       // share of the class at issue
    std::int64_t start_value = 0;  // R$ 1e-8
    std::int64_t spread = 0;       // over the CDI, 1e-8 per month
    std::int64_t start_holders = 1;
    bool has_target = false;
    std::array<MonthDraw, kReportMonths> draws{};
};

struct ClassPlan {
    int first_month = -1;  // first operating month index; -1 when operating before the window
    int last_month = -1;   // last operating month index
    int liquidation_from = kReportMonths;
    std::int64_t target_net_assets = 0;  // cents, at the last operating month
    std::vector<SeriesPlan> series;
    std::array<std::int64_t, kReportMonths> delinquency{};
    std::array<std::int64_t, kReportMonths> portfolio{};
};

std::int64_t DrawHolders(Prng& rng, Seniority seniority, TargetInvestor target, bool exclusive) {
    if (exclusive) {
        return 1;
    }
    switch (seniority) {
        case Seniority::kMezzanine:
            return rng.Between(1, 25);
        case Seniority::kSubordinated:
            return rng.Between(1, 4);
        default:
            break;
    }
    switch (target) {
        case TargetInvestor::kGeneral:
            return rng.Chance(500) ? rng.Between(200, 2'000) : rng.Between(2'000, 20'000);
        case TargetInvestor::kQualified:
            return rng.Chance(600) ? rng.Between(5, 80) : rng.Between(80, 600);
        case TargetInvestor::kProfessional:
            return rng.Between(1, 40);
    }
    return 1;
}

ClassPlan DrawPlan(const FundClass& c, const std::vector<Series>& series, const ClassProfile& profile,
                   Prng& rng) {
    ClassPlan plan;
    plan.first_month = kReportMonths;
    for (int m = 0; m < kReportMonths; ++m) {
        if (Operating(c, m)) {
            plan.first_month = std::min(plan.first_month, m);
            plan.last_month = m;
        }
    }
    if (plan.first_month == 0 && *c.started < sdk::Date{2024, 9, 1}) {
        plan.first_month = -1;
    }
    if (c.situation == Situation::kLiquidation) {
        plan.liquidation_from = std::max(0, MonthIndex(c.situation_since.ToMonth()));
    }
    std::int64_t target = c.net_assets_cents.value_or(0);
    if (target <= 0) {
        target = rng.Between(5'000'000, 300'000'000) * 100;
    }
    plan.target_net_assets = Share(target, 990'000);

    // Shares of the class at issue: seniors take most, subordinated quotas absorb losses.
    const TargetInvestor target_investor = c.target_investor;
    std::int64_t senior_total = rng.Between(600'000, 850'000);
    std::size_t seniors = 0;
    std::size_t juniors = 0;
    for (const Series& s : series) {
        seniors += s.seniority == Seniority::kSenior;
        juniors += s.seniority == Seniority::kMezzanine || s.seniority == Seniority::kSubordinated;
    }
    for (const Series& s : series) {
        SeriesPlan sp;
        switch (s.seniority) {
            case Seniority::kNone:
                sp.weight = kPpm;
                sp.spread = rng.Between(100'000, 600'000);
                sp.has_target = !c.performance_index.empty();
                break;
            case Seniority::kSenior:
                sp.weight = senior_total / static_cast<std::int64_t>(std::max<std::size_t>(seniors, 1));
                sp.spread = rng.Between(50'000, 350'000);
                sp.has_target = true;
                break;
            case Seniority::kMezzanine:
                sp.weight = rng.Between(50'000, 150'000);
                sp.spread = rng.Between(300'000, 600'000);
                sp.has_target = true;
                break;
            case Seniority::kSubordinated:
                sp.weight = juniors == 1 && seniors == 0 ? kPpm : rng.Between(100'000, 300'000);
                sp.spread = rng.Between(500'000, 2'500'000);
                break;
        }
        static constexpr std::array<std::int64_t, 5> kStartValues{1000, 1000, 1000, 100, 5000};
        std::int64_t start = rng.Pick(kStartValues) * kE8;
        if (s.first_month < 0 && plan.first_month < 0) {
            start = Share(start, kPpm + rng.Between(0, 800'000));  // accrued since issue
            start += rng.Between(0, kE8 - 1);
        }
        sp.start_value = start;
        const TargetInvestor investor = s.subclass ? s.subclass->target_investor
                                        : s.seniority == Seniority::kSubordinated
                                            ? TargetInvestor::kProfessional
                                            : target_investor;
        sp.start_holders = DrawHolders(rng, s.seniority, investor, c.exclusive);

        const bool open = c.condominium == Condominium::kOpen;
        const bool junior = s.seniority == Seniority::kSubordinated || s.seniority == Seniority::kMezzanine;
        for (int m = 0; m < kReportMonths; ++m) {
            MonthDraw& d = sp.draws[static_cast<std::size_t>(m)];
            const std::int64_t noise = s.seniority == Seniority::kSubordinated ? 1'500'000
                                       : s.seniority == Seniority::kNone       ? 200'000
                                                                               : 40'000;
            d.return_noise = rng.Between(-noise, noise);
            const bool liquidating = m >= plan.liquidation_from;
            const unsigned subscribe_chance = liquidating ? 0 : junior ? 80 : open ? 350 : 120;
            d.subscribe_ppm = rng.Chance(subscribe_chance) ? rng.Between(10'000, 120'000) : 0;
            d.redeem_ppm = open && !junior && rng.Chance(300) ? rng.Between(10'000, 80'000) : 0;
            d.request_ppm = open && !junior && rng.Chance(150) ? rng.Between(5'000, 30'000) : 0;
            const unsigned amortize_chance = liquidating ? 1000 : open ? 0 : junior ? 50 : 200;
            d.amortize_ppm = rng.Chance(amortize_chance)
                                 ? (liquidating ? rng.Between(40'000, 120'000) : rng.Between(5'000, 40'000))
                                 : 0;
            d.holders_ppm = rng.Between(-20'000, 30'000);
        }
        plan.series.push_back(sp);
    }

    std::int64_t delinquency = 0;
    switch (profile.book) {
        case Book::kPayroll:
            delinquency = rng.Between(10'000, 50'000);
            break;
        case Book::kPersonal:
        case Book::kEducation:
            delinquency = rng.Between(40'000, 130'000);
            break;
        case Book::kDistressed:
            delinquency = rng.Between(150'000, 240'000);
            break;
        case Book::kCourtOrders:
            delinquency = rng.Between(0, 20'000);
            break;
        case Book::kFundOfFunds:
            delinquency = 0;
            break;
        default:
            delinquency = rng.Between(5'000, 80'000);
            break;
    }
    if (profile.book != Book::kFundOfFunds && rng.Chance(40)) {
        delinquency = rng.Between(150'000, 230'000);  // a class in trouble
    }
    std::int64_t securities = 0;
    for (std::int64_t share : profile.securities_ppm) {
        securities += share;
    }
    const std::int64_t ceiling = kPpm - profile.derivatives_ppm - profile.other_assets_ppm - 10'000;
    const std::int64_t floor =
        std::min(ceiling, securities + (profile.book == Book::kFundOfFunds ? 0 : 300'000));
    std::int64_t portfolio = std::clamp<std::int64_t>(rng.Between(880'000, 975'000), floor, ceiling);
    for (int m = 0; m < kReportMonths; ++m) {
        delinquency =
            std::clamp<std::int64_t>(Jitter(rng, delinquency, 80'000) + rng.Between(-500, 500), 0, 280'000);
        portfolio = std::clamp<std::int64_t>(portfolio + rng.Between(-5'000, 5'000), floor, ceiling);
        plan.delinquency[static_cast<std::size_t>(m)] = delinquency;
        plan.portfolio[static_cast<std::size_t>(m)] = portfolio;
    }
    return plan;
}

// Runs the class month by month from `initial` cents of net assets at its start.
std::vector<ClassMonth> Simulate(const ClassPlan& plan, const std::vector<Series>& series, bool exclusive,
                                 std::int64_t initial) {
    std::vector<ClassMonth> months(kReportMonths);
    std::vector<SeriesMonth> state(series.size());
    const auto issue = [&](std::size_t i, std::int64_t class_value) {
        const SeriesPlan& sp = plan.series[i];
        state[i].exists = true;
        state[i].value = sp.start_value;
        state[i].quantity = std::max<std::int64_t>(
            MulDiv(Share(class_value, sp.weight), kE8 * kE8 / 100, sp.start_value), kE8);
        state[i].holders = sp.start_holders;
    };
    if (plan.first_month < 0) {
        for (std::size_t i = 0; i < series.size(); ++i) {
            if (series[i].first_month < 0) {
                issue(i, initial);
            }
        }
    }
    for (int m = 0; m < kReportMonths; ++m) {
        ClassMonth& month = months[static_cast<std::size_t>(m)];
        const bool operating = m >= std::max(plan.first_month, 0) && m <= plan.last_month;
        month.operating = operating;
        month.delinquency_ppm = plan.delinquency[static_cast<std::size_t>(m)];
        month.portfolio_ppm = plan.portfolio[static_cast<std::size_t>(m)];
        month.series.resize(series.size());
        if (!operating) {
            continue;
        }
        ValueSum sum;
        for (const SeriesMonth& s : state) {
            if (s.exists) {
                sum.Add(s.quantity, s.value);
            }
        }
        const std::int64_t class_value = sum.Cents();
        for (std::size_t i = 0; i < series.size(); ++i) {
            const SeriesPlan& sp = plan.series[i];
            const MonthDraw& d = sp.draws[static_cast<std::size_t>(m)];
            SeriesMonth& s = state[i];
            const int issue_month = std::max(series[i].first_month, plan.first_month);
            if (!s.exists) {
                if (issue_month != m) {
                    continue;
                }
                issue(i, class_value > 0 ? class_value : initial);
                s.subscribed = s.quantity;
                s.previous_value = 0;
                s.redeemed = s.amortization = s.requested = 0;
            } else {
                s.previous_value = s.value;
                const std::int64_t rate = std::max<std::int64_t>(
                    kMonthlyCdi[static_cast<std::size_t>(m)] + sp.spread + d.return_noise, -8'000'000);
                const std::int64_t accrued = MulDiv(s.value, kE8 + rate, kE8);
                s.amortization = d.amortize_ppm > 0 ? Share(accrued, d.amortize_ppm) : 0;
                s.value = std::max<std::int64_t>(accrued - s.amortization, kE8 / 100);
                s.subscribed = Share(s.quantity, d.subscribe_ppm);
                s.redeemed = std::min(Share(s.quantity, d.redeem_ppm), s.quantity / 2);
                s.quantity += s.subscribed - s.redeemed;
                s.requested = Share(s.quantity, d.request_ppm);
                if (!exclusive && (s.subscribed > 0 || s.redeemed > 0)) {
                    const std::int64_t change = Share(s.holders, d.holders_ppm);
                    s.holders = std::max<std::int64_t>(
                        1, s.holders + (change != 0 ? change : (s.subscribed > 0 ? 1 : -1)));
                }
            }
            s.expected_return =
                sp.has_target ? MulDiv(kMonthlyCdi[static_cast<std::size_t>(m)] + sp.spread, 1, 10'000) : 0;
            month.series[i] = s;
        }
    }
    return months;
}

void SimulateClass(ClassHistory& history, Prng& rng) {
    const ClassPlan plan = DrawPlan(*history.fund_class, history.series, history.profile, rng);
    if (plan.last_month < 0) {
        history.months = Simulate(plan, history.series, false, 0);
        return;
    }
    // Net assets scale linearly with the start: a first run finds the factor that lands the last
    // month near the registry's figure.
    const bool exclusive = history.fund_class->exclusive;
    constexpr std::int64_t kProbe = 1'000'000'000;
    const std::vector<ClassMonth> probe = Simulate(plan, history.series, exclusive, kProbe);
    ClassHistory probe_history;
    probe_history.months = probe;
    const std::int64_t reached = probe_history.NetAssets(plan.last_month);
    const std::int64_t initial =
        reached > 0 ? std::max<std::int64_t>(MulDiv(kProbe, plan.target_net_assets, reached), 100'000'00)
                    : kProbe;
    history.months = Simulate(plan, history.series, exclusive, initial);
}

// ---- Planning: CDA holders and irregularities ---------------------------------------------

std::string Masked(const std::string& cnpj) {
    return sdk::FormatCnpj(cnpj);
}

template <typename Predicate>
std::vector<std::size_t> Candidates(const History& history, Predicate keep) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < history.classes.size(); ++i) {
        if (keep(history.classes[i])) {
            out.push_back(i);
        }
    }
    return out;
}

std::size_t Take(std::vector<std::size_t>& pool, Prng& rng) {
    const std::size_t at = static_cast<std::size_t>(rng.Below(pool.size()));
    const std::size_t picked = pool[at];
    pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(at));
    return picked;
}

void PlanIrregularities(History& history, Prng& rng) {
    const auto steady = [](const ClassHistory& c) {
        if (c.fund->type == FundType::kFicFidc || c.profile.holds_securities || c.fund->classes.size() != 1 ||
            c.series.empty()) {
            return false;
        }
        for (const ClassMonth& m : c.months) {
            if (!m.operating) {
                return false;
            }
        }
        return true;
    };
    std::vector<std::size_t> pool = Candidates(history, steady);
    if (pool.size() < 14) {
        return;  // a tiny universe (not the sample's): no irregularities
    }
    auto& notes = history.irregularities;
    const auto cnpj = [&](std::size_t i) { return Masked(history.classes[i].fund_class->cnpj); };
    const auto month_of = [&](std::size_t i, int m) -> ClassMonth& {
        return history.classes[i].months[static_cast<std::size_t>(m)];
    };
    const auto with_series = [&](std::size_t minimum) {
        std::vector<std::size_t> fitting;
        for (std::size_t i : pool) {
            if (history.classes[i].series.size() >= minimum) {
                fitting.push_back(i);
            }
        }
        if (fitting.empty()) {
            return Take(pool, rng);
        }
        const std::size_t picked = fitting[rng.Below(fitting.size())];
        pool.erase(std::find(pool.begin(), pool.end(), picked));
        return picked;
    };

    const int skipped = MonthIndex({2026, 5});
    for (int k = 0; k < 2; ++k) {
        const std::size_t i = Take(pool, rng);
        month_of(i, skipped).reports = false;
        notes.push_back(cnpj(i) + " 2026-05: no report that month (reports 2026-04 and 2026-06)");
    }
    {
        std::vector<std::size_t> normal;
        for (std::size_t i : pool) {
            if (history.classes[i].fund->situation == Situation::kNormal) {
                normal.push_back(i);
            }
        }
        const std::size_t i = normal.empty() ? pool.front() : normal[rng.Below(normal.size())];
        pool.erase(std::find(pool.begin(), pool.end(), i));
        history.classes[i].stopped_after = MonthIndex({2025, 12});
        for (int m = MonthIndex({2026, 1}); m < kReportMonths; ++m) {
            month_of(i, m).reports = false;
        }
        notes.push_back(cnpj(i) + " 2025-12: last report; the registry still lists it in operation");
    }
    const int as_fund = MonthIndex({2025, 3});
    for (int k = 0; k < 2; ++k) {
        const std::size_t i = with_series(2);
        MonthQuirks& q = month_of(i, as_fund).quirks;
        q.also_as_fund = true;
        q.fund_rows_first = k == 1;
        notes.push_back(cnpj(i) + " 2025-03: every table also has a TP_FUNDO_CLASSE = Fundo row, 3 % lower " +
                        (k == 1 ? "(before the Classe row)" : "(after the Classe row)"));
    }
    {
        const std::size_t i = with_series(2);
        month_of(i, MonthIndex({2025, 6})).quirks.conflicting_rows = true;
        notes.push_back(
            cnpj(i) + " 2025-06: tab_IV and tab_X_2 carry two Classe rows per key; the later line is right");
    }
    {
        const std::size_t i = Take(pool, rng);
        month_of(i, MonthIndex({2025, 10})).quirks.repeated_line = true;
        notes.push_back(cnpj(i) + " 2025-10: its tab_II line is written twice, byte for byte");
    }
    {
        std::vector<std::size_t> delinquent;
        for (std::size_t i : pool) {
            if (history.classes[i].months[static_cast<std::size_t>(MonthIndex({2026, 2}))].delinquency_ppm >
                10'000) {
                delinquent.push_back(i);
            }
        }
        const std::size_t i = delinquent.empty() ? pool.front() : delinquent[rng.Below(delinquent.size())];
        pool.erase(std::find(pool.begin(), pool.end(), i));
        month_of(i, MonthIndex({2026, 2})).quirks.provision_blank = true;
        notes.push_back(cnpj(i) + " 2026-02: TAB_I2A11_VL_REDUCAO_RECUP empty (the provision exists)");
    }
    {
        const std::size_t i = Take(pool, rng);
        month_of(i, MonthIndex({2026, 1})).quirks.holders_blank_series = 0;
        notes.push_back(cnpj(i) + " 2026-01: TAB_X_NR_COTST empty for series \"" +
                        history.classes[i].series[0].label + "\"");
    }
    {
        const std::size_t i = Take(pool, rng);
        month_of(i, MonthIndex({2025, 8})).quirks.return_blank_series = 0;
        notes.push_back(cnpj(i) + " 2025-08: TAB_X_VL_RENTAB_MES empty for series \"" +
                        history.classes[i].series[0].label + "\"");
    }
    for (int k = 0; k < 2; ++k) {
        const std::size_t i = Take(pool, rng);
        history.classes[i].profile.average_blank = true;
        notes.push_back(cnpj(i) + " every month: TAB_IV_B_VL_PL_MEDIO empty");
    }
    {
        // At least one class leaves I.2.b and its whole tab_VI row empty.
        bool any = false;
        for (const ClassHistory& c : history.classes) {
            any = any || (c.profile.without_risk_blank && c.months.back().operating);
        }
        const std::size_t i = Take(pool, rng);
        if (!any) {
            history.classes[i].profile.without_risk_blank = true;
            history.classes[i].profile.without_risk_ppm = 0;
        }
    }
    // The amortizations of a series, per quota (R$ 1e-8), in the months the class reports.
    const auto amortizations = [&](std::size_t i) {
        std::vector<std::pair<int, std::size_t>> found;  // (month, series)
        const ClassHistory& c = history.classes[i];
        for (std::size_t m = 0; m < c.months.size(); ++m) {
            for (std::size_t j = 0; j < c.months[m].series.size(); ++j) {
                if (c.months[m].reports && c.months[m].series[j].exists &&
                    c.months[m].series[j].amortization > 0) {
                    found.emplace_back(static_cast<int>(m), j);
                }
            }
        }
        return found;
    };
    const auto pick = [&](const auto& keep) -> std::optional<std::size_t> {
        std::vector<std::size_t> fitting;
        for (std::size_t i : pool) {
            if (keep(i)) {
                fitting.push_back(i);
            }
        }
        if (fitting.empty()) {
            return std::nullopt;
        }
        const std::size_t picked = fitting[rng.Below(fitting.size())];
        pool.erase(std::find(pool.begin(), pool.end(), picked));
        return picked;
    };
    // Amortizations with the columns reversed: a class whose amortizations are all R$ 2.00 a
    // quota or more, so that the amount per quota rounded to the cent still tells the reading.
    if (const auto i = pick([&](std::size_t k) {
            const auto found = amortizations(k);
            return !found.empty() && std::all_of(found.begin(), found.end(), [&](const auto& at) {
                return month_of(k, at.first).series[at.second].amortization >= 2 * kE8;
            });
        })) {
        history.classes[*i].profile.amortizations_swapped = true;
        notes.push_back(
            cnpj(*i) +
            " every month: Amortizações rows carry the amount per quota in TAB_X_VL_TOTAL and the "
            "BRL total in TAB_X_QT_COTA (the series' X_2 quotas tell)");
    }
    // An amortization, columns reversed, under a label X_2 does not have: no evidence.
    if (const auto i = pick([&](std::size_t k) { return !amortizations(k).empty(); })) {
        const auto [m, j] = amortizations(*i).front();
        month_of(*i, m).quirks.amortization_unmatched_series = static_cast<int>(j);
        notes.push_back(cnpj(*i) + " " + MonthAt(m).ToString() + ": the Amortizações row of \"" +
                        history.classes[*i].series[j].label + "\" is filed as \"" +
                        UnmatchedLabel(history.classes[*i].series[j].label) +
                        "\", columns reversed; X_2 has no such series");
    }
    // Two distinct series under one label, month after month.
    if (const auto i = pick([&](std::size_t k) {
            const std::vector<Series>& series = history.classes[k].series;
            return series.size() >= 2 && series[0].seniority != Seniority::kNone &&
                   series[0].seniority == series[1].seniority && series[0].first_month < 0 &&
                   series[1].first_month < 0;
        })) {
        std::vector<Series>& series = history.classes[*i].series;
        series[1].label = series[0].label;
        history.classes[*i].profile.lists_every_operation = true;
        notes.push_back(cnpj(*i) + " every month: two distinct series labelled \"" + series[0].label +
                        "\" (quantities and values differ); tab_X_4 lists every series and operation, 0.00 "
                        "when none happened");
    }
    {
        // Planned last, so the classes above keep their irregularities whatever is added here.
        const std::size_t i = Take(pool, rng);
        month_of(i, MonthIndex({2026, 3})).quirks.zeros_blank = true;
        notes.push_back(cnpj(i) +
                        " 2026-03: the receivable components and tab_V/tab_VI bands that are 0 left empty");
    }
}

}  // namespace

std::string UnmatchedLabel(const std::string& label) {
    return label + " Tipo Subclasse";
}

History BuildHistory(const Universe& universe) {
    History history;
    history.seed = universe.seed;
    for (const Fund& fund : universe.funds) {
        if (!IsFidcFamily(fund.type)) {
            continue;
        }
        for (const FundClass& c : fund.classes) {
            ClassHistory added;
            added.fund = &fund;
            added.fund_class = &c;
            history.classes.push_back(std::move(added));
        }
    }

    // About fifteen FIDCs in operation through the CDA months hold securities (and a CDA).
    Prng plan = Prng::ForStream(universe.seed, kHistoryPlanStream);
    std::vector<std::size_t> holders;
    for (std::size_t i = 0; i < history.classes.size(); ++i) {
        const ClassHistory& c = history.classes[i];
        bool through = c.fund->type != FundType::kFicFidc;
        for (int m = MonthIndex({2026, 3}); through && m < kReportMonths; ++m) {
            through = Operating(*c.fund_class, m);
        }
        if (through) {
            holders.push_back(i);
        }
    }
    std::set<std::size_t> securities_holders;
    for (int k = 0; k < 15 && !holders.empty(); ++k) {
        securities_holders.insert(Take(holders, plan));
    }
    // The largest of them holds hundreds of positions (enough net assets for one unit of each).
    std::size_t big = history.classes.size();
    std::int64_t largest = -1;
    for (std::size_t i : securities_holders) {
        const std::int64_t net_assets = history.classes[i].fund_class->net_assets_cents.value_or(0);
        if (net_assets > largest) {
            largest = net_assets;
            big = i;
        }
    }

    for (std::size_t i = 0; i < history.classes.size(); ++i) {
        ClassHistory& c = history.classes[i];
        Prng profile_rng =
            Prng::ForStream(universe.seed, kClassProfileStream, static_cast<std::uint64_t>(c.fund_class->id));
        c.profile = DrawProfile(*c.fund, securities_holders.count(i) > 0, i == big, profile_rng);
        c.series = DrawSeries(*c.fund, *c.fund_class, profile_rng);
        Prng series_rng =
            Prng::ForStream(universe.seed, kSeriesStream, static_cast<std::uint64_t>(c.fund_class->id));
        SimulateClass(c, series_rng);
        // Before 2024-12 reports keyed on the fund: only single-class funds filed then.
        for (int m = 0; m < kReportMonths; ++m) {
            ClassMonth& month = c.months[static_cast<std::size_t>(m)];
            month.reports = month.operating && !c.series.empty() &&
                            (MonthAt(m) >= kFirstClassLayoutMonth || c.fund->classes.size() == 1);
        }
    }
    PlanIrregularities(history, plan);
    return history;
}

}  // namespace lastro::funds::sample
