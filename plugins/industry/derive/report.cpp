#include "derive/report.hpp"

#include <lastro/sdk/ingest/values.hpp>

#include <stdexcept>
#include <string>
#include <unordered_map>

namespace lastro::industry {
namespace {

const std::unordered_map<std::string_view, std::size_t>& ColumnIndex() {
    static const std::unordered_map<std::string_view, std::size_t> index = [] {
        std::unordered_map<std::string_view, std::size_t> out;
        for (std::size_t i = 0; i < kReportColumns.size(); ++i) {
            out.emplace(kReportColumns[i], i);
        }
        return out;
    }();
    return index;
}

}  // namespace

Report ReadReport(const funds::FidcReportDetail& detail) {
    Report report;
    report.fact = detail.fact;
    report.largest_debtors = detail.largest_debtors;
    report.segments = detail.segments;
    report.bands = detail.bands;
    report.series = detail.series;
    report.operations = detail.operations;
    for (std::size_t i = 0; i < report.columns.size() && i < detail.published.size(); ++i) {
        if (!detail.published[i]) {
            continue;
        }
        const auto parsed = sdk::ParseDecimal(*detail.published[i]);
        if (parsed.status == sdk::ValueStatus::kValue) {
            report.columns[i] = parsed.value;
        }
    }
    return report;
}

const std::vector<std::string>& ReportColumnNames() {
    static const std::vector<std::string> names(kReportColumns.begin(), kReportColumns.end());
    return names;
}

Report ReadFact(const funds::FidcMonthlyFact& fact) {
    Report report;
    report.fact = fact;
    return report;
}

std::optional<double> Published(const Report& report, std::string_view column) {
    const auto& index = ColumnIndex();
    const auto found = index.find(column);
    if (found == index.end()) {
        throw std::logic_error("column " + std::string(column) +
                               " is not one the aggregates read (kReportColumns)");
    }
    return report.columns[found->second];
}

}  // namespace lastro::industry
