#include "sample/sample_writer.hpp"

#include "domain/business_calendar.hpp"
#include "sample/sgs_model.hpp"

#include <lastro/sdk/sample/date_math.hpp>
#include <lastro/sdk/sample/money.hpp>
#include <lastro/sdk/sample/prng.hpp>
#include <lastro/sdk/sample/sample_directory.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace lastro::series {

namespace sgs_sample {
namespace {

namespace sample = sdk::sample;

enum class Model {
    kSelicDaily,
    kCdiDaily,
    kSelicTarget,
    kIpca,
    kCdiAnnual,
    kSelicMonth,
    kCdiMonth,
    kGeneric
};

// The series the model knows, as the manifest describes them, and the day SGS starts each.
struct KnownSeries {
    std::int64_t code;
    Model model;
    SeriesKind kind;
    RatePer rate_per;
    Frequency frequency;
    sdk::Date first_day;
};
constexpr KnownSeries kKnownSeries[] = {
    {11, Model::kSelicDaily, SeriesKind::kRate, RatePer::kDay, Frequency::kDaily, {1986, 6, 4}},
    {12, Model::kCdiDaily, SeriesKind::kRate, RatePer::kDay, Frequency::kDaily, {1986, 3, 6}},
    {432, Model::kSelicTarget, SeriesKind::kLevel, RatePer::kYear, Frequency::kDaily, {1999, 3, 5}},
    {433, Model::kIpca, SeriesKind::kRate, RatePer::kMonth, Frequency::kMonthly, {1980, 1, 1}},
    {4389, Model::kCdiAnnual, SeriesKind::kRate, RatePer::kYear, Frequency::kDaily, {1986, 3, 6}},
    {4390, Model::kSelicMonth, SeriesKind::kRate, RatePer::kMonth, Frequency::kMonthly, {1986, 7, 1}},
    {4391, Model::kCdiMonth, SeriesKind::kRate, RatePer::kMonth, Frequency::kMonthly, {1986, 7, 1}},
};
// Where a series the model does not know starts at scale full (after the Real's first years,
// so a generic series needs no hyperinflation model of its own).
constexpr sdk::Date kGenericFirstDay{2000, 1, 1};
// SGS answers at most 10 years a request (docs/sync.md: windows of 10 years less a day).
constexpr int kWindowYears = 10;

const KnownSeries* KnownOf(const SeriesSpec& spec) {
    for (const KnownSeries& known : kKnownSeries) {
        if (known.code == spec.code && known.kind == spec.kind && known.rate_per == spec.rate_per &&
            known.frequency == spec.frequency) {
            return &known;
        }
    }
    return nullptr;
}

struct Row {
    sdk::Date date;
    std::optional<std::int64_t> units;  // nullopt: SGS published an empty valor
};

struct Series {
    int decimals = 2;
    std::vector<Row> rows;  // ascending dates
};

enum class Style {
    kCompact,   // as SGS answers
    kBom,       // SGS's bytes after a UTF-8 byte order mark (as some downloads are saved)
    kIndented,  // pretty-printed by the client that saved it
};

struct Window {
    sdk::Date first;
    sdk::Date last;
    bool json = true;
    Style style = Style::kCompact;
};

// --- Values -----------------------------------------------------------------------------------

std::vector<Row> DailyRows(const RateModel& model, Model which, const sdk::Date& from) {
    std::vector<Row> rows;
    for (const ModelDay& day : model.Days()) {
        if (day.date < from) {
            continue;
        }
        switch (which) {
            case Model::kSelicDaily:
                rows.push_back({day.date, DailyRateFromAnnual(day.selic_bp)});
                break;
            case Model::kCdiDaily:
                rows.push_back({day.date, DailyRateFromAnnual(day.cdi_bp)});
                break;
            case Model::kCdiAnnual:
                rows.push_back({day.date, day.cdi_bp});
                break;
            case Model::kSelicTarget:
                if (day.target_bp) {
                    rows.push_back({day.date, *day.target_bp});
                }
                break;
            default:
                break;
        }
    }
    return rows;
}

sdk::Date FirstOfMonth(const sdk::Month& month) {
    return {month.year, month.month, 1};
}

// SGS 4390 and 4391: the published daily rates of each month from `from`'s to `last_month`,
// compounded.
std::vector<Row> MonthlyCompounded(const std::vector<Row>& daily, const sdk::Date& from,
                                   const sdk::Month& last_month) {
    std::map<sdk::Month, std::vector<std::int64_t>> months;
    for (const Row& row : daily) {
        const sdk::Month month = row.date.ToMonth();
        if (row.units && !(month < from.ToMonth()) && !(last_month < month)) {
            months[month].push_back(*row.units);
        }
    }
    std::vector<Row> rows;
    for (const auto& [month, rates] : months) {
        rows.push_back({FirstOfMonth(month), CompoundedPercent(rates)});
    }
    return rows;
}

std::vector<Row> IpcaRows(const RateModel& model, const sdk::Date& from) {
    std::vector<Row> rows;
    for (const ModelMonth& month : model.Months()) {
        if (!(month.month < from.ToMonth())) {
            rows.push_back({FirstOfMonth(month.month), month.ipca});
        }
    }
    return rows;
}

int DecimalsOf(RatePer per) {
    switch (per) {
        case RatePer::kDay:
            return 6;  // as SGS 11 and 12
        case RatePer::kMonth:
            return 4;
        case RatePer::kYear:
            break;
    }
    return 2;  // as SGS 432 and 4389
}

// A series the model does not know, from its kind, rate_per and frequency: a rate follows the
// CDI plus a spread of its own (a monthly rate per month, an inflation-like path); a level
// follows the Selic target plus an offset. Periods longer than a day take the mean of their
// business days (a level: the last one); only complete periods are published.
Series GenericSeries(const SeriesSpec& spec, const RateModel& model, std::uint64_t seed,
                     const sdk::Date& from, const sdk::Month& last_month) {
    sample::Prng rng = sample::Prng::ForStream(seed, sample::StreamOf(spec.dataset + "/model"));
    const std::int64_t spread = rng.Between(-100, 300);
    const std::int64_t offset = 25 * rng.Between(0, 8);
    const bool level = spec.kind == SeriesKind::kLevel;
    const auto annual = [&](const ModelDay& day) -> std::optional<std::int64_t> {
        if (level) {
            return day.target_bp ? std::optional<std::int64_t>(*day.target_bp + offset) : std::nullopt;
        }
        return std::max<std::int64_t>(day.cdi_bp + spread, 1);
    };
    const auto convert = [&](std::int64_t annual_bp) {
        switch (spec.rate_per) {
            case RatePer::kDay:
                return DailyRateFromAnnual(annual_bp);
            case RatePer::kMonth:
                return MonthlyRateFromAnnual(annual_bp);
            case RatePer::kYear:
                break;
        }
        return annual_bp;
    };

    Series series;
    series.decimals = DecimalsOf(spec.rate_per);
    if (spec.frequency == Frequency::kDaily) {
        for (const ModelDay& day : model.Days()) {
            if (const auto rate = annual(day); rate && !(day.date < from)) {
                series.rows.push_back({day.date, convert(*rate)});
            }
        }
        return series;
    }

    const bool yearly = spec.frequency == Frequency::kYearly;
    const auto period_start = [&](const sdk::Month& month) {
        return yearly ? sdk::Date{month.year, 1, 1} : FirstOfMonth(month);
    };
    const auto complete = [&](const sdk::Month& month) {
        return yearly ? !(last_month < sdk::Month{month.year, 12}) : !(last_month < month);
    };
    if (!level && spec.rate_per == RatePer::kMonth) {
        // An inflation-like monthly rate: the IPCA's path with noise of its own.
        series.decimals = 2;
        std::map<sdk::Date, std::vector<std::int64_t>> periods;
        for (const ModelMonth& month : model.Months()) {
            if (month.month < from.ToMonth() || !complete(month.month)) {
                continue;
            }
            sample::Prng noise = sample::Prng::ForStream(seed, sample::StreamOf(spec.dataset + "/noise"),
                                                         static_cast<std::uint64_t>(MonthIndex(month.month)));
            periods[period_start(month.month)].push_back(month.ipca + noise.Between(-15, 15));
        }
        for (const auto& [start, values] : periods) {
            std::int64_t sum = 0;
            for (const std::int64_t value : values) {
                sum += value;
            }
            series.rows.push_back({start, sample::MulDiv(sum, 1, static_cast<std::int64_t>(values.size()))});
        }
        return series;
    }
    std::map<sdk::Date, std::pair<std::int64_t, std::int64_t>> periods;  // sum (or last), count
    for (const ModelDay& day : model.Days()) {
        const auto rate = annual(day);
        if (!rate || day.date < from || !complete(day.date.ToMonth())) {
            continue;
        }
        auto& [total, count] = periods[period_start(day.date.ToMonth())];
        total = level ? *rate : total + *rate;
        count = level ? 1 : count + 1;
    }
    for (const auto& [start, period] : periods) {
        series.rows.push_back({start, convert(sample::MulDiv(period.first, 1, period.second))});
    }
    return series;
}

// --- Windows ----------------------------------------------------------------------------------

sdk::Date AddYears(const sdk::Date& date, int years) {
    const int year = date.year + years;
    return {year, date.month, std::min(date.day, sdk::DaysInMonth(year, date.month))};
}

// From `first` to `reference` in consecutive windows of 10 years less a day, as SGS serves them.
std::vector<Window> FullWindows(const sdk::Date& first, const sdk::Date& reference) {
    std::vector<Window> windows;
    for (int k = 0;; ++k) {
        const sdk::Date from = AddYears(first, kWindowYears * k);
        if (reference < from) {
            break;
        }
        const sdk::Date to = sample::AddDays(AddYears(first, kWindowYears * (k + 1)), -1);
        windows.push_back({from, sample::Earlier(to, reference)});
    }
    return windows;
}

// From `first` to `reference` in 3 or 4 consecutive windows of distinct lengths, cut at days,
// months or years by the series' frequency, JSON and CSV in turn (odd codes start with CSV).
// The cuts split the periods that have data; the last window then runs to `reference`.
std::vector<Window> SampleWindows(const SeriesSpec& spec, std::uint64_t seed, const sdk::Date& first,
                                  const sdk::Month& last_month, const sdk::Date& reference) {
    sample::Prng rng = sample::Prng::ForStream(seed, sample::StreamOf(spec.dataset + "/windows"));
    std::int64_t units = 0;  // days, months or years
    switch (spec.frequency) {
        case Frequency::kDaily:
            units = sample::DayNumber(reference) - sample::DayNumber(first) + 1;
            break;
        case Frequency::kMonthly:
            units = MonthIndex(last_month) - MonthIndex(first.ToMonth()) + 1;
            break;
        case Frequency::kYearly:
            units = (last_month.month == 12 ? last_month.year : last_month.year - 1) - first.year + 1;
            break;
    }
    const std::int64_t count = std::min<std::int64_t>(3 + static_cast<std::int64_t>(rng.Below(2)), units);
    if (count <= 1) {
        return {{first, reference, true}};
    }
    // Distinct weights give distinct lengths.
    std::vector<std::int64_t> pool{2, 3, 4, 5, 6, 7, 8, 9};
    std::vector<std::int64_t> weights;
    for (std::int64_t i = 0; i < count; ++i) {
        const auto pick = static_cast<std::size_t>(rng.Below(pool.size()));
        weights.push_back(pool[pick]);
        pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(pick));
    }
    const std::vector<std::int64_t> lengths = sample::Allocate(units, weights);
    std::vector<Window> windows;
    std::int64_t at = 0;
    for (std::size_t i = 0; i < lengths.size(); ++i) {
        const std::int64_t end = at + lengths[i] - 1;
        Window window;
        switch (spec.frequency) {
            case Frequency::kDaily:
                window.first = sample::AddDays(first, at);
                window.last = sample::AddDays(first, end);
                break;
            case Frequency::kMonthly: {
                const int base = MonthIndex(first.ToMonth());
                const sdk::Month last = MonthAt(base + static_cast<int>(end));
                window.first = FirstOfMonth(MonthAt(base + static_cast<int>(at)));
                window.last = sample::LastDayOfMonth(last.year, last.month);
                break;
            }
            case Frequency::kYearly:
                window.first = {first.year + static_cast<int>(at), 1, 1};
                window.last = {first.year + static_cast<int>(end), 12, 31};
                break;
        }
        if (i + 1 == lengths.size()) {
            window.last = reference;
        }
        window.json = (static_cast<std::int64_t>(i) + spec.code) % 2 == 0;
        windows.push_back(window);
        at = end + 1;
    }
    return windows;
}

// --- Rendering --------------------------------------------------------------------------------

std::string SgsDate(const sdk::Date& date) {
    char text[16];
    std::snprintf(text, sizeof text, "%02d/%02d/%04d", date.day, date.month, date.year);
    return text;
}

std::string Compact(const sdk::Date& date) {
    char text[16];
    std::snprintf(text, sizeof text, "%04d%02d%02d", date.year, date.month, date.day);
    return text;
}

std::string ValueText(const Row& row, int decimals, char point) {
    std::string text = sample::Decimal(row.units, decimals);
    std::replace(text.begin(), text.end(), '.', point);
    return text;
}

// SGS's JSON: `[{"data":"02/01/2019","valor":"0.024620"},...]`, no line break, no newline at
// the end; or the same pretty-printed with two-space indents and a final newline.
std::string RenderJson(std::span<const Row> rows, int decimals, Style style) {
    std::string out = style == Style::kBom ? "\xEF\xBB\xBF[" : "[";
    const bool indented = style == Style::kIndented;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const std::string date = SgsDate(rows[i].date);
        const std::string value = ValueText(rows[i], decimals, '.');
        if (indented) {
            out += i == 0 ? "\n" : ",\n";
            out += "  {\n    \"data\": \"" + date + "\",\n    \"valor\": \"" + value + "\"\n  }";
        } else {
            out += i == 0 ? "" : ",";
            out += "{\"data\":\"" + date + "\",\"valor\":\"" + value + "\"}";
        }
    }
    out += indented ? "\n]\n" : "]";
    return out;
}

// SGS's `formato=csv`: every field quoted, ';', decimal comma, CRLF after every line.
std::string RenderCsv(std::span<const Row> rows, int decimals) {
    std::string out = "\"data\";\"valor\"\r\n";
    for (const Row& row : rows) {
        out += "\"" + SgsDate(row.date) + "\";\"" + ValueText(row, decimals, ',') + "\"\r\n";
    }
    return out;
}

std::span<const Row> RowsIn(const std::vector<Row>& rows, const Window& window) {
    const auto begin =
        std::lower_bound(rows.begin(), rows.end(), window.first,
                         [](const Row& row, const sdk::Date& date) { return row.date < date; });
    const auto end = std::upper_bound(rows.begin(), rows.end(), window.last,
                                      [](const sdk::Date& date, const Row& row) { return date < row.date; });
    return {rows.data() + (begin - rows.begin()), static_cast<std::size_t>(end - begin)};
}

std::string FileName(const SeriesSpec& spec, const Window& window) {
    return "bcdata.sgs." + std::to_string(spec.code) + "_" + Compact(window.first) + "_" +
           Compact(window.last) + (window.json ? ".json" : ".csv");
}

// Removes the SGS answers of these codes that an earlier run left in `dir` (other windows, another
// scale or seed): the ingest reads every file matching a dataset's pattern, so a stale window
// would mix two samples. Returns how many were removed.
std::size_t RemoveStaleAnswers(const std::filesystem::path& dir, const std::set<std::int64_t>& codes) {
    static const std::regex kAnswer(R"(bcdata\.sgs\.(\d{1,9})_\d{8}_\d{8}\.(json|csv))");
    std::error_code error;
    std::vector<std::filesystem::path> stale;
    for (std::filesystem::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
        const std::string name = it->path().filename().string();
        std::smatch match;
        if (std::regex_match(name, match, kAnswer) && codes.count(std::stoll(match[1].str())) &&
            it->is_regular_file()) {
            stale.push_back(it->path());
        }
    }
    if (error && error != std::errc::no_such_file_or_directory) {
        throw std::runtime_error(dir.string() + ": " + error.message());
    }
    for (const std::filesystem::path& path : stale) {
        if (!std::filesystem::remove(path, error) && error) {
            throw std::runtime_error(path.string() + ": " + error.message());
        }
    }
    return stale.size();
}

Window* FirstJson(std::vector<Window>& windows) {
    const auto it = std::find_if(windows.begin(), windows.end(), [](const Window& w) { return w.json; });
    return it == windows.end() ? nullptr : &*it;
}

}  // namespace
}  // namespace sgs_sample

SgsSampleWriter::SgsSampleWriter(std::vector<SeriesSpec> specs) : specs_(std::move(specs)) {}

sdk::SampleReport SgsSampleWriter::Write(const sdk::SampleRequest& request) {
    using namespace sgs_sample;
    const bool full = request.scale == sdk::SampleScale::kFull;
    const sdk::Date reference = kSgsSampleReferenceDate;
    sdk::Date last_day = sample::AddDays(reference, -1);
    while (!IsBusinessDay(last_day)) {
        last_day = sample::AddDays(last_day, -1);
    }
    const sdk::Month last_month = reference.ToMonth().Previous();
    const RateModel model(request.seed, last_day, last_month);

    sdk::SampleReport report;
    report.notes.push_back(
        std::string(full ? "full scale: each series from its first day at SGS"
                         : "sample scale: every series from " + kSgsSampleFirstDay.ToString()) +
        " to " + reference.ToString() + " (daily to " + last_day.ToString() + ", monthly to " +
        last_month.ToString() + "); " + std::to_string(model.TargetChanges()) +
        " Copom target changes since 1994-07");
    if (request.months) {
        report.notes.push_back(
            "--months " + std::to_string(*request.months) +
            " is not used: the series sample has a fixed span (plugins/series/docs/sample.md)");
    }

    // The published 11 and 12 over the whole model: 4390 and 4391 compound them. At scale
    // sample 11 has a gap (a business day without observation) and a published zero.
    std::vector<Row> selic_daily = DailyRows(model, Model::kSelicDaily, kModelFirstDay);
    const std::vector<Row> cdi_daily = DailyRows(model, Model::kCdiDaily, kModelFirstDay);
    std::optional<sdk::Date> gap_day;
    std::optional<sdk::Date> zero_day;
    if (!full) {
        sample::Prng rng = sample::Prng::ForStream(request.seed, sample::StreamOf("bcb.sgs.11/marks"));
        gap_day = NextBusinessDay(sample::RandomDate(rng, {2020, 1, 1}, {2022, 12, 31}));
        zero_day = NextBusinessDay(sample::RandomDate(rng, {2023, 1, 1}, {2026, 6, 30}));
        std::erase_if(selic_daily, [&](const Row& row) { return row.date == *gap_day; });
        for (Row& row : selic_daily) {
            if (row.date == *zero_day) {
                row.units = 0;
            }
        }
    }

    std::set<std::int64_t> codes;
    for (const SeriesSpec& spec : specs_) {
        codes.insert(spec.code);
    }
    if (const std::size_t removed = RemoveStaleAnswers(request.out_dir, codes); removed > 0) {
        report.notes.push_back("removed " + std::to_string(removed) + " SGS answers of an earlier sample");
    }
    sdk::sample::SampleDirectory out(request.out_dir, sample::ArchiveTimestamp(request.seed, reference));
    std::size_t observations = 0;
    for (const SeriesSpec& spec : specs_) {
        const KnownSeries* known = KnownOf(spec);
        const Model which = known ? known->model : Model::kGeneric;
        const sdk::Date first = full ? (known ? known->first_day : kGenericFirstDay) : kSgsSampleFirstDay;
        const auto from_first = [&](const std::vector<Row>& rows) {
            std::vector<Row> kept;
            std::copy_if(rows.begin(), rows.end(), std::back_inserter(kept),
                         [&](const Row& row) { return !(row.date < first); });
            return kept;
        };
        Series series;
        switch (which) {
            case Model::kSelicDaily:
                series = {6, from_first(selic_daily)};
                break;
            case Model::kCdiDaily:
                series = {6, from_first(cdi_daily)};
                break;
            case Model::kSelicTarget:
            case Model::kCdiAnnual:
                series = {2, DailyRows(model, which, first)};
                break;
            case Model::kIpca:
                series = {2, IpcaRows(model, first)};
                break;
            case Model::kSelicMonth:
                series = {2, MonthlyCompounded(selic_daily, first, last_month)};
                break;
            case Model::kCdiMonth:
                series = {2, MonthlyCompounded(cdi_daily, first, last_month)};
                break;
            case Model::kGeneric:
                series = GenericSeries(spec, model, request.seed, first, last_month);
                break;
        }

        std::vector<Window> windows = full ? FullWindows(first, reference)
                                           : SampleWindows(spec, request.seed, first, last_month, reference);
        const std::string name = "bcdata.sgs." + std::to_string(spec.code);
        if (!full) {
            sample::Prng rng =
                sample::Prng::ForStream(request.seed, sample::StreamOf(spec.dataset + "/marks"));
            Window* json = FirstJson(windows);
            if (which == Model::kCdiDaily && json != nullptr) {
                json->style = Style::kBom;
            }
            if (which == Model::kIpca && json != nullptr) {
                json->style = Style::kIndented;
            }
            if (which == Model::kCdiAnnual && json != nullptr) {
                // A day SGS published without a value: inside the window, not at its ends.
                const std::span<const Row> inside = RowsIn(series.rows, *json);
                if (inside.size() >= 3) {
                    const sdk::Date day = inside[1 + rng.Below(inside.size() - 2)].date;
                    for (Row& row : series.rows) {
                        if (row.date == day) {
                            row.units = std::nullopt;
                        }
                    }
                    report.notes.push_back(name + ": empty valor on " + day.ToString() + " (in " +
                                           FileName(spec, *json) + ")");
                }
            }
            if (which == Model::kCdiDaily && windows.size() >= 2) {
                // Two windows asked with overlapping dates: the shared days carry the same values.
                const std::int64_t first_length =
                    sample::DayNumber(windows[0].last) - sample::DayNumber(windows[0].first) + 1;
                const std::int64_t back = std::min<std::int64_t>(rng.Between(10, 40), first_length - 1);
                windows[1].first = sample::AddDays(windows[1].first, -back);
                const std::size_t shared = RowsIn(series.rows, {windows[1].first, windows[0].last}).size();
                report.notes.push_back(name + ": " + FileName(spec, windows[0]) + " and " +
                                       FileName(spec, windows[1]) + " overlap on " + std::to_string(shared) +
                                       " business days");
            }
            if (which == Model::kCdiDaily && json != nullptr) {
                report.notes.push_back(name + ": " + FileName(spec, *json) + " starts with a UTF-8 BOM");
            }
            if (which == Model::kSelicDaily) {
                report.notes.push_back(name + ": no observation on " + gap_day->ToString() +
                                       " (a gap), 0.000000 on " + zero_day->ToString());
            }
            if (which == Model::kIpca) {
                std::string negatives;
                for (const sdk::Month& month : model.NegativeIpcaMonths()) {
                    negatives += (negatives.empty() ? "" : ", ") + month.ToString();
                }
                report.notes.push_back(name + ": 0.00 in " + model.ZeroIpcaMonth().ToString() +
                                       ", negative in " + negatives +
                                       (json ? "; " + FileName(spec, *json) + " is indented" : ""));
            }
        }

        for (const Window& window : windows) {
            const std::span<const Row> rows = RowsIn(series.rows, window);
            if (rows.empty()) {
                continue;  // SGS answers 404 for a window without observations: no file
            }
            out.Write(FileName(spec, window), window.json ? RenderJson(rows, series.decimals, window.style)
                                                          : RenderCsv(rows, series.decimals));
            observations += rows.size();
        }
    }
    report.files = out.Files();
    report.counts = {
        {"series", specs_.size()}, {"files", report.files.size()}, {"observations", observations}};
    return report;
}

sdk::SampleReport SeriesSampleWriter::Write(const sdk::SampleRequest& request) {
    sdk::SampleReport report = sgs_.Write(request);
    sdk::SampleReport daily = daily_.Write(request);
    report.files.insert(report.files.end(), daily.files.begin(), daily.files.end());
    report.counts.insert(report.counts.end(), daily.counts.begin(), daily.counts.end());
    report.notes.insert(report.notes.end(), daily.notes.begin(), daily.notes.end());
    return report;
}

}  // namespace lastro::series
