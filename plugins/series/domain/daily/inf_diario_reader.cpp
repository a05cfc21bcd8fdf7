// Reading CVM's daily fund report (inf_diario_reader.hpp): the layout told by the header, then one
// record at a time, checked field by field without exceptions (a month has ~570k records, and a
// file whose every record is bad must still read quickly), the strings of the caller's row reused.
#include "domain/daily/inf_diario_reader.hpp"

#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/ingest/values.hpp>
#include <lastro/sdk/problem.hpp>

#include <array>
#include <cstdint>
#include <utility>

namespace lastro::series {
namespace {

constexpr std::size_t kMaxIntegerDigits = 24;
constexpr std::size_t kMaxDecimals = 16;
// More shareholders than that is not a count but a value in the wrong column.
constexpr std::int64_t kMaxInvestors = 1'000'000'000'000;

constexpr std::size_t kShownBytes = 60;

bool IsDigit(char c) {
    return c >= '0' && c <= '9';
}

// A value echoed in a message: quoted and cut at 60 bytes (one field cannot flood it) on a
// character boundary, so the message stays UTF-8.
std::string Shown(std::string_view value) {
    if (value.size() <= kShownBytes) {
        return "'" + std::string(value) + "'";
    }
    std::size_t cut = kShownBytes;
    while (cut > 0 && (static_cast<unsigned char>(value[cut]) & 0xC0) == 0x80) {
        --cut;
    }
    return "'" + std::string(value.substr(0, cut)) + "...'";
}

}  // namespace

bool IsPublishedDecimal(std::string_view text) {
    std::size_t i = !text.empty() && text.front() == '-' ? 1 : 0;
    const std::size_t integer_start = i;
    while (i < text.size() && IsDigit(text[i])) {
        ++i;
    }
    const std::size_t integer_digits = i - integer_start;
    if (integer_digits == 0 || integer_digits > kMaxIntegerDigits) {
        return false;
    }
    if (i == text.size()) {
        return true;
    }
    if (text[i] != '.') {
        return false;
    }
    const std::size_t fraction_start = ++i;
    while (i < text.size() && IsDigit(text[i])) {
        ++i;
    }
    const std::size_t decimals = i - fraction_start;
    return i == text.size() && decimals > 0 && decimals <= kMaxDecimals;
}

InfDiarioReader::InfDiarioReader(std::unique_ptr<sdk::ByteSource> source) : csv_(std::move(source)) {
    // The layout, by the columns that name the fund (RequireAny's message for a header with none:
    // "missing column CNPJ_FUNDO_CLASSE (or CNPJ_FUNDO)").
    if (const auto class_cnpj = csv_.Find("CNPJ_FUNDO_CLASSE")) {
        layout_ = DailyReportLayout::kClasses;
        cnpj_ = *class_cnpj;
        fund_type_ = csv_.RequireAny({"TP_FUNDO_CLASSE", "TP_FUNDO"});
    } else if (csv_.Find("TP_FUNDO_CLASSE")) {
        (void)csv_.Require("CNPJ_FUNDO_CLASSE");  // the classes' type without their CNPJ: refused
    } else if (const auto legacy_type = csv_.Find("TP_FUNDO")) {
        layout_ = DailyReportLayout::kLegacy;
        cnpj_ = csv_.Require("CNPJ_FUNDO");
        fund_type_ = legacy_type;
    } else {
        layout_ = DailyReportLayout::kEarly;
        cnpj_ = csv_.RequireAny({"CNPJ_FUNDO_CLASSE", "CNPJ_FUNDO"});
    }
    subclass_ = csv_.Find("ID_SUBCLASSE");

    // Every value column, each missing one named at once.
    const std::array<std::pair<std::string_view, std::size_t*>, 7> columns{{
        {"DT_COMPTC", &day_},
        {"VL_TOTAL", &total_},
        {"VL_QUOTA", &quota_},
        {"VL_PATRIM_LIQ", &net_worth_},
        {"CAPTC_DIA", &subscriptions_},
        {"RESG_DIA", &redemptions_},
        {"NR_COTST", &investors_},
    }};
    std::string missing;
    std::size_t missing_count = 0;
    for (const auto& [name, index] : columns) {
        if (const auto found = csv_.Find(name)) {
            *index = *found;
        } else {
            missing += (missing.empty() ? "" : ", ") + std::string(name);
            ++missing_count;
        }
    }
    if (missing_count > 0) {
        throw sdk::IngestError(SourceName(), 1,
                               (missing_count == 1 ? "missing column " : "missing columns ") + missing);
    }
}

ReadOutcome InfDiarioReader::Next(DailyReportRow& row, std::string& problem) {
    if (!csv_.Next()) {
        return ReadOutcome::kEnd;
    }
    row.line = csv_.Line();
    if (const std::optional<std::string> count = csv_.FieldCountProblem()) {
        problem.assign("line ").append(std::to_string(row.line)).append(": ").append(*count);
        return ReadOutcome::kRejected;
    }

    if (fund_type_) {
        row.fund_type.assign(sdk::TrimBlanks(csv_.Field(*fund_type_)));
    } else {
        row.fund_type.clear();
    }

    const std::string_view cnpj = sdk::TrimBlanks(csv_.Field(cnpj_));
    if (cnpj.empty()) {
        Reject(problem, cnpj_, "is empty");
        return ReadOutcome::kRejected;
    }
    sdk::CnpjParse parsed_cnpj = sdk::ParseCnpj(cnpj);  // the check digits too, as CsvReader::Cnpj
    if (!parsed_cnpj.digits) {
        Reject(problem, cnpj_, "is not a valid CNPJ", cnpj);
        return ReadOutcome::kRejected;
    }
    row.cnpj.assign(*parsed_cnpj.digits);

    if (subclass_) {
        row.subclass.assign(sdk::TrimBlanks(csv_.Field(*subclass_)));
    } else {
        row.subclass.clear();
    }

    const sdk::Parsed<sdk::Date> day = sdk::ParseDate(csv_.Field(day_), sdk::DateFormat::kIso);
    if (day.status != sdk::ValueStatus::kValue) {
        if (day.status == sdk::ValueStatus::kEmpty) {
            Reject(problem, day_, "is empty");
        } else {
            Reject(problem, day_, "is not a YYYY-MM-DD date", sdk::TrimBlanks(csv_.Field(day_)));
        }
        return ReadOutcome::kRejected;
    }
    row.day = day.value;

    if (!ReadDecimal(total_, row.total, problem) || !ReadDecimal(quota_, row.quota, problem) ||
        !ReadDecimal(net_worth_, row.net_worth, problem) ||
        !ReadDecimal(subscriptions_, row.subscriptions, problem) ||
        !ReadDecimal(redemptions_, row.redemptions, problem)) {
        return ReadOutcome::kRejected;
    }

    const std::string_view investors = sdk::TrimBlanks(csv_.Field(investors_));
    if (investors.empty()) {
        row.investors.reset();
    } else {
        const sdk::Parsed<std::int64_t> count = sdk::ParseInteger(investors, sdk::Sign::kNonNegative);
        if (count.status != sdk::ValueStatus::kValue) {
            Reject(problem, investors_, "is not a non-negative integer", investors);
            return ReadOutcome::kRejected;
        }
        if (count.value > kMaxInvestors) {
            Reject(problem, investors_, "is larger than 10^12", investors);
            return ReadOutcome::kRejected;
        }
        row.investors = count.value;
    }
    return ReadOutcome::kRow;
}

bool InfDiarioReader::ReadDecimal(std::size_t column, std::optional<std::string>& value,
                                  std::string& problem) const {
    const std::string_view text = sdk::TrimBlanks(csv_.Field(column));
    if (text.empty()) {
        value.reset();
        return true;
    }
    if (!IsPublishedDecimal(text)) {
        Reject(problem, column, "is not a decimal number", text);
        return false;
    }
    if (value) {
        value->assign(text);  // the string's buffer reused
    } else {
        value.emplace(text);
    }
    return true;
}

// "line 12: COLUMN what[: 'value']", as sdk::FieldError::Reason() words a malformed value.
void InfDiarioReader::Reject(std::string& problem, std::size_t column, std::string_view what,
                             std::optional<std::string_view> value) const {
    problem.assign("line ").append(std::to_string(csv_.Line())).append(": ");
    problem.append(csv_.Header()[column]).append(" ").append(what);
    if (value) {
        problem.append(": ").append(Shown(*value));
    }
}

}  // namespace lastro::series
