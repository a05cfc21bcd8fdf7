#include "sample/inf_diario/inf_diario_sample.hpp"

#include "domain/business_calendar.hpp"
#include "sample/inf_diario/daily_csv.hpp"
#include "sample/inf_diario/fund_universe.hpp"
#include "sample/inf_diario/quota_model.hpp"
#include "sample/sgs_model.hpp"

#include <lastro/sdk/sample/date_math.hpp>
#include <lastro/sdk/sample/money.hpp>
#include <lastro/sdk/sample/prng.hpp>
#include <lastro/sdk/sample/sample_directory.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace lastro::series {
namespace inf_diario {
namespace {

namespace fs = std::filesystem;
namespace sample = sdk::sample;

constexpr std::uint64_t kRepublishedStream = sample::StreamOf("cvm.inf_diario_fi/republished");
// The first version of the republished month had the changed fund's values this much too high
// (per thousand).
constexpr std::int64_t kChangedPerMille = 1005;

sdk::Date FirstOf(const sdk::Month& month) {
    return {month.year, month.month, 1};
}

// Removes the monthly files of this dataset an earlier run left in `dir` that this run does not
// write (another --months, scale or seed): the ingest reads every inf_diario_fi_*.zip there, so a
// stale month would mix two samples. Returns how many were removed.
std::size_t RemoveStale(const fs::path& dir, const std::set<std::string>& keep) {
    static const std::regex kMonthly(R"(inf_diario_fi_\d{6}\.zip)");
    std::error_code error;
    std::vector<fs::path> stale;
    for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
        const std::string name = it->path().filename().string();
        if (std::regex_match(name, kMonthly) && !keep.count(name) && it->is_regular_file()) {
            stale.push_back(it->path());
        }
    }
    if (error && error != std::errc::no_such_file_or_directory) {
        throw std::runtime_error(dir.string() + ": " + error.message());
    }
    for (const fs::path& path : stale) {
        if (!fs::remove(path, error) && error) {
            throw std::runtime_error(path.string() + ": " + error.message());
        }
    }
    return stale.size();
}

std::int64_t QuantumOf(int decimals) {
    std::int64_t quantum = 1;
    for (int i = decimals; i < 12; ++i) {
        quantum *= 10;
    }
    return quantum;
}

// The republished month in its two versions: `rows` become the first (as written on the
// reference day), `later` the republished one.
void Republish(std::uint64_t seed, const Universe& universe, std::vector<DailyRow>& rows,
               std::vector<DailyRow>& later) {
    const Plan& plan = universe.plan;
    sample::Prng rng = sample::Prng::ForStream(seed, kRepublishedStream);
    const std::int64_t investors_off = rng.Between(5, 60);
    const auto is = [](std::uint32_t fund, int index) {
        return index >= 0 && fund == static_cast<std::uint32_t>(index);
    };
    std::vector<DailyRow> first;
    first.reserve(rows.size());
    later.clear();
    for (const DailyRow& row : rows) {
        if (!(is(row.fund, plan.removed) && row.day == plan.removed_day)) {
            later.push_back(row);
        }
        if (is(row.fund, plan.added) && row.day == plan.added_day) {
            continue;  // a late report: only the later version has it
        }
        DailyRow copy = row;
        if (is(row.fund, plan.changed_values) && std::find(plan.changed_days.begin(), plan.changed_days.end(),
                                                           row.day) != plan.changed_days.end()) {
            const std::int64_t quantum = QuantumOf(universe.funds[row.fund].quota_decimals);
            copy.quota = sample::MulDiv(row.quota, kChangedPerMille, 1000 * quantum) * quantum;
            copy.net_worth = sample::MulDiv(row.net_worth, kChangedPerMille, 1000);
            copy.total = sample::MulDiv(row.total, kChangedPerMille, 1000);
        }
        if (is(row.fund, plan.changed_investors) && row.day == plan.changed_investors_day) {
            copy.investors += investors_off;
        }
        first.push_back(copy);
    }
    rows = std::move(first);
}

// One zip with its one member; the member's bytes are moved, not copied (60 MB at scale full).
void WriteZip(sample::SampleDirectory& out, const std::string& name, const std::string& member,
              std::string bytes) {
    std::vector<sample::ArchiveMember> members(1);
    members[0].name = member;
    members[0].bytes = std::move(bytes);
    out.WriteZip(name, std::move(members));
}

std::string Join(const std::vector<std::string>& items) {
    std::string text;
    for (const std::string& item : items) {
        text += (text.empty() ? "" : ", ") + item;
    }
    return text;
}

std::string Named(const InfDiarioFundDay& day) {
    return day.cnpj + (day.subclass.empty() ? "" : " " + day.subclass) + " on " + day.day.ToString();
}

// The public description of the plan.
InfDiarioSampleCases CasesOf(const Universe& universe, const Calendar& calendar,
                             const QuotaSimulation& simulation, bool full) {
    InfDiarioSampleCases cases;
    const Plan& plan = universe.plan;
    const auto cnpj = [&](int index) { return universe.funds[static_cast<std::size_t>(index)].cnpj; };
    const auto day = [&](std::int32_t index) { return calendar.days[static_cast<std::size_t>(index)]; };
    const auto fund_day = [&](int index, std::int32_t d) {
        return InfDiarioFundDay{cnpj(index), "", day(d)};
    };
    if (plan.duplicate >= 0) {
        cases.duplicate_cnpj = cnpj(plan.duplicate);
        for (int m = MonthIndexOf(kDuplicateFirstMonth); m <= MonthIndexOf(kDuplicateLastMonth); ++m) {
            cases.duplicate_months.push_back(MonthOf(m));
        }
    }
    if (plan.gap >= 0) {
        cases.gap = fund_day(plan.gap, *universe.funds[static_cast<std::size_t>(plan.gap)].gap_day);
    }
    if (plan.short_quota >= 0) {
        cases.short_quota_cnpj = cnpj(plan.short_quota);
    }
    if (plan.blank_investors >= 0) {
        cases.blank_investors_cnpj = cnpj(plan.blank_investors);
        for (const std::int32_t d :
             universe.funds[static_cast<std::size_t>(plan.blank_investors)].blank_investor_days) {
            cases.blank_investor_days.push_back(day(d));
        }
    }
    for (const int index : plan.subclass_classes) {
        cases.subclass_cnpjs.push_back(cnpj(index));
        cases.subclass_months.push_back(universe.funds[static_cast<std::size_t>(index)].split_month);
    }
    if (plan.recovering_drawdown >= 0) {
        cases.recovering_drawdown_cnpj = cnpj(plan.recovering_drawdown);
    }
    if (plan.lasting_drawdown >= 0) {
        cases.lasting_drawdown_cnpj = cnpj(plan.lasting_drawdown);
    }
    if (plan.late_start >= 0) {
        cases.late_start =
            fund_day(plan.late_start, universe.funds[static_cast<std::size_t>(plan.late_start)].first_day);
    }
    if (plan.cancelled >= 0) {
        cases.cancelled =
            fund_day(plan.cancelled, universe.funds[static_cast<std::size_t>(plan.cancelled)].last_day);
    }
    if (!full) {
        const sdk::Month last_month = calendar.days.back().ToMonth();
        for (const Fund& fund : universe.funds) {
            if (FollowsCdi(fund.kind)) {
                cases.cdi_cnpjs.push_back(fund.cnpj);
            } else if (fund.kind == Kind::kEquity) {
                cases.equity_cnpjs.push_back(fund.cnpj);
            } else if (fund.kind == Kind::kMultimarket) {
                cases.multimarket_cnpjs.push_back(fund.cnpj);
            }
            if (kSwitchMonth < fund.adapted && kSwitchMonth <= last_month && fund.files_before_switch) {
                cases.fi_after_switch_cnpjs.push_back(fund.cnpj);
            }
        }
        for (std::size_t d = 0; d < calendar.days.size(); ++d) {
            if (calendar.lag[d] >= 1 && calendar.lag[d] <= 6 && calendar.days[d].ToMonth() == last_month) {
                cases.lag_days.push_back(
                    {calendar.days[d], calendar.lag[d], simulation.Filed()[d], simulation.Alive()[d]});
            }
        }
    }
    if (plan.changed_values >= 0) {
        cases.republished_month = kRepublishedMonth;
        for (const std::int32_t d : plan.changed_days) {
            cases.changed_values.push_back(fund_day(plan.changed_values, d));
        }
        cases.changed_investors = fund_day(plan.changed_investors, plan.changed_investors_day);
        cases.added = fund_day(plan.added, plan.added_day);
        cases.removed = fund_day(plan.removed, plan.removed_day);
    }
    return cases;
}

std::vector<std::string> Notes(const InfDiarioSampleCases& cases, const std::string& republished_file) {
    std::vector<std::string> notes;
    const std::string prefix = "inf_diario_fi: ";
    if (!cases.lag_days.empty()) {
        std::string text;
        for (auto it = cases.lag_days.rbegin(); it != cases.lag_days.rend(); ++it) {
            text += (text.empty() ? "" : ", ") + it->day.ToString() + " " + std::to_string(it->filed) + "/" +
                    std::to_string(it->expected);
        }
        notes.push_back(prefix + "the last month as written on " + kInfDiarioReferenceDate.ToString() +
                        ", its last business days still filling (funds in/alive): " + text);
    }
    if (cases.republished_month) {
        std::vector<std::string> changed;
        for (const InfDiarioFundDay& day : cases.changed_values) {
            changed.push_back(day.day.ToString());
        }
        notes.push_back(prefix + republished_file + " is a later version of " +
                        cases.republished_month->ToString() +
                        " (not ingested by --sample): VL_QUOTA, VL_PATRIM_LIQ, VL_TOTAL of " +
                        cases.changed_values.front().cnpj + " on " + Join(changed) + " and NR_COTST of " +
                        Named(*cases.changed_investors) + " changed; added " + Named(*cases.added) +
                        "; removed " + Named(*cases.removed));
    }
    if (cases.duplicate_cnpj) {
        notes.push_back(
            prefix + *cases.duplicate_cnpj + " filed as both CLASSES - FIF and FI every business day of " +
            cases.duplicate_months.front().ToString() + " .. " + cases.duplicate_months.back().ToString());
    }
    if (cases.gap) {
        notes.push_back(prefix + cases.gap->cnpj + " did not file " + cases.gap->day.ToString() + " (a gap)");
    }
    if (cases.short_quota_cnpj) {
        notes.push_back(prefix + *cases.short_quota_cnpj + " prints VL_QUOTA with 6 decimals");
    }
    if (cases.blank_investors_cnpj) {
        std::vector<std::string> days;
        for (const sdk::Date& day : cases.blank_investor_days) {
            days.push_back(day.ToString());
        }
        notes.push_back(prefix + *cases.blank_investors_cnpj + " has NR_COTST blank on " + Join(days));
    }
    if (!cases.subclass_cnpjs.empty()) {
        std::vector<std::string> classes;
        for (std::size_t i = 0; i < cases.subclass_cnpjs.size(); ++i) {
            classes.push_back(cases.subclass_cnpjs[i] + " from " + cases.subclass_months[i].ToString());
        }
        notes.push_back(prefix + "classes filing per subclass: " + Join(classes));
    }
    if (cases.recovering_drawdown_cnpj || cases.lasting_drawdown_cnpj) {
        notes.push_back(prefix + "drawdowns: " +
                        (cases.recovering_drawdown_cnpj
                             ? *cases.recovering_drawdown_cnpj + " recovers (fall " +
                                   kRecoveringFall.ToString() + " .. " + kRecoveringBottom.ToString() +
                                   ", back by " + kRecoveredBy.ToString() + ")"
                             : std::string("none recovering")) +
                        "; " +
                        (cases.lasting_drawdown_cnpj
                             ? *cases.lasting_drawdown_cnpj + " never recovers (fall " +
                                   kLastingFall.ToString() + " .. " + kLastingBottom.ToString() + ")"
                             : std::string("none lasting")));
    }
    if (cases.late_start) {
        notes.push_back(prefix + cases.late_start->cnpj + " starts filing on " +
                        cases.late_start->day.ToString());
    }
    if (cases.cancelled) {
        notes.push_back(prefix + cases.cancelled->cnpj + " stops filing (cancelled) after " +
                        cases.cancelled->day.ToString());
    }
    return notes;
}

}  // namespace
}  // namespace inf_diario

sdk::SampleReport InfDiarioSampleWriter::Write(const sdk::SampleRequest& request) {
    using namespace inf_diario;
    cases_ = {};
    const bool full = request.scale == sdk::SampleScale::kFull;
    const int months = request.months.value_or(full ? kInfDiarioFullMonths : kInfDiarioSampleMonths);
    if (months < 1 || months > sdk::kMaxSampleMonths) {
        throw std::invalid_argument("the daily fund reports cover 1 to " +
                                    std::to_string(sdk::kMaxSampleMonths) + " months, not " +
                                    std::to_string(months));
    }
    const sdk::Date reference = kInfDiarioReferenceDate;
    // The last day SGS publishes (the business day before the reference) and the last month:
    // scale sample ends there, in the reference month; scale full at the month before.
    sdk::Date rate_last = sample::AddDays(reference, -1);
    while (!IsBusinessDay(rate_last)) {
        rate_last = sample::AddDays(rate_last, -1);
    }
    const sdk::Month last_month = full ? reference.ToMonth().Previous() : rate_last.ToMonth();
    const sdk::Month first_month = MonthOf(MonthIndexOf(last_month) - (months - 1));
    const sdk::Date last_day = full ? sample::LastDayOfMonth(last_month.year, last_month.month) : rate_last;
    // The SGS sample's model, asked exactly as SgsSampleWriter asks it: the CDI the funds earn is
    // the one SGS 12 publishes in the same sample.
    const sgs_sample::RateModel model(request.seed, rate_last, reference.ToMonth().Previous());
    const Calendar calendar = BuildCalendar(request.seed, model, FirstOf(first_month), last_day, reference);
    Universe universe = full ? FullUniverse(request.seed, calendar, kInfDiarioFullSeries)
                             : SampleUniverse(request.seed, calendar);
    const bool republish = universe.plan.changed_values >= 0;

    std::set<std::string> names;
    for (int m = MonthIndexOf(first_month); m <= MonthIndexOf(last_month); ++m) {
        names.insert(MonthFileStem(MonthOf(m)) + ".zip");
    }
    const std::string republished_name = MonthFileStem(kRepublishedMonth) + ".zip";
    const fs::path republished_dir = request.out_dir / kInfDiarioRepublishedDir;
    const std::size_t removed =
        RemoveStale(request.out_dir, names) +
        RemoveStale(republished_dir,
                    republish ? std::set<std::string>{republished_name} : std::set<std::string>{});

    sample::SampleDirectory out(request.out_dir, sample::ArchiveTimestamp(request.seed, reference));
    QuotaSimulation simulation(request.seed, universe, calendar);
    std::vector<DailyRow> rows;
    std::vector<DailyRow> later;
    std::vector<std::uint8_t> filed(universe.funds.size());  // a bit per series that filed
    std::size_t row_count = 0;
    for (int m = MonthIndexOf(first_month); m <= MonthIndexOf(last_month); ++m) {
        const sdk::Month month = MonthOf(m);
        rows.clear();
        simulation.Month(calendar.IndexOf(FirstOf(month)), calendar.IndexOf(FirstOf(month.Next())), rows);
        if (republish && month == kRepublishedMonth) {
            Republish(request.seed, universe, rows, later);
        }
        for (const DailyRow& row : rows) {
            filed[row.fund] |= static_cast<std::uint8_t>(1U << row.series);
        }
        row_count += rows.size();
        const std::string stem = MonthFileStem(month);
        WriteZip(out, stem + ".zip", stem + ".csv", RenderMonth(month, rows, universe, calendar));
    }
    std::vector<fs::path> files = out.Files();
    if (republish) {
        // Written the morning after the reference day.
        sample::SampleDirectory again(republished_dir,
                                      sample::ArchiveTimestamp(request.seed, sample::AddDays(reference, 1)));
        const std::string stem = MonthFileStem(kRepublishedMonth);
        WriteZip(again, republished_name, stem + ".csv",
                 RenderMonth(kRepublishedMonth, later, universe, calendar));
        files.insert(files.end(), again.Files().begin(), again.Files().end());
    }

    cases_ = CasesOf(universe, calendar, simulation, full);
    std::size_t funds = 0;
    std::size_t subclasses = 0;
    for (std::size_t i = 0; i < universe.funds.size(); ++i) {
        funds += filed[i] != 0 ? 1 : 0;
        for (std::size_t s = 1; s < universe.funds[i].series.size(); ++s) {
            subclasses += (filed[i] >> s) & 1U;
        }
    }

    sdk::SampleReport report;
    report.files = std::move(files);
    report.counts = {{"daily-report funds and classes", funds},
                     {"subclasses", subclasses},
                     {"daily rows", row_count},
                     {"daily-report files", report.files.size()}};
    report.notes.push_back("inf_diario_fi: " + std::to_string(months) +
                           (months == 1 ? " month " : " months ") + first_month.ToString() + " .. " +
                           last_month.ToString() + " on the sample's CDI (--months N for another length)" +
                           (first_month < kInfDiarioSwitchMonth
                                ? "; the legacy header before " + kInfDiarioSwitchMonth.ToString() +
                                      " (an invented switch), RCVM 175's from it"
                                : "") +
                           (full ? "; full scale: no planted cases" : ""));
    if (removed > 0) {
        report.notes.push_back("inf_diario_fi: removed " + std::to_string(removed) +
                               " monthly files of an earlier sample");
    }
    const std::vector<std::string> notes =
        Notes(cases_, std::string(kInfDiarioRepublishedDir) + "/" + republished_name);
    report.notes.insert(report.notes.end(), notes.begin(), notes.end());
    return report;
}

}  // namespace lastro::series
