// The sample of CVM's daily fund reports, cvm.inf_diario_fi (docs/sample.md, "CVM's daily fund
// reports"): one inf_diario_fi_YYYYMM.zip per month with its one CSV member, in CVM's format and
// both header eras, the quotas built on the CDI of the SGS sample (sample/sgs_model.hpp), and at
// scale sample the cases the service must survive: a duplicate filer, a gap, the last month's
// publication lag, a republished month, subclasses, drawdowns, funds that start and stop.
// The series plugin's SampleWriter composes it with SgsSampleWriter.
#pragma once

#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/sample.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace lastro::series {

// The day the files are written: the funds sample's and the SGS sample's reference date. The last
// month (scale sample) runs to the business day before it and lacks the reports still to come.
inline constexpr sdk::Date kInfDiarioReferenceDate{2026, 10, 14};
// The first month in RCVM 175's layout (TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;ID_SUBCLASSE;...): an
// invented switch, the months before have the legacy header.
inline constexpr sdk::Month kInfDiarioSwitchMonth{2025, 6};
// Months written when SampleRequest::months is not given: scale sample ends at the reference
// month (2026-10, partial), scale full at the one before (2026-09).
inline constexpr int kInfDiarioSampleMonths = 24;
inline constexpr int kInfDiarioFullMonths = 1;
// Scale full: series a month (real January 2024: 567,668 rows in 21 business days).
inline constexpr std::size_t kInfDiarioFullSeries = 27'000;
// Where the later version of the republished month goes, under the output directory (the ingest
// of `lastro ingest --sample` reads the directory's own files only).
inline constexpr const char* kInfDiarioRepublishedDir = "republished";

struct InfDiarioFundDay {
    std::string cnpj;      // masked, as in the file
    std::string subclass;  // ID_SUBCLASSE; empty for the class's own series
    sdk::Date day;
};

struct InfDiarioLagDay {
    sdk::Date day;
    int lag = 0;               // business days from the day to the reference day
    std::size_t filed = 0;     // funds and classes with rows that day
    std::size_t expected = 0;  // funds and classes alive that day
};

// The cases planted at scale sample (docs/sample.md), for the report, the tests and end-to-end
// tests. A case whose days fall outside the months asked is absent (nullopt or empty); scale
// full plants none.
struct InfDiarioSampleCases {
    // Filed twice on each business day of duplicate_months: as CLASSES - FIF (the true row) and
    // as FI (VL_QUOTA cut to 8 decimals, VL_TOTAL and VL_PATRIM_LIQ R$ 10 to 500 lower).
    std::optional<std::string> duplicate_cnpj;
    std::vector<sdk::Month> duplicate_months;
    // A DI fund that does not file one business day in mid-month (every other fund does).
    std::optional<InfDiarioFundDay> gap;
    // VL_QUOTA printed with 6 decimals on every row (the others: 12).
    std::optional<std::string> short_quota_cnpj;
    // NR_COTST blank on these days.
    std::optional<std::string> blank_investors_cnpj;
    std::vector<sdk::Date> blank_investor_days;
    // Classes that file per subclass (2 or 3 each) from the month in subclass_months (same order).
    std::vector<std::string> subclass_cnpjs;
    std::vector<sdk::Month> subclass_months;
    // Equity funds: a fall of about 45 % that is recovered before recovered_by, and a fall of
    // about 50 % never recovered.
    std::optional<std::string> recovering_drawdown_cnpj;
    std::optional<std::string> lasting_drawdown_cnpj;
    // Starts filing inside the window (quota 1.0, its capital as the first day's CAPTC_DIA).
    std::optional<InfDiarioFundDay> late_start;
    // Stops filing (cancelled) on this day, after weeks of redemptions.
    std::optional<InfDiarioFundDay> cancelled;
    // The CNPJs whose every series earns 85-110 % of each day's CDI (DI and fixed income), and
    // the equity (ETFs excluded) and multimarket funds, each list in CNPJ order.
    std::vector<std::string> cdi_cnpjs;
    std::vector<std::string> equity_cnpjs;
    std::vector<std::string> multimarket_cnpjs;
    // Funds filing as FI after the switch: adapted late (to CLASSES - FIF) or never.
    std::vector<std::string> fi_after_switch_cnpjs;
    // The last month's publication lag: its days 1 to 6 business days before the reference day
    // (at lag 6 every fund is in).
    std::vector<InfDiarioLagDay> lag_days;
    // republished/inf_diario_fi_<month>.zip, a later version of the month: VL_QUOTA,
    // VL_PATRIM_LIQ and VL_TOTAL of `changed_values` (the first version had them 0.5 % high),
    // NR_COTST of `changed_investors`, `added` is only in the later version (a late report),
    // `removed` only in the first.
    std::optional<sdk::Month> republished_month;
    std::vector<InfDiarioFundDay> changed_values;
    std::optional<InfDiarioFundDay> changed_investors;
    std::optional<InfDiarioFundDay> added;
    std::optional<InfDiarioFundDay> removed;
};

// Not an sdk::SampleWriter of its own: the plugin's writer calls it beside SgsSampleWriter.
class InfDiarioSampleWriter {
public:
    // Writes inf_diario_fi_YYYYMM.zip for each month of the window into request.out_dir (and,
    // at scale sample, republished/inf_diario_fi_202609.zip), first removing the files of this
    // dataset an earlier run left there for other months. The same seed, scale and months give
    // the same bytes. Throws std::invalid_argument for months outside 1..sdk::kMaxSampleMonths,
    // std::runtime_error naming the path on I/O failure.
    sdk::SampleReport Write(const sdk::SampleRequest& request);

    // The cases of the last Write.
    const InfDiarioSampleCases& Cases() const { return cases_; }

private:
    InfDiarioSampleCases cases_;
};

}  // namespace lastro::series
