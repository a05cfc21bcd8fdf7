#include "ingest/anbima_subclasses/anbima_ingester.hpp"

#include "domain/registry/registry_rules.hpp"
#include "funds_model-odb.hxx"
#include "funds_model.hxx"

#include <lastro/sdk/byte_source.hpp>
#include <lastro/sdk/ingest/csv.hpp>
#include <lastro/sdk/ingest/inputs.hpp>
#include <lastro/sdk/ingest/progress.hpp>
#include <lastro/sdk/ingest/snapshot.hpp>
#include <lastro/sdk/ingest/values.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/uuid.hpp>

#include <odb/database.hxx>
#include <odb/result.hxx>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <unordered_map>

namespace lastro::funds {

namespace {

namespace fs = std::filesystem;
using namespace anbima_column;

constexpr std::size_t kMaxCodeLength = 20;

// The layout is ours: UTF-8, ';', decimals with a point, dates YYYY-MM-DD.
constexpr sdk::CsvFormat kAnbimaFormat{sdk::TextEncoding::kUtf8};

// One line of the file, checked field by field; the header is exactly kAnbimaColumns, so the
// fields' positions are the columns'.
class AnbimaRow {
public:
    explicit AnbimaRow(const sdk::CsvReader& reader) : reader_(reader) {}

    AnbimaSubclass Parse() const {
        reader_.RequireFieldCount();
        AnbimaSubclass s;
        s.anbima_code = Code();
        s.subclass_id = AnbimaSubclassIdFor(s.anbima_code);
        s.class_cnpj = Cnpj(kClassCnpj);
        s.fund_cnpj = Cnpj(kFundCnpj);
        s.cvm_code = reader_.Text(kCvmCode);
        if (s.cvm_code && !sdk::AllDigits(*s.cvm_code)) {
            reader_.Fail(kCvmCode, "is not made of digits", *s.cvm_code);
        }
        s.name = reader_.Text(kName);
        s.status = reader_.Text(kStatus);
        s.activity_started_at = reader_.IsoDate(kActivityStartedAt);
        s.first_subscription_at = reader_.IsoDate(kFirstSubscriptionAt);
        s.category = reader_.Text(kCategory);
        s.type = reader_.Text(kType);
        s.focus = reader_.Text(kFocus);
        s.investor_type = reader_.Text(kInvestorType);
        s.investor_characteristic = reader_.Text(kInvestorCharacteristic);
        s.opening_share = OneOf(kOpeningShare, "Abertura", "Fechamento");
        s.adapted_to_rcvm_175 = OneOf(kAdaptedToRcvm175, "S", "N");
        s.minimum_initial_subscription = reader_.Decimal(kMinimumInitialSubscription, sdk::Sign::kNonNegative,
                                                         "a plain decimal such as 1000.00");
        s.redemption_payment_days =
            reader_.Integer(kRedemptionPaymentDays, sdk::Sign::kNonNegative, "a non-negative integer");
        return s;
    }

private:
    std::string Code() const {
        const std::string code = reader_.RequiredText(kAnbimaCode);
        const bool allowed = std::all_of(code.begin(), code.end(), [](char c) {
            return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '-';
        });
        if (!allowed || code.size() > kMaxCodeLength) {
            reader_.Fail(kAnbimaCode, "is not 1 to 20 characters of 0-9, A-Z, a-z and '-'", code);
        }
        return code;
    }

    std::string Cnpj(std::size_t column) const {
        auto cnpj = reader_.Cnpj(column);
        if (!cnpj) {
            reader_.Fail(column, "is empty");
        }
        return *cnpj;
    }

    std::optional<std::string> OneOf(std::size_t column, std::string_view first,
                                     std::string_view second) const {
        auto text = reader_.Text(column);
        if (text && *text != first && *text != second) {
            reader_.Fail(column, "is not " + std::string(first) + " or " + std::string(second), *text);
        }
        return text;
    }

    const sdk::CsvReader& reader_;
};

std::uint64_t Fingerprint(const AnbimaSubclass& s) {
    return sdk::FingerprintOf(s.subclass_id, s.anbima_code, s.class_cnpj, s.fund_cnpj, s.cvm_code, s.name,
                              s.status, s.activity_started_at, s.first_subscription_at, s.category, s.type,
                              s.focus, s.investor_type, s.investor_characteristic, s.opening_share,
                              s.adapted_to_rcvm_175, s.minimum_initial_subscription,
                              s.redemption_payment_days);
}

}  // namespace

std::string AnbimaSubclassIdFor(std::string_view anbima_code) {
    return sdk::UuidV5(kFundsNamespace, "anbima:" + std::string(anbima_code));
}

sdk::IngestSummary AnbimaIngester::Run(const sdk::IngestContext& context) {
    if (context.inputs.size() != 1) {
        throw sdk::IngestError("anbima.subclasses", 0,
                               "give exactly one file, " + std::string(kAnbimaFileName) + " (given " +
                                   std::to_string(context.inputs.size()) + ")");
    }
    const fs::path& path = context.inputs.front();
    sdk::IngestSummary summary;
    sdk::RowCounter rows(context.progress, summary);
    sdk::CsvReader reader(sdk::OpenFile(path), kAnbimaFormat);
    rows.Stage(reader.SourceName());
    reader.RequireHeader(kAnbimaColumns);

    odb::database& db = context.db;
    sdk::SnapshotApplier<AnbimaSubclass> snapshot(
        summary,
        {[&db](const AnbimaSubclass& s) { db.persist(s); }, [&db](const AnbimaSubclass& s) { db.update(s); },
         [&db](const std::string& id) { db.erase<AnbimaSubclass>(id); }});
    {
        odb::result<AnbimaSubclass> stored(db.query<AnbimaSubclass>());
        for (const AnbimaSubclass& row : stored) {
            snapshot.AddStored(row.subclass_id, Fingerprint(row));
        }
    }

    std::unordered_map<std::string, std::size_t> line_of_code;
    const AnbimaRow row(reader);
    while (reader.Next()) {
        rows.Row();
        const AnbimaSubclass subclass = row.Parse();
        if (auto [it, is_new] = line_of_code.try_emplace(subclass.anbima_code, reader.Line()); !is_new) {
            throw sdk::IngestError(reader.SourceName(), reader.Line(),
                                   "anbima_code " + subclass.anbima_code + " appears on lines " +
                                       std::to_string(it->second) + " and " + std::to_string(reader.Line()));
        }
        snapshot.Apply(subclass.subclass_id, subclass, Fingerprint(subclass));
    }
    // A full snapshot: codes it no longer lists go.
    snapshot.RemoveUnseen();

    // The file's modification date (local calendar): the day the operator exported the snapshot.
    const std::string date = sdk::LocalDate(sdk::FileModifiedAt(path).value_or(context.now));
    summary.release_label = "anbima-subclasses-" + date;
    summary.as_of = date;
    return summary;
}

}  // namespace lastro::funds
