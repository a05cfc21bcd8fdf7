// One ingest of B3's corporate actions: every file read first (a bad one refuses the ingest before
// anything is written), the files paired by issuer, the events built per issuer and upserted.
// An event already stored keeps its first_seen_at; the records of a source it is given again
// replace that source's, the other source's stay (a cash event seen in GetListedCashDividends
// last month and in the supplement now keeps both), and its columns are rebuilt from both.
#include "ingest/corporate_actions/corporate_actions_ingester.hpp"

#include "domain/b3_json/b3_json.hpp"
#include "domain/b3_json/stored_values.hpp"
#include "domain/corporate_actions/corporate_actions.hpp"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/ingest/inputs.hpp>
#include <lastro/sdk/ingest/progress.hpp>
#include <lastro/sdk/ingest/values.hpp>
#include <lastro/sdk/problem.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lastro::stocks {
namespace {

namespace json = boost::json;

constexpr const char* kCashNamed = "cash";
constexpr const char* kCashPlain = "cash_plain";
constexpr const char* kSupplementNamed = "supplement";

sdk::DatasetLayout Layout() {
    sdk::DatasetLayout layout;
    layout.dataset = std::string(kCorporateActionsDataset);
    layout.tables.push_back({kCashNamed, sdk::NamePattern("GetListedCashDividends_{NAME}.json"), false});
    layout.tables.push_back({kCashPlain, sdk::NamePattern("GetListedCashDividends.json"), false});
    layout.tables.push_back(
        {kSupplementNamed, sdk::NamePattern("GetListedSupplementCompany_{NAME}.json"), false});
    // The supplement names its issuer in `code`, so its plain name is enough.
    layout.tables.push_back({"supplement_plain", sdk::NamePattern("GetListedSupplementCompany.json"), false});
    layout.expected =
        "GetListedCashDividends_<ISSUER>.json and GetListedSupplementCompany_<ISSUER>.json (B3's answers "
        "for one issuer code, e.g. _ABEV), loose or zipped";
    return layout;
}

struct IssuerFiles {
    std::optional<CashDividendsAnswer> cash;
    std::string cash_file;
    std::optional<SupplementAnswer> supplement;
    std::string supplement_file;
    std::optional<std::time_t> supplement_modified;
};

std::optional<std::string> OptionalDate(const std::optional<sdk::Date>& date) {
    return date ? std::optional<std::string>(date->ToString()) : std::nullopt;
}

std::optional<std::string> OptionalInteger(const std::optional<std::int64_t>& value) {
    return value ? std::optional<std::string>(std::to_string(*value)) : std::nullopt;
}

// A share count: a whole number as published ("15.750.216.851"); nullopt when blank.
std::optional<std::string> ShareCount(const std::string& file, const char* field,
                                      const std::optional<PtBrDecimal>& count) {
    if (!count) {
        return std::nullopt;
    }
    if (count->decimal.find('.') != std::string::npos || count->decimal.starts_with("-") ||
        count->decimal.size() > 18) {
        throw sdk::IngestError(
            file, 0,
            std::string("[0]: ") + field + " is not a number of shares: " + sdk::Quoted(count->published));
    }
    return CanonicalDecimal(count->decimal);
}

// The columns of an event after its id, in the table's order (without first_seen_at, updated_at).
StoredValues EventColumns(const CorporateEvent& e) {
    return {e.issuer,
            std::string(EventKindName(e.kind)),
            e.label,
            e.share_type,
            e.isin,
            OptionalDate(e.approved_on),
            OptionalDate(e.last_date_with_rights),
            OptionalDate(e.payment_date),
            e.amount_published,
            DoubleText(e.amount),
            e.ratio_published,
            OptionalInteger(e.quoted_per_shares),
            DoubleText(e.price_factor),
            e.factor_source,
            json::serialize(e.published)};
}

// A cash event given by one source now and stored with the other: the one event of both records.
CorporateEvent MergedCashEvent(const CorporateEvent& event, const json::object& published) {
    const json::object& cash = published.at(kCashSource).as_object();
    const json::object& supplement = published.at(kSupplementCashSource).as_object();
    CashDividendsAnswer cash_answer;
    cash_answer.records.push_back(
        ReadCashDividendRecord("stored event " + event.id, std::string(kCashSource), cash));
    SupplementAnswer supplement_answer;
    supplement_answer.cash.push_back(
        ReadSupplementCashRecord("stored event " + event.id, std::string(kSupplementCashSource), supplement));
    std::vector<CorporateEvent> rebuilt = BuildIssuerEvents(event.issuer, &cash_answer, &supplement_answer);
    if (rebuilt.size() != 1) {
        return event;  // the records no longer match (not expected: the id carries the key)
    }
    CorporateEvent merged = std::move(rebuilt.front());
    merged.id = event.id;
    merged.key = event.key;
    return merged;
}

class EventWriter {
public:
    EventWriter(odb::database& db, std::string now) : sql_(db), now_(std::move(now)) {}

    void Apply(const CorporateEvent& given, sdk::IngestSummary& summary) {
        const sdk::SqlRows stored = sql_.Query(
            "SELECT published, fingerprint FROM stocks_corporate_action WHERE id = $1", {given.id});
        CorporateEvent event = given;
        if (!stored.empty()) {
            json::object published = json::parse(*stored[0][0]).as_object();
            for (const auto& member : given.published) {
                published[member.key()] = member.value();
            }
            event.published = std::move(published);
            if (event.kind == EventKind::kCash && event.published.contains(kCashSource) &&
                event.published.contains(kSupplementCashSource) && event.published.size() == 2 &&
                given.published.size() == 1) {
                event = MergedCashEvent(event, event.published);
            }
        }
        StoredValues columns = EventColumns(event);
        const std::string fingerprint = FingerprintOf(columns);
        if (!stored.empty() && *stored[0][1] == fingerprint) {
            ++summary.unchanged;
            return;
        }
        StoredValues values{event.id};
        values.insert(values.end(), columns.begin(), columns.end());
        values.push_back(fingerprint);
        values.push_back(now_);
        if (stored.empty()) {
            sql_.Execute(
                "INSERT INTO stocks_corporate_action (id, issuer, kind, label, share_type, isin, approved_on,"
                " last_date_with_rights, payment_date, amount_published, amount, ratio_published,"
                " quoted_per_shares, price_factor, factor_source, published, fingerprint, first_seen_at,"
                " updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,"
                " $17, $18, $18)",
                Views(values));
            ++summary.inserted;
        } else {
            sql_.Execute(
                "UPDATE stocks_corporate_action SET issuer = $2, kind = $3, label = $4, share_type = $5,"
                " isin = $6, approved_on = $7, last_date_with_rights = $8, payment_date = $9,"
                " amount_published = $10, amount = $11, ratio_published = $12, quoted_per_shares = $13,"
                " price_factor = $14, factor_source = $15, published = $16, fingerprint = $17,"
                " updated_at = $18 WHERE id = $1",
                Views(values));
            ++summary.updated;
        }
    }

    void Issuer(const SupplementAnswer& s, const std::string& file, const std::string& as_of) {
        json::object shares;
        for (const char* field : {"numberCommonShares", "numberPreferredShares", "totalNumberShares",
                                  "stockCapital", "quotedPerSharSince", "roundLot"}) {
            if (const json::value* value = s.published.if_contains(field)) {
                shares[field] = *value;
            }
        }
        const StoredValues values{s.code,
                                  s.trading_name,
                                  OptionalInteger(s.cvm_code),
                                  ShareCount(file, "numberCommonShares", s.common_shares),
                                  ShareCount(file, "numberPreferredShares", s.preferred_shares),
                                  ShareCount(file, "totalNumberShares", s.total_shares),
                                  json::serialize(shares),
                                  OptionalDate(s.quoted_per_shares_since),
                                  OptionalInteger(s.round_lot),
                                  file,
                                  as_of};
        // The details ingester owns the names and the CVM code; the supplement fills them only
        // while they are unknown.
        sql_.Execute(
            "INSERT INTO stocks_issuer (issuer, trading_name, cvm_code, common_shares, preferred_shares,"
            " total_shares, shares_published, quoted_per_shares_since, round_lot, supplement_source,"
            " supplement_as_of) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
            " ON CONFLICT (issuer) DO UPDATE SET"
            " trading_name = COALESCE(stocks_issuer.trading_name, excluded.trading_name),"
            " cvm_code = COALESCE(stocks_issuer.cvm_code, excluded.cvm_code),"
            " common_shares = excluded.common_shares, preferred_shares = excluded.preferred_shares,"
            " total_shares = excluded.total_shares, shares_published = excluded.shares_published,"
            " quoted_per_shares_since = excluded.quoted_per_shares_since, round_lot = excluded.round_lot,"
            " supplement_source = excluded.supplement_source, supplement_as_of = excluded.supplement_as_of",
            Views(values));
    }

private:
    sdk::SqlSession sql_;
    std::string now_;
};

}  // namespace

sdk::IngestSummary CorporateActionsIngester::Run(const sdk::IngestContext& context) {
    const sdk::IngestInputs inputs(context.inputs);
    const sdk::DatasetFiles files(inputs, Layout());
    files.RequireComplete();

    sdk::IngestSummary summary;
    sdk::RowCounter counter(context.progress, summary);

    // Every file read before anything is written: the supplements first, as an unsuffixed cash
    // file takes its issuer from the one supplement of the ingest.
    std::map<std::string, IssuerFiles> issuers;
    std::vector<const sdk::TableFile*> plain_cash;
    std::size_t supplements = 0;
    for (const sdk::TableFile& table : files.Tables()) {
        const std::string& id = files.Spec(table).id;
        const std::string& file = table.file.display;
        if (id == kCashNamed || id == kCashPlain) {
            continue;
        }
        counter.Stage(file);
        SupplementAnswer answer = ReadSupplement(*inputs.Open(table.file));
        const std::optional<std::string> code = IssuerCode(answer.code);
        if (!code) {
            throw sdk::IngestError(file, 0, "[0]: code is not a B3 issuer code: " + sdk::Quoted(answer.code));
        }
        if (id == kSupplementNamed && IssuerCode(table.name) != code) {
            throw sdk::IngestError(
                file, 0, "the file is named for issuer " + table.name + " but its code is " + *code);
        }
        IssuerFiles& entry = issuers[*code];
        if (entry.supplement) {
            throw sdk::IngestError(file, 0,
                                   "a second GetListedSupplementCompany of issuer " + *code +
                                       " (the first is " + entry.supplement_file + ")");
        }
        counter.Row();
        answer.code = *code;
        entry.supplement = std::move(answer);
        entry.supplement_file = file;
        entry.supplement_modified = inputs.ModifiedAt(table.file);
        ++supplements;
    }
    for (const sdk::TableFile& table : files.Tables()) {
        const std::string& id = files.Spec(table).id;
        const std::string& file = table.file.display;
        if (id != kCashNamed && id != kCashPlain) {
            continue;
        }
        std::optional<std::string> issuer;
        if (id == kCashNamed) {
            issuer = IssuerCode(table.name);
            if (!issuer) {
                throw sdk::IngestError(file, 0,
                                       "the name's issuer " + sdk::Quoted(table.name) +
                                           " is not a B3 issuer code (letters and digits, e.g. ABEV)");
            }
        } else {
            // B3's answer does not name its company: only the ingest's one supplement can.
            if (supplements != 1) {
                throw sdk::IngestError(
                    file, 0,
                    "GetListedCashDividends does not name its company, and this ingest has " +
                        std::to_string(supplements) +
                        " GetListedSupplementCompany files to take it from: name the file "
                        "GetListedCashDividends_<ISSUER>.json (e.g. GetListedCashDividends_ABEV.json), or "
                        "give "
                        "it with exactly one GetListedSupplementCompany file, whose code names the company");
            }
            issuer = issuers.begin()->first;
        }
        counter.Stage(file);
        CashDividendsAnswer answer = ReadCashDividends(*inputs.Open(table.file));
        IssuerFiles& entry = issuers[*issuer];
        if (entry.cash) {
            throw sdk::IngestError(file, 0,
                                   "a second GetListedCashDividends of issuer " + *issuer +
                                       " (the first is " + entry.cash_file + ")");
        }
        for (std::size_t i = 0; i < answer.records.size(); ++i) {
            counter.Row();
        }
        entry.cash = std::move(answer);
        entry.cash_file = file;
    }

    const std::string now = sdk::Rfc3339Utc(context.now);
    EventWriter writer(context.db, now);
    for (const auto& [issuer, entry] : issuers) {
        counter.Stage("b3.corporate_actions: " + issuer);
        const std::vector<CorporateEvent> events = BuildIssuerEvents(
            issuer, entry.cash ? &*entry.cash : nullptr, entry.supplement ? &*entry.supplement : nullptr);
        for (const CorporateEvent& event : events) {
            writer.Apply(event, summary);
        }
        if (entry.supplement) {
            const std::string as_of =
                sdk::UtcDate(entry.supplement_modified.value_or(context.now)).ToString();
            writer.Issuer(*entry.supplement, entry.supplement_file, as_of);
        }
    }
    summary.release_label = "b3-corporate-actions-" + now.substr(0, 10);
    summary.as_of = now.substr(0, 10);
    return summary;
}

}  // namespace lastro::stocks
