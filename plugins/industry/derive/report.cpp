#include "derive/report.hpp"

#include <limits>
#include <stdexcept>
#include <string>

namespace lastro::industry {
namespace {

constexpr std::size_t kNotRead = std::numeric_limits<std::size_t>::max();

// The position of every funds field in kReportFields, or kNotRead.
constexpr std::array<std::size_t, funds::kFidcFieldCount> kPositions = [] {
    std::array<std::size_t, funds::kFidcFieldCount> positions{};
    positions.fill(kNotRead);
    for (std::size_t i = 0; i < kReportFields.size(); ++i) {
        positions[funds::FieldIndex(kReportFields[i])] = i;
    }
    return positions;
}();

}  // namespace

Report ReadReport(const funds::FidcReportDetail& detail) {
    Report report;
    report.fact = detail.fact;
    report.largest_debtors = detail.largest_debtors;
    report.segments = detail.segments;
    report.bands = detail.bands;
    report.series = detail.series;
    report.operations = detail.operations;
    for (std::size_t i = 0; i < report.fields.size() && i < detail.fields.size(); ++i) {
        report.fields[i] = detail.fields[i];
    }
    return report;
}

Report ReadFact(const funds::FidcMonthlyFact& fact) {
    Report report;
    report.fact = fact;
    return report;
}

std::optional<double> Published(const Report& report, funds::FidcField field) {
    const std::size_t position = kPositions[funds::FieldIndex(field)];
    if (position == kNotRead) {
        throw std::logic_error("field " + std::string(funds::ColumnName(field)) +
                               " is not one the aggregates read (kReportFields)");
    }
    return report.fields[position];
}

}  // namespace lastro::industry
