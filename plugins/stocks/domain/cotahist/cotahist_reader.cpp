#include "domain/cotahist/cotahist_reader.hpp"

#include <lastro/sdk/ingest/values.hpp>
#include <lastro/sdk/problem.hpp>

#include <utility>
#include <vector>

namespace lastro::stocks {
namespace {

using sdk::FieldType;
using sdk::FixedField;

// B3's "SeriesHistoricas_Layout" rev. 2.0, positions 1-based as it numbers them.
sdk::RecordLayout HeaderLayout() {
    return sdk::RecordLayout("00", {{"TIPREG", 1, 2, FieldType::kText},
                                    {"NOMARQ", 3, 13, FieldType::kText},
                                    {"CODORI", 16, 8, FieldType::kText},
                                    {"DATGER", 24, 8, FieldType::kDate}});
}

sdk::RecordLayout QuoteLayout() {
    return sdk::RecordLayout(
        "01", {{"TIPREG", 1, 2, FieldType::kText},       {"DATA", 3, 8, FieldType::kDate},
               {"CODBDI", 11, 2, FieldType::kInteger},   {"CODNEG", 13, 12, FieldType::kText},
               {"TPMERC", 25, 3, FieldType::kInteger},   {"NOMRES", 28, 12, FieldType::kText},
               {"ESPECI", 40, 10, FieldType::kText},     {"PRAZOT", 50, 3, FieldType::kText},
               {"MODREF", 53, 4, FieldType::kText},      {"PREABE", 57, 13, FieldType::kInteger},
               {"PREMAX", 70, 13, FieldType::kInteger},  {"PREMIN", 83, 13, FieldType::kInteger},
               {"PREMED", 96, 13, FieldType::kInteger},  {"PREULT", 109, 13, FieldType::kInteger},
               {"PREOFC", 122, 13, FieldType::kInteger}, {"PREOFV", 135, 13, FieldType::kInteger},
               {"TOTNEG", 148, 5, FieldType::kInteger},  {"QUATOT", 153, 18, FieldType::kInteger},
               {"VOLTOT", 171, 18, FieldType::kInteger}, {"PREEXE", 189, 13, FieldType::kInteger},
               {"INDOPC", 202, 1, FieldType::kText},     {"DATVEN", 203, 8, FieldType::kDate, 0, "99991231"},
               {"FATCOT", 211, 7, FieldType::kInteger},  {"PTOEXE", 218, 13, FieldType::kInteger},
               {"CODISI", 231, 12, FieldType::kText},    {"DISMES", 243, 3, FieldType::kInteger}});
}

sdk::RecordLayout TrailerLayout() {
    return sdk::RecordLayout("99", {{"TIPREG", 1, 2, FieldType::kText},
                                    {"NOMARQ", 3, 13, FieldType::kText},
                                    {"CODORI", 16, 8, FieldType::kText},
                                    {"DATGER", 24, 8, FieldType::kDate},
                                    {"TOTREG", 32, 11, FieldType::kInteger}});
}

// Field indexes of the quote layout, resolved once.
struct QuoteFields {
    std::size_t day, bdi, ticker, market, short_name, specification, term, open, high, low, average, close,
        bid, ask, trades, quantity, volume, factor, isin, distribution;
};

const QuoteFields& Fields() {
    static const QuoteFields fields = [] {
        const sdk::RecordLayout layout = QuoteLayout();
        return QuoteFields{
            layout.Index("DATA"),   layout.Index("CODBDI"), layout.Index("CODNEG"), layout.Index("TPMERC"),
            layout.Index("NOMRES"), layout.Index("ESPECI"), layout.Index("PRAZOT"), layout.Index("PREABE"),
            layout.Index("PREMAX"), layout.Index("PREMIN"), layout.Index("PREMED"), layout.Index("PREULT"),
            layout.Index("PREOFC"), layout.Index("PREOFV"), layout.Index("TOTNEG"), layout.Index("QUATOT"),
            layout.Index("VOLTOT"), layout.Index("FATCOT"), layout.Index("CODISI"), layout.Index("DISMES")};
    }();
    return fields;
}

// TPMERC of a raw record without decoding the rest: most lines of a yearly file are options.
std::optional<int> MarketType(std::string_view raw) {
    int value = 0;
    for (char c : raw) {
        if (c < '0' || c > '9') {
            return std::nullopt;
        }
        value = value * 10 + (c - '0');
    }
    return raw.empty() ? std::nullopt : std::optional<int>(value);
}

// A best bid or ask of zero means no offer was standing at the close.
std::optional<std::int64_t> Offer(std::optional<std::int64_t> value) {
    return value && *value == 0 ? std::nullopt : value;
}

}  // namespace

std::string GroupThousands(std::int64_t value) {
    std::string digits = std::to_string(value < 0 ? -value : value);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) {
            out += ',';
        }
        out += digits[i];
    }
    return value < 0 ? "-" + out : out;
}

CotahistReader::CotahistReader(std::unique_ptr<sdk::ByteSource> source)
    : reader_(std::move(source), 1, 2, {HeaderLayout(), QuoteLayout(), TrailerLayout()}) {}

CotahistReader::Outcome CotahistReader::Next(QuoteRecord& record, std::string& problem) {
    const QuoteFields& f = Fields();
    while (reader_.Next()) {
        ++records_;
        const std::string& type = reader_.Type();
        if (trailer_seen_) {
            throw sdk::IngestError(SourceName(), reader_.Line(), "a record after the trailer (99)");
        }
        if (type == "00") {
            if (records_ != 1) {
                throw sdk::IngestError(SourceName(), reader_.Line(),
                                       "a header record (00) that is not the first");
            }
            const sdk::RecordLayout& layout = reader_.Layout();
            header_ = CotahistHeader{reader_.Text(layout.Index("NOMARQ")).value_or(""),
                                     reader_.DateValue(layout.Index("DATGER"))};
            continue;
        }
        if (type == "99") {
            trailer_seen_ = true;
            declared_ = reader_.Integer(reader_.Layout().Index("TOTREG"));
            continue;
        }
        const std::optional<int> market = MarketType(reader_.Raw(f.market));
        if (!market || (*market != kMarketCash && *market != kMarketOddLot)) {
            ++dropped_[market.value_or(-1)];
            continue;
        }
        record = QuoteRecord{};
        record.line = reader_.Line();
        record.market_type = *market;
        try {
            const std::optional<sdk::Date> day = reader_.DateValue(f.day);
            std::optional<std::string> ticker = reader_.Text(f.ticker);
            const std::optional<std::int64_t> factor = reader_.Integer(f.factor);
            if (!day) {
                problem = "DATA is blank";
                return Outcome::kRejected;
            }
            if (!ticker) {
                problem = "CODNEG (the ticker) is blank";
                return Outcome::kRejected;
            }
            if (!factor || *factor <= 0) {
                problem =
                    "FATCOT (the quotation factor) is blank or zero: its prices cannot be read per share";
                return Outcome::kRejected;
            }
            record.day = *day;
            record.ticker = std::move(*ticker);
            record.quotation_factor = *factor;
            record.bdi = static_cast<int>(reader_.Integer(f.bdi).value_or(0));
            record.short_name = reader_.Text(f.short_name);
            record.specification = reader_.Text(f.specification);
            record.term = reader_.Text(f.term).value_or("");
            record.open = reader_.Integer(f.open);
            record.high = reader_.Integer(f.high);
            record.low = reader_.Integer(f.low);
            record.average = reader_.Integer(f.average);
            record.close = reader_.Integer(f.close);
            record.best_bid = Offer(reader_.Integer(f.bid));
            record.best_ask = Offer(reader_.Integer(f.ask));
            record.trades = reader_.Integer(f.trades);
            record.quantity = reader_.Integer(f.quantity);
            record.volume = reader_.Integer(f.volume);
            record.isin = reader_.Text(f.isin);
            record.distribution = reader_.Integer(f.distribution);
        } catch (const sdk::FieldError& error) {
            // One unreadable field rejects its line, named; the file's other lines stand.
            problem = error.Reason();
            return Outcome::kRejected;
        }
        return Outcome::kQuote;
    }
    return Outcome::kEnd;
}

std::optional<std::string> CotahistReader::CountProblem() const {
    if (!trailer_seen_) {
        return SourceName() +
               ": no trailer record (99), so its record count cannot be checked; the file has " +
               GroupThousands(records_) + " records";
    }
    if (!declared_) {
        return SourceName() + ": the trailer's record count (TOTREG) is blank; the file has " +
               GroupThousands(records_) + " records";
    }
    if (*declared_ != records_) {
        return SourceName() + ": the trailer declares " + GroupThousands(*declared_) +
               " records, the file has " + GroupThousands(records_) +
               " (the file is incomplete: what it holds was kept)";
    }
    return std::nullopt;
}

}  // namespace lastro::stocks
