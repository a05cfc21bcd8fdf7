#include "sample/monthly_history.hpp"

#include "sample/kit.hpp"
#include "sample/streams.hpp"

#include <lastro/sdk/cnpj.hpp>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <set>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace lastro::funds::sample {

namespace {

// The first month of the Selic path: the longest history starts here.
constexpr sdk::Month kFirstSelicMonth{2006, 9};

// The Selic target in force for most of each month (the Copom's decisions until 2025, a
// plausible path after), annual, hundredths of a percent.
constexpr std::array<std::int64_t, kMaxReportMonths> kAnnualSelic{
    1425, 1425, 1375, 1325, 1325, 1300, 1275, 1275, 1250, 1200, 1200, 1150,  // 2006-09
    1125, 1125, 1125, 1125, 1125, 1125, 1125, 1125, 1175, 1225, 1225, 1300,  // 2007-09
    1375, 1375, 1375, 1375, 1375, 1275, 1125, 1125, 1025, 925,  925,  875,   // 2008-09
    875,  875,  875,  875,  875,  875,  875,  875,  950,  1025, 1025, 1075,  // 2009-09
    1075, 1075, 1075, 1075, 1075, 1125, 1175, 1175, 1200, 1225, 1225, 1250,  // 2010-09
    1200, 1200, 1150, 1100, 1100, 1050, 975,  975,  900,  850,  800,  800,   // 2011-09
    750,  725,  725,  725,  725,  725,  725,  725,  750,  800,  850,  850,   // 2012-09
    900,  950,  950,  1000, 1000, 1050, 1075, 1100, 1100, 1100, 1100, 1100,  // 2013-09
    1100, 1100, 1125, 1175, 1175, 1225, 1275, 1275, 1325, 1375, 1375, 1425,  // 2014-09
    1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425,  // 2015-09
    1425, 1425, 1400, 1375, 1300, 1300, 1225, 1125, 1125, 1025, 1025, 925,   // 2016-09
    825,  825,  750,  700,  700,  675,  675,  650,  650,  650,  650,  650,   // 2017-09
    650,  650,  650,  650,  650,  650,  650,  650,  650,  650,  650,  600,   // 2018-09
    600,  550,  500,  450,  450,  425,  425,  375,  300,  300,  225,  200,   // 2019-09
    200,  200,  200,  200,  200,  200,  200,  275,  350,  350,  425,  525,   // 2020-09
    525,  625,  775,  925,  925,  1075, 1075, 1175, 1275, 1275, 1325, 1375,  // 2021-09
    1375, 1375, 1375, 1375, 1375, 1375, 1375, 1375, 1375, 1375, 1375, 1325,  // 2022-09
    1325, 1275, 1225, 1175, 1175, 1125, 1125, 1075, 1050, 1050, 1050, 1050,  // 2023-09
    1075, 1075, 1125, 1225, 1225, 1325, 1425, 1425, 1475, 1500, 1500, 1500,  // 2024-09
    1500, 1500, 1500, 1500, 1500, 1475, 1450, 1425, 1425, 1400, 1375, 1375,  // 2025-09
};

// The monthly CDI matching kAnnualSelic (less 0.10 point), in units of 1e-8:
// round(((1 + (Selic - 0.10) / 100) ^ (1 / 12) - 1) * 1e8). Senior quotas accrue on top of it.
constexpr std::array<std::int64_t, kMaxReportMonths> kMonthlyCdi{
    1108964, 1108964, 1071983, 1034853, 1034853, 1016231,
    997572,  997572,  978875,  941365,  941365,  903702,  // 2006-09
    884812,  884812,  884812,  884812,  884812,  884812,
    884812,  884812,  922553,  960139,  960139,  1016231,  // 2007-09
    1071983, 1071983, 1071983, 1071983, 1071983, 997572,
    884812,  884812,  808861,  732276,  732276,  693741,  // 2008-09
    693741,  693741,  693741,  693741,  693741,  693741,
    693741,  693741,  751482,  808861,  808861,  846915,  // 2009-09
    846915,  846915,  846915,  846915,  846915,  884812,
    922553,  922553,  941365,  960139,  960139,  978875,  // 2010-09
    941365,  941365,  903702,  865883,  865883,  827908,
    770648,  770648,  713029,  674413,  635634,  635634,  // 2011-09
    596690,  577155,  577155,  577155,  577155,  577155,
    577155,  577155,  596690,  635634,  674413,  674413,  // 2012-09
    713029,  751482,  751482,  789775,  789775,  827908,
    846915,  865883,  865883,  865883,  865883,  865883,  // 2013-09
    865883,  865883,  884812,  922553,  922553,  960139,
    997572,  997572,  1034853, 1071983, 1071983, 1108964,  // 2014-09
    1108964, 1108964, 1108964, 1108964, 1108964, 1108964,
    1108964, 1108964, 1108964, 1108964, 1108964, 1108964,  // 2015-09
    1108964, 1108964, 1090492, 1071983, 1016231, 1016231,
    960139,  884812,  884812,  808861,  808861,  732276,  // 2016-09
    655044,  655044,  596690,  557579,  557579,  537961,
    537961,  518300,  518300,  518300,  518300,  518300,  // 2017-09
    518300,  518300,  518300,  518300,  518300,  518300,
    518300,  518300,  518300,  518300,  518300,  478852,  // 2018-09
    478852,  439232,  399440,  359474,  359474,  339425,
    339425,  299194,  238513,  238513,  177425,  156971,  // 2019-09
    156971,  156971,  156971,  156971,  156971,  156971,
    156971,  218196,  279012,  279012,  339425,  419358,  // 2020-09
    419358,  498597,  616183,  732276,  732276,  846915,
    846915,  922553,  997572,  997572,  1034853, 1071983,  // 2021-09
    1071983, 1071983, 1071983, 1071983, 1071983, 1071983,
    1071983, 1071983, 1071983, 1071983, 1071983, 1034853,  // 2022-09
    1034853, 997572,  960139,  922553,  922553,  884812,
    884812,  846915,  827908,  827908,  827908,  827908,  // 2023-09
    846915,  846915,  884812,  960139,  960139,  1034853,
    1108964, 1108964, 1145796, 1164158, 1164158, 1164158,  // 2024-09
    1164158, 1164158, 1164158, 1164158, 1164158, 1145796,
    1127399, 1108964, 1108964, 1090492, 1071983, 1071983,  // 2025-09
};

std::size_t SelicIndex(const sdk::Month& month) {
    const int index = AbsoluteMonth(month);
    if (index < 0 || index >= kMaxReportMonths) {
        throw std::out_of_range("no Selic for " + month.ToString());
    }
    return static_cast<std::size_t>(index);
}

}  // namespace

int MonthsBetween(const sdk::Month& from, const sdk::Month& to) {
    return (to.year - from.year) * 12 + (to.month - from.month);
}

int AbsoluteMonth(const sdk::Month& month) {
    return MonthsBetween(kFirstSelicMonth, month);
}

sdk::Month History::MonthAt(int index) const {
    const int total = first_month.year * 12 + (first_month.month - 1) + index;
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

std::int64_t AnnualSelic(const sdk::Month& month) {
    return kAnnualSelic[SelicIndex(month)];
}

std::int64_t MonthlyCdi(const sdk::Month& month) {
    return kMonthlyCdi[SelicIndex(month)];
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

// Whether the class has quotas at the end of `month`.
bool Operating(const FundClass& c, const sdk::Month& month) {
    const sdk::Date end = MonthEnd(month);
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

std::vector<Series> DrawSeries(const History& history, const Fund& fund, const FundClass& c, Prng& rng) {
    const sdk::Date window_start{history.first_month.year, history.first_month.month, 1};
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
            added.first_month = *s.started < window_start ? -1 : history.IndexOf(s.started->ToMonth());
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
            // A second senior series issued in 2025-01 .. 2026-03, now and then (before the
            // history's first month: a series it starts with).
            if (i == 1 && ranks[0] == S && ranks[1] == S && rng.Chance(500)) {
                const int issued = static_cast<int>(rng.Between(4, 18));
                added.first_month = std::max(history.IndexOf(sdk::Month{2024, 9}) + issued, -1);
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
    std::vector<MonthDraw> draws;  // one per month of the history
};

struct ClassPlan {
    int first_month = -1;  // first operating month index; -1 when operating before the window
    int last_month = -1;   // last operating month index
    int liquidation_from = 0;
    std::int64_t target_net_assets = 0;  // cents, at the last operating month
    std::vector<SeriesPlan> series;
    std::vector<std::int64_t> delinquency;  // one per month of the history
    std::vector<std::int64_t> portfolio;
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

ClassPlan DrawPlan(const History& history, const FundClass& c, const std::vector<Series>& series,
                   const ClassProfile& profile, Prng& rng) {
    const int months = history.month_count;
    ClassPlan plan;
    plan.first_month = months;
    plan.liquidation_from = months;
    for (int m = 0; m < months; ++m) {
        if (Operating(c, history.MonthAt(m))) {
            plan.first_month = std::min(plan.first_month, m);
            plan.last_month = m;
        }
    }
    if (plan.first_month == 0 &&
        *c.started < sdk::Date{history.first_month.year, history.first_month.month, 1}) {
        plan.first_month = -1;
    }
    if (c.situation == Situation::kLiquidation) {
        plan.liquidation_from = std::max(0, history.IndexOf(c.situation_since.ToMonth()));
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
        sp.draws.resize(static_cast<std::size_t>(months));
        for (int m = 0; m < months; ++m) {
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
    plan.delinquency.resize(static_cast<std::size_t>(months));
    plan.portfolio.resize(static_cast<std::size_t>(months));
    for (int m = 0; m < months; ++m) {
        delinquency =
            std::clamp<std::int64_t>(Jitter(rng, delinquency, 80'000) + rng.Between(-500, 500), 0, 280'000);
        portfolio = std::clamp<std::int64_t>(portfolio + rng.Between(-5'000, 5'000), floor, ceiling);
        plan.delinquency[static_cast<std::size_t>(m)] = delinquency;
        plan.portfolio[static_cast<std::size_t>(m)] = portfolio;
    }
    return plan;
}

// Runs the class month by month from `initial` cents of net assets at its start.
std::vector<ClassMonth> Simulate(const History& history, const ClassPlan& plan,
                                 const std::vector<Series>& series, bool exclusive, std::int64_t initial) {
    std::vector<ClassMonth> months(static_cast<std::size_t>(history.month_count));
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
    for (int m = 0; m < history.month_count; ++m) {
        const std::int64_t cdi = MonthlyCdi(history.MonthAt(m));
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
                const std::int64_t rate =
                    std::max<std::int64_t>(cdi + sp.spread + d.return_noise, -8'000'000);
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
            s.expected_return = sp.has_target ? MulDiv(cdi + sp.spread, 1, 10'000) : 0;
            month.series[i] = s;
        }
    }
    return months;
}

void SimulateClass(const History& history, ClassHistory& c, Prng& rng) {
    const ClassPlan plan = DrawPlan(history, *c.fund_class, c.series, c.profile, rng);
    if (plan.last_month < 0) {
        c.months = Simulate(history, plan, c.series, false, 0);
        return;
    }
    // Net assets scale linearly with the start: a first run finds the factor that lands the last
    // month near the registry's figure.
    const bool exclusive = c.fund_class->exclusive;
    constexpr std::int64_t kProbe = 1'000'000'000;
    ClassHistory probe;
    probe.months = Simulate(history, plan, c.series, exclusive, kProbe);
    const std::int64_t reached = probe.NetAssets(plan.last_month);
    const std::int64_t initial =
        reached > 0 ? std::max<std::int64_t>(MulDiv(kProbe, plan.target_net_assets, reached), 100'000'00)
                    : kProbe;
    c.months = Simulate(history, plan, c.series, exclusive, initial);
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

// The fund-level report of a multi-class fund, filed in the months `filed` beside its classes'
// own reports: the consolidation of its classes (their series side by side, each label prefixed
// with its class's letter; the sum of their net assets), TP_FUNDO_CLASSE = Fundo under the
// fund's CNPJ. Its balance sheet follows its first class's profile.
void AddFundReport(History& history, const std::vector<std::size_t>& members, const std::vector<int>& filed) {
    const ClassHistory& first = history.classes[members.front()];
    const Fund& fund = *first.fund;
    auto fund_class = std::make_shared<FundClass>(*first.fund_class);
    fund_class->id = 10'000'000 + fund.id;  // its own random streams, apart from every class's
    fund_class->cnpj = fund.cnpj;
    fund_class->name = fund.name;
    fund_class->subclasses.clear();
    ClassHistory report;
    report.fund = &fund;
    report.fund_class = fund_class.get();
    report.fund_report = true;
    report.profile = first.profile;
    report.months.resize(static_cast<std::size_t>(history.month_count));
    for (std::size_t i : members) {
        const ClassHistory& c = history.classes[i];
        const auto letter =
            static_cast<char>('A' + (c.fund_class - fund.classes.data()));  // the class's letter in its name
        for (const Series& s : c.series) {
            Series added = s;
            added.label = std::string(1, letter) + " - " + s.label;
            report.series.push_back(std::move(added));
        }
        for (std::size_t m = 0; m < report.months.size(); ++m) {
            ClassMonth& month = report.months[m];
            month.operating = month.operating || c.months[m].operating;
            month.series.insert(month.series.end(), c.months[m].series.begin(), c.months[m].series.end());
            if (i == members.front()) {
                month.delinquency_ppm = c.months[m].delinquency_ppm;
                month.portfolio_ppm = c.months[m].portfolio_ppm;
            }
        }
    }
    for (int m : filed) {
        report.months[static_cast<std::size_t>(m)].reports = true;
    }
    history.fund_report_classes.push_back(std::move(fund_class));
    history.fund_reports.push_back(std::move(report));
}

// The named cases of docs/sample.md that indicators over the whole industry must cope with,
// planned after the irregularities: a net-worth typo, an absurd subscription, a negative net
// worth, and a fund-level report beside its classes'. Each is planned only when the history
// covers its months and some class fits.
void PlanNamedCases(History& history, std::vector<std::size_t>& pool, Prng& rng) {
    auto& notes = history.irregularities;
    const int months = history.month_count;
    const auto cnpj = [&](std::size_t i) { return Masked(history.classes[i].fund_class->cnpj); };
    const auto reports = [&](std::size_t i, int m) {
        return m >= 0 && m < months && history.classes[i].months[static_cast<std::size_t>(m)].reports;
    };
    const auto net_assets = [&](std::size_t i, int m) { return history.classes[i].NetAssets(m); };
    const auto money = [](std::int64_t cents) { return "R$ " + Decimal(cents, 2); };
    const auto take = [&](const std::vector<std::size_t>& fitting) {
        const std::size_t picked = fitting[rng.Below(fitting.size())];
        pool.erase(std::find(pool.begin(), pool.end(), picked));
        return picked;
    };
    constexpr std::int64_t kBillion = 100'000'000'000;  // R$ 1 billion, in cents

    // A net-worth spike: 2025-07's TAB_IV_A_VL_PL typed 1,000 times too large, above R$ 1 billion
    // and more than 20 times both neighbouring months (by a wide margin).
    {
        const int m = history.IndexOf({2025, 7});
        std::vector<std::size_t> fitting;
        for (std::size_t i : pool) {
            if (reports(i, m - 1) && reports(i, m) && reports(i, m + 1)) {
                const std::int64_t typed = net_assets(i, m) * 1'000;
                const std::int64_t neighbours = std::max(net_assets(i, m - 1), net_assets(i, m + 1));
                if (typed > 2 * kBillion && typed > 100 * neighbours &&
                    net_assets(i, m) < 300 * (kBillion / 1'000)) {
                    fitting.push_back(i);
                }
            }
        }
        if (!fitting.empty()) {
            const std::size_t i = take(fitting);
            history.classes[i].months[static_cast<std::size_t>(m)].quirks.net_assets_typo = true;
            notes.push_back(cnpj(i) + " 2025-07: TAB_IV_A_VL_PL typed 1,000 times too large (" +
                            money(net_assets(i, m) * 1'000) + " for " + money(net_assets(i, m)) +
                            "); the other tables and the months around it keep the true figures");
        }
    }
    // An absurd subscription: one Captações no Mês row between 2025-01 and 2026-06 whose
    // TAB_X_VL_TOTAL is 1,000 times the true one, more than 3 x max(PL, last month's PL) + R$ 100
    // million (by a wide margin).
    {
        struct Spot {
            std::size_t i;
            int m;
            std::size_t j;
        };
        std::vector<Spot> spots;
        const int from = std::max(1, history.IndexOf({2025, 1}));
        const int to = std::min(months - 1, history.IndexOf({2026, 6}));
        for (std::size_t i : pool) {
            for (int m = from; m <= to; ++m) {
                if (!reports(i, m) || !reports(i, m - 1)) {
                    continue;
                }
                const std::int64_t bound =
                    3 * std::max(net_assets(i, m), net_assets(i, m - 1)) + kBillion / 10;
                const auto& series = history.classes[i].months[static_cast<std::size_t>(m)].series;
                for (std::size_t j = 0; j < series.size(); ++j) {
                    const SeriesMonth& s = series[j];
                    if (s.exists && s.previous_value > 0 && s.subscribed > 0 &&
                        ValueInCents(s.subscribed, s.value) * 1'000 > 2 * bound) {
                        spots.push_back({i, m, j});
                    }
                }
            }
        }
        if (!spots.empty()) {
            const Spot spot = spots[rng.Below(spots.size())];
            pool.erase(std::find(pool.begin(), pool.end(), spot.i));
            ClassMonth& month = history.classes[spot.i].months[static_cast<std::size_t>(spot.m)];
            month.quirks.absurd_subscription_series = static_cast<int>(spot.j);
            const SeriesMonth& s = month.series[spot.j];
            notes.push_back(cnpj(spot.i) + " " + history.MonthAt(spot.m).ToString() +
                            ": the Captações no Mês row of \"" +
                            history.classes[spot.i].series[spot.j].label + "\" carries TAB_X_VL_TOTAL " +
                            money(ValueInCents(s.subscribed, s.value) * 1'000) +
                            ", 1,000 times the true amount (PL " + money(net_assets(spot.i, spot.m)) + ")");
        }
    }
    // A negative net worth: the last report of a class that stops reporting inside the history
    // (a cancelled fund's, preferably) shows a loss larger than its net worth: its most junior
    // series' quota value is negative, the PL below zero, the liabilities above the assets. No
    // quota moves that month.
    {
        std::vector<std::size_t> fitting;
        std::vector<std::size_t> cancelled;
        for (std::size_t i = 0; i < history.classes.size(); ++i) {
            const ClassHistory& c = history.classes[i];
            if (c.fund->type == FundType::kFicFidc || c.profile.holds_securities ||
                c.fund->classes.size() != 1 || c.series.empty() ||
                std::find(pool.begin(), pool.end(), i) != pool.end()) {
                continue;
            }
            int last = -1;
            for (int m = 0; m < months; ++m) {
                if (reports(i, m)) {
                    last = m;
                }
            }
            if (last < 1 || last >= months - 1 || c.months[static_cast<std::size_t>(last + 1)].operating ||
                !reports(i, last - 1) || net_assets(i, last - 1) <= 0) {
                continue;
            }
            const auto& now = c.months[static_cast<std::size_t>(last)].series;
            const auto& before = c.months[static_cast<std::size_t>(last - 1)].series;
            bool continuing = true;
            for (std::size_t j = 0; j < now.size(); ++j) {
                continuing = continuing && now[j].exists == before[j].exists;
            }
            if (continuing) {
                fitting.push_back(i);
                if (c.fund->situation == Situation::kCancelled) {
                    cancelled.push_back(i);
                }
            }
        }
        if (!fitting.empty()) {
            const std::vector<std::size_t>& from = cancelled.empty() ? fitting : cancelled;
            const std::size_t i = from[rng.Below(from.size())];
            ClassHistory& c = history.classes[i];
            int last = months - 1;
            while (!reports(i, last)) {
                --last;
            }
            const std::int64_t deficit = Share(net_assets(i, last - 1), rng.Between(150'000, 450'000));
            ClassMonth& month = c.months[static_cast<std::size_t>(last)];
            const auto& before = c.months[static_cast<std::size_t>(last - 1)].series;
            std::size_t junior = 0;
            __int128 others = 0;  // R$ 1e-16
            for (std::size_t j = 0; j < month.series.size(); ++j) {
                SeriesMonth& s = month.series[j];
                if (!s.exists) {
                    continue;
                }
                s.quantity = before[j].quantity;
                s.subscribed = s.redeemed = s.amortization = s.requested = 0;
                junior = j;
            }
            for (std::size_t j = 0; j < month.series.size(); ++j) {
                if (month.series[j].exists && j != junior) {
                    others += static_cast<__int128>(month.series[j].quantity) * month.series[j].value;
                }
            }
            // The junior value that brings the class to -deficit: (-deficit x 1e14 - others) / quantity.
            const __int128 wanted = -static_cast<__int128>(deficit) * 100'000'000'000'000;
            month.series[junior].value =
                static_cast<std::int64_t>((wanted - others) / month.series[junior].quantity);
            month.delinquency_ppm = std::max<std::int64_t>(month.delinquency_ppm, 250'000);
            notes.push_back(cnpj(i) + " " + history.MonthAt(last).ToString() +
                            ": its last report, TAB_IV_A_VL_PL " + money(c.NetAssets(last)) +
                            " (the quota value of \"" + c.series[junior].label +
                            "\" is negative; liabilities exceed the assets)");
        }
    }
    // A fund-level report beside its classes' own: a multi-class fund files a Fundo report under
    // its CNPJ in 2025-09, 2025-10 and 2025-11 while its classes file under their own CNPJs.
    {
        std::vector<int> filed;
        for (const sdk::Month month : {sdk::Month{2025, 9}, sdk::Month{2025, 10}, sdk::Month{2025, 11}}) {
            if (history.Covers(month)) {
                filed.push_back(history.IndexOf(month));
            }
        }
        std::vector<std::vector<std::size_t>> funds;  // the classes of each multi-class fund
        for (std::size_t i = 0; i < history.classes.size(); ++i) {
            const Fund* fund = history.classes[i].fund;
            if (fund->classes.size() < 2) {
                continue;
            }
            if (funds.empty() || history.classes[funds.back().front()].fund != fund) {
                funds.emplace_back();
            }
            funds.back().push_back(i);
        }
        std::vector<std::size_t> fitting;
        for (std::size_t f = 0; f < funds.size() && !filed.empty(); ++f) {
            bool fits = true;
            for (int m : filed) {
                std::size_t reporting = 0;
                for (std::size_t i : funds[f]) {
                    reporting += reports(i, m);
                }
                fits = fits && reporting >= 2;
            }
            if (fits) {
                fitting.push_back(f);
            }
        }
        if (!fitting.empty()) {
            const std::vector<std::size_t>& members = funds[fitting[rng.Below(fitting.size())]];
            AddFundReport(history, members, filed);
            std::string months_text;
            for (int m : filed) {
                months_text += (months_text.empty() ? "" : ", ") + history.MonthAt(m).ToString();
            }
            std::string classes_text;
            for (std::size_t i : members) {
                classes_text += (classes_text.empty() ? "" : ", ") + cnpj(i);
            }
            notes.push_back(
                Masked(history.classes[members.front()].fund->cnpj) + " " + months_text +
                ": a TP_FUNDO_CLASSE = Fundo report of the fund (the sum of its classes) beside the "
                "Classe reports of its classes " +
                classes_text);
        }
    }
}

void PlanIrregularities(History& history, Prng& rng) {
    // Steady classes operate in every month from 2024-09 (or the history's first month) on: the
    // irregularities fall in 2025 and 2026, and those of every month need a class that reports.
    const int steady_from = std::max(0, history.IndexOf({2024, 9}));
    const auto steady = [&history, steady_from](const ClassHistory& c) {
        if (c.fund->type == FundType::kFicFidc || c.profile.holds_securities || c.fund->classes.size() != 1 ||
            c.series.empty()) {
            return false;
        }
        for (int m = steady_from; m < history.month_count; ++m) {
            if (!c.months[static_cast<std::size_t>(m)].operating) {
                return false;
            }
        }
        return true;
    };
    std::vector<std::size_t> pool = Candidates(history, steady);
    if (pool.size() < 14) {
        return;  // a tiny universe (not the sample's): no irregularities
    }
    // Each irregularity takes its class whether or not its month is in the history, so a shorter
    // or longer history gives the same classes the same irregularities; only those whose month
    // the history covers are planned and listed.
    auto& notes = history.irregularities;
    const auto cnpj = [&](std::size_t i) { return Masked(history.classes[i].fund_class->cnpj); };
    const auto covers = [&history](const sdk::Month& month) { return history.Covers(month); };
    const auto month_of = [&](std::size_t i, const sdk::Month& month) -> ClassMonth& {
        return history.classes[i].months.at(static_cast<std::size_t>(history.IndexOf(month)));
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

    const sdk::Month skipped{2026, 5};
    for (int k = 0; k < 2; ++k) {
        const std::size_t i = Take(pool, rng);
        if (covers(skipped)) {
            month_of(i, skipped).reports = false;
            notes.push_back(cnpj(i) + " 2026-05: no report that month (reports 2026-04 and 2026-06)");
        }
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
        history.classes[i].stopped_after = history.IndexOf({2025, 12});
        for (int m = std::max(0, history.IndexOf({2026, 1})); m < history.month_count; ++m) {
            history.classes[i].months[static_cast<std::size_t>(m)].reports = false;
        }
        if (covers({2025, 12})) {
            notes.push_back(cnpj(i) + " 2025-12: last report; the registry still lists it in operation");
        }
    }
    const sdk::Month as_fund{2025, 3};
    for (int k = 0; k < 2; ++k) {
        const std::size_t i = with_series(2);
        if (covers(as_fund)) {
            MonthQuirks& q = month_of(i, as_fund).quirks;
            q.also_as_fund = true;
            q.fund_rows_first = k == 1;
            notes.push_back(cnpj(i) +
                            " 2025-03: every table also has a TP_FUNDO_CLASSE = Fundo row, 3 % lower " +
                            (k == 1 ? "(before the Classe row)" : "(after the Classe row)"));
        }
    }
    {
        const std::size_t i = with_series(2);
        if (covers({2025, 6})) {
            month_of(i, {2025, 6}).quirks.conflicting_rows = true;
            notes.push_back(
                cnpj(i) +
                " 2025-06: tab_IV and tab_X_2 carry two Classe rows per key; the later line is right");
        }
    }
    {
        const std::size_t i = Take(pool, rng);
        if (covers({2025, 10})) {
            month_of(i, {2025, 10}).quirks.repeated_line = true;
            notes.push_back(cnpj(i) + " 2025-10: its tab_II line is written twice, byte for byte");
        }
    }
    {
        const sdk::Month month{2026, 2};
        std::vector<std::size_t> delinquent;
        for (std::size_t i : pool) {
            if (covers(month) && month_of(i, month).delinquency_ppm > 10'000) {
                delinquent.push_back(i);
            }
        }
        const std::size_t i = delinquent.empty() ? pool.front() : delinquent[rng.Below(delinquent.size())];
        pool.erase(std::find(pool.begin(), pool.end(), i));
        if (covers(month)) {
            month_of(i, month).quirks.provision_blank = true;
            notes.push_back(cnpj(i) + " 2026-02: TAB_I2A11_VL_REDUCAO_RECUP empty (the provision exists)");
        }
    }
    {
        const std::size_t i = Take(pool, rng);
        if (covers({2026, 1})) {
            month_of(i, {2026, 1}).quirks.holders_blank_series = 0;
            notes.push_back(cnpj(i) + " 2026-01: TAB_X_NR_COTST empty for series \"" +
                            history.classes[i].series[0].label + "\"");
        }
    }
    {
        const std::size_t i = Take(pool, rng);
        if (covers({2025, 8})) {
            month_of(i, {2025, 8}).quirks.return_blank_series = 0;
            notes.push_back(cnpj(i) + " 2025-08: TAB_X_VL_RENTAB_MES empty for series \"" +
                            history.classes[i].series[0].label + "\"");
        }
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
                return history.classes[k]
                           .months[static_cast<std::size_t>(at.first)]
                           .series[at.second]
                           .amortization >= 2 * kE8;
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
        history.classes[*i].months[static_cast<std::size_t>(m)].quirks.amortization_unmatched_series =
            static_cast<int>(j);
        notes.push_back(cnpj(*i) + " " + history.MonthAt(m).ToString() + ": the Amortizações row of \"" +
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
        // Planned after the ones above, so they keep their classes whatever is added here. A class
        // that files tab_VI with zero receivables, so that zero bands are there to leave empty.
        const auto i = pick([&](std::size_t k) {
                           const ClassProfile& p = history.classes[k].profile;
                           return !p.without_risk_blank && p.without_risk_ppm == 0;
                       }).value_or(pool.front());
        pool.erase(std::remove(pool.begin(), pool.end(), i), pool.end());
        if (covers({2026, 3})) {
            month_of(i, {2026, 3}).quirks.zeros_blank = true;
            notes.push_back(
                cnpj(i) + " 2026-03: the receivable components and tab_V/tab_VI bands that are 0 left empty");
        }
    }
    PlanNamedCases(history, pool, rng);
}
}  // namespace

std::string UnmatchedLabel(const std::string& label) {
    return label + " Tipo Subclasse";
}

History BuildHistory(const Universe& universe, int months) {
    if (months < 1 || months > kMaxReportMonths) {
        throw std::invalid_argument("the FIDC monthly reports cover 1 to " +
                                    std::to_string(kMaxReportMonths) + " months, not " +
                                    std::to_string(months));
    }
    History history;
    history.seed = universe.seed;
    history.month_count = months;
    const int last = kLastReportMonth.year * 12 + (kLastReportMonth.month - 1);
    history.first_month = {(last - months + 1) / 12, (last - months + 1) % 12 + 1};
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

    // About fifteen FIDCs in operation through the CDA months (2026-03 .. 2026-08, whatever the
    // history covers) hold securities (and a CDA).
    Prng plan = Prng::ForStream(universe.seed, kHistoryPlanStream);
    std::vector<std::size_t> holders;
    for (std::size_t i = 0; i < history.classes.size(); ++i) {
        const ClassHistory& c = history.classes[i];
        bool through = c.fund->type != FundType::kFicFidc;
        for (sdk::Month m{2026, 3}; through && m <= kLastReportMonth; m = m.Next()) {
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
        c.series = DrawSeries(history, *c.fund, *c.fund_class, profile_rng);
        Prng series_rng =
            Prng::ForStream(universe.seed, kSeriesStream, static_cast<std::uint64_t>(c.fund_class->id));
        SimulateClass(history, c, series_rng);
        // Before 2024-12 reports keyed on the fund: only single-class funds filed then.
        for (int m = 0; m < months; ++m) {
            ClassMonth& month = c.months[static_cast<std::size_t>(m)];
            month.reports = month.operating && !c.series.empty() &&
                            (history.MonthAt(m) >= kFirstClassLayoutMonth || c.fund->classes.size() == 1);
        }
    }
    PlanIrregularities(history, plan);
    return history;
}

}  // namespace lastro::funds::sample
