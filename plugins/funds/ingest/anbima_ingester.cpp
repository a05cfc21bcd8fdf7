#include "ingest/anbima_ingester.hpp"
#include "ingest/field_text.hpp"

#include "funds_model-odb.hxx"
#include "funds_model.hxx"
#include "ingest/anbima_csv_reader.hpp"
#include "ingest/registry_rules.hpp"

#include <lastro/sdk/byte_source.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/uuid.hpp>

#include <odb/database.hxx>
#include <odb/result.hxx>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <filesystem>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace lastro::funds {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kProgressEvery = 5000;
constexpr std::size_t kColumns = 17;
constexpr std::size_t kMaxCodeLength = 20;

enum Column : std::size_t {
    kAnbimaCode,
    kClassCnpj,
    kFundCnpj,
    kCvmCode,
    kName,
    kStatus,
    kActivityStartedAt,
    kFirstSubscriptionAt,
    kCategory,
    kType,
    kFocus,
    kInvestorType,
    kInvestorCharacteristic,
    kOpeningShare,
    kAdaptedToRcvm175,
    kMinimumInitialSubscription,
    kRedemptionPaymentDays,
};

constexpr std::string_view kColumnNames[kColumns] = {"anbima_code",
                                                     "class_cnpj",
                                                     "fund_cnpj",
                                                     "cvm_code",
                                                     "name",
                                                     "status",
                                                     "activity_started_at",
                                                     "first_subscription_at",
                                                     "category",
                                                     "type",
                                                     "focus",
                                                     "investor_type",
                                                     "investor_characteristic",
                                                     "opening_share",
                                                     "adapted_to_rcvm_175",
                                                     "minimum_initial_subscription_brl",
                                                     "redemption_payment_days"};

// One line of the file, checked field by field.
class AnbimaRow {
public:
    explicit AnbimaRow(const AnbimaCsvReader& reader) : reader_(reader) {}

    AnbimaSubclass Parse() const {
        const auto& fields = reader_.Fields();
        if (fields.size() != kColumns) {
            throw sdk::IngestError(
                reader_.SourceName(), reader_.Line(),
                "expected " + std::to_string(kColumns) + " fields, found " + std::to_string(fields.size()));
        }
        AnbimaSubclass s;
        s.anbima_code = Code();
        s.subclass_id = AnbimaSubclassIdFor(s.anbima_code);
        s.class_cnpj = Cnpj(kClassCnpj);
        s.fund_cnpj = Cnpj(kFundCnpj);
        s.cvm_code = Text(kCvmCode);
        if (s.cvm_code && !AllDigits(*s.cvm_code)) {
            Fail(kCvmCode, "is not made of digits", *s.cvm_code);
        }
        s.name = Text(kName);
        s.status = Text(kStatus);
        s.activity_started_at = Date(kActivityStartedAt);
        s.first_subscription_at = Date(kFirstSubscriptionAt);
        s.category = Text(kCategory);
        s.type = Text(kType);
        s.focus = Text(kFocus);
        s.investor_type = Text(kInvestorType);
        s.investor_characteristic = Text(kInvestorCharacteristic);
        s.opening_share = OneOf(kOpeningShare, "Abertura", "Fechamento");
        s.adapted_to_rcvm_175 = OneOf(kAdaptedToRcvm175, "S", "N");
        s.minimum_initial_subscription = Decimal(kMinimumInitialSubscription);
        s.redemption_payment_days = Count(kRedemptionPaymentDays);
        return s;
    }

private:
    std::optional<std::string> Text(std::size_t column) const {
        std::string_view text = reader_.Fields()[column];
        while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
            text.remove_prefix(1);
        }
        while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) {
            text.remove_suffix(1);
        }
        return text.empty() ? std::nullopt : std::optional<std::string>(text);
    }

    std::string Code() const {
        auto code = Text(kAnbimaCode);
        if (!code) {
            Fail(kAnbimaCode, "is empty", "");
        }
        const bool allowed = std::all_of(code->begin(), code->end(), [](char c) {
            return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '-';
        });
        if (!allowed || code->size() > kMaxCodeLength) {
            Fail(kAnbimaCode, "is not 1 to 20 characters of 0-9, A-Z, a-z and '-'", *code);
        }
        return *code;
    }

    std::string Cnpj(std::size_t column) const {
        auto text = Text(column);
        if (!text) {
            Fail(column, "is empty", "");
        }
        auto parsed = sdk::ParseCnpj(*text);
        if (!parsed.digits) {
            Fail(column, "is not a valid CNPJ", *text);
        }
        return *parsed.digits;
    }

    std::optional<std::string> Date(std::size_t column) const {
        auto text = Text(column);
        if (text && !sdk::Date::Parse(*text)) {
            Fail(column, "is not a YYYY-MM-DD date", *text);
        }
        return text;
    }

    std::optional<std::string> OneOf(std::size_t column, std::string_view first,
                                     std::string_view second) const {
        auto text = Text(column);
        if (text && *text != first && *text != second) {
            Fail(column, "is not " + std::string(first) + " or " + std::string(second), *text);
        }
        return text;
    }

    // A plain non-negative decimal: digits, optionally a point and more digits.
    std::optional<double> Decimal(std::size_t column) const {
        auto text = Text(column);
        if (!text) {
            return std::nullopt;
        }
        const std::size_t point = text->find('.');
        const bool plain =
            AllDigits(std::string_view(*text).substr(0, point)) &&
            (point == std::string::npos || AllDigits(std::string_view(*text).substr(point + 1)));
        double value = 0;
        const char* end = text->data() + text->size();
        const auto [ptr, error] = std::from_chars(text->data(), end, value, std::chars_format::fixed);
        if (!plain || error != std::errc() || ptr != end || !std::isfinite(value)) {
            Fail(column, "is not a plain decimal such as 1000.00", *text);
        }
        return value;
    }

    std::optional<std::int64_t> Count(std::size_t column) const {
        auto text = Text(column);
        if (!text) {
            return std::nullopt;
        }
        std::int64_t value = 0;
        const char* end = text->data() + text->size();
        const auto [ptr, error] = std::from_chars(text->data(), end, value);
        if (!AllDigits(*text) || error != std::errc() || ptr != end) {
            Fail(column, "is not a non-negative integer", *text);
        }
        return value;
    }

    [[noreturn]] void Fail(std::size_t column, const std::string& problem, std::string_view value) const {
        throw sdk::IngestError(
            reader_.SourceName(), reader_.Line(),
            std::string(kColumnNames[column]) + " " + problem + (value.empty() ? "" : ": " + Quoted(value)));
    }

    const AnbimaCsvReader& reader_;
};

auto Fields(const AnbimaSubclass& s) {
    return std::tie(s.subclass_id, s.anbima_code, s.class_cnpj, s.fund_cnpj, s.cvm_code, s.name, s.status,
                    s.activity_started_at, s.first_subscription_at, s.category, s.type, s.focus,
                    s.investor_type, s.investor_characteristic, s.opening_share, s.adapted_to_rcvm_175,
                    s.minimum_initial_subscription, s.redemption_payment_days);
}

// The file's modification date (local calendar): the day the operator exported the snapshot.
std::string FileDate(const fs::path& path, std::time_t fallback) {
    std::time_t time = fallback;
    std::error_code error;
    const auto written = fs::last_write_time(path, error);
    if (!error) {
        time =
            std::chrono::system_clock::to_time_t(std::chrono::clock_cast<std::chrono::system_clock>(written));
    }
    std::tm parts{};
    localtime_r(&time, &parts);
    char text[16];
    std::strftime(text, sizeof text, "%Y-%m-%d", &parts);
    return text;
}

}  // namespace

std::string AnbimaSubclassIdFor(std::string_view anbima_code) {
    return sdk::UuidV5(kFundsNamespace, "anbima:" + std::string(anbima_code));
}

sdk::IngestSummary AnbimaIngester::Run(const sdk::IngestContext& context) {
    if (context.inputs.size() != 1) {
        throw sdk::IngestError("anbima.subclasses", 0,
                               "give exactly one file, anbima_subclasses.csv (given " +
                                   std::to_string(context.inputs.size()) + ")");
    }
    const fs::path& path = context.inputs.front();
    AnbimaCsvReader reader(sdk::OpenFile(path));
    context.progress.Stage(reader.SourceName());
    if (reader.HeaderLine() != kAnbimaHeader) {
        throw sdk::IngestError(reader.SourceName(), 1,
                               "the header must be exactly: " + std::string(kAnbimaHeader));
    }

    std::unordered_map<std::string, std::pair<AnbimaSubclass, bool>> stored;  // id -> (row, seen)
    {
        odb::result<AnbimaSubclass> rows(context.db.query<AnbimaSubclass>());
        for (const AnbimaSubclass& row : rows) {
            stored.emplace(row.subclass_id, std::make_pair(row, false));
        }
    }

    sdk::IngestSummary summary;
    std::unordered_map<std::string, std::size_t> line_of_code;
    const AnbimaRow row(reader);
    while (reader.Next()) {
        if (++summary.rows_read % kProgressEvery == 0) {
            context.progress.Rows(summary.rows_read);
        }
        const AnbimaSubclass subclass = row.Parse();
        if (auto [it, is_new] = line_of_code.try_emplace(subclass.anbima_code, reader.Line()); !is_new) {
            throw sdk::IngestError(reader.SourceName(), reader.Line(),
                                   "anbima_code " + subclass.anbima_code + " appears on lines " +
                                       std::to_string(it->second) + " and " + std::to_string(reader.Line()));
        }
        auto existing = stored.find(subclass.subclass_id);
        if (existing == stored.end()) {
            context.db.persist(subclass);
            ++summary.inserted;
            continue;
        }
        existing->second.second = true;
        if (Fields(existing->second.first) == Fields(subclass)) {
            ++summary.unchanged;
        } else {
            context.db.update(subclass);
            ++summary.updated;
        }
    }
    // A full snapshot: codes it no longer lists go.
    for (const auto& [id, entry] : stored) {
        if (!entry.second) {
            context.db.erase<AnbimaSubclass>(id);
            ++summary.removed;
        }
    }

    const std::string date = FileDate(path, context.now);
    summary.release_label = "anbima-subclasses-" + date;
    summary.as_of = date;
    return summary;
}

}  // namespace lastro::funds
