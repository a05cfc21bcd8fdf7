#include "sample/inf_diario/daily_csv.hpp"

#include <cstdint>
#include <cstdio>

namespace lastro::series::inf_diario {
namespace {

// The rows are written with these instead of snprintf: the full scale prints ~3.5 million
// numbers a month.
void AppendUnsigned(std::string& out, std::uint64_t value) {
    char digits[24];
    char* end = digits + sizeof digits;
    char* at = end;
    do {
        *--at = static_cast<char>('0' + value % 10);
        value /= 10;
    } while (value != 0);
    out.append(at, static_cast<std::size_t>(end - at));
}

// `units` of 10^-`decimals` with exactly `decimals` decimals: 4427558800000000 with 14 would be
// "44.27558800000000"; negative values get a '-'.
void AppendDecimal(std::string& out, std::int64_t units, int decimals) {
    std::uint64_t magnitude = static_cast<std::uint64_t>(units);
    if (units < 0) {
        out.push_back('-');
        magnitude = static_cast<std::uint64_t>(-(units + 1)) + 1;
    }
    std::uint64_t scale = 1;
    for (int i = 0; i < decimals; ++i) {
        scale *= 10;
    }
    AppendUnsigned(out, magnitude / scale);
    if (decimals == 0) {
        return;
    }
    out.push_back('.');
    char digits[24];
    std::uint64_t fraction = magnitude % scale;
    for (int i = decimals - 1; i >= 0; --i) {
        digits[i] = static_cast<char>('0' + fraction % 10);
        fraction /= 10;
    }
    out.append(digits, static_cast<std::size_t>(decimals));
}

// A quota held in 1e-12 printed with `decimals` decimals (the value is a multiple of the quantum).
void AppendQuota(std::string& out, std::int64_t quota, int decimals) {
    std::int64_t divisor = 1;
    for (int i = decimals; i < 12; ++i) {
        divisor *= 10;
    }
    AppendDecimal(out, quota / divisor, decimals);
}

}  // namespace

std::string MonthFileStem(const sdk::Month& month) {
    char text[32];
    std::snprintf(text, sizeof text, "inf_diario_fi_%04d%02d", month.year, month.month);
    return text;
}

std::string RenderMonth(const sdk::Month& month, std::span<const DailyRow> rows, const Universe& universe,
                        const Calendar& calendar) {
    const bool legacy = month < kSwitchMonth;
    std::string out;
    out.reserve(128 + rows.size() * 112);
    out.append(legacy ? kLegacyHeader : kClassHeader);
    out.push_back('\n');
    for (const DailyRow& row : rows) {
        const Fund& fund = universe.funds[row.fund];
        out.append(TypeLabel(row.type));
        out.push_back(';');
        out.append(fund.cnpj);
        out.push_back(';');
        if (!legacy) {
            out.append(fund.series[row.series].subclass);
            out.push_back(';');
        }
        out.append(calendar.texts[static_cast<std::size_t>(row.day)]);
        out.push_back(';');
        AppendDecimal(out, row.total, 2);
        out.push_back(';');
        AppendQuota(out, row.quota, fund.printed_decimals);
        out.push_back(';');
        AppendDecimal(out, row.net_worth, 2);
        out.push_back(';');
        AppendDecimal(out, row.subscriptions, 2);
        out.push_back(';');
        AppendDecimal(out, row.redemptions, 2);
        out.push_back(';');
        if (!row.blank_investors) {
            AppendUnsigned(out, static_cast<std::uint64_t>(row.investors));
        }
        out.push_back('\n');
    }
    return out;
}

}  // namespace lastro::series::inf_diario
