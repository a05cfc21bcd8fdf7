#include "derive/listing_derivation.hpp"

#include "domain/cotahist/instrument_class.hpp"
#include "domain/market/market_cap.hpp"
#include "domain/market/prices.hpp"

#include <lastro/companies/services.hpp>
#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/serving/json_text.hpp>
#include <lastro/sdk/text.hpp>

#include <charconv>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace lastro::stocks {
namespace {

using companies::CompanySecurity;
using companies::ListedCompanies;
using Cell = std::optional<std::string>;

// A double as the shortest text that reads back to it.
std::string NumberText(double value) {
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, result.ptr);
}

// A sort column's value: rounded to `decimals` so that it has at most 15 significant digits,
// which every backend prints and reads back exactly (SQLite's CAST AS TEXT keeps 15), so a cursor
// carrying it finds the row it stopped at.
std::string SortValue(double value, int decimals) {
    const double scale = std::pow(10.0, decimals);
    return NumberText(std::round(value * scale) / scale);
}

std::optional<std::int64_t> Int(const Cell& cell) {
    return cell ? std::optional<std::int64_t>(std::stoll(*cell)) : std::nullopt;
}

// `day` (YYYY-MM-DD) moved by `days`.
std::string ShiftDays(const std::string& day, int days) {
    const sdk::Date date = *sdk::Date::Parse(day);
    const std::chrono::sys_days moved =
        std::chrono::sys_days(std::chrono::year_month_day(
            std::chrono::year(date.year), std::chrono::month(static_cast<unsigned>(date.month)),
            std::chrono::day(static_cast<unsigned>(date.day)))) +
        std::chrono::days(days);
    const std::chrono::year_month_day ymd(moved);
    return sdk::Date{static_cast<int>(ymd.year()), static_cast<int>(static_cast<unsigned>(ymd.month())),
                     static_cast<int>(static_cast<unsigned>(ymd.day()))}
        .ToString();
}

// One trading day of a ticker: the line with the largest traded value when B3 published several
// (another BDI code the same day).
struct DayQuote {
    std::string day;
    int bdi = 0;
    Cell short_name, specification, isin;
    std::optional<double> close;
    std::int64_t factor = 1;
    std::optional<double> volume;
    std::optional<std::int64_t> quantity, trades;
};

struct Issuer {
    std::string code;
    Cell cnpj;
    std::optional<std::int64_t> cvm_code;
    Cell company_name, sector, subsector, segment, details_source;
    std::optional<std::int64_t> common_shares, preferred_shares;
    Cell supplement_source;
};

struct IndexMembership {
    std::string index, source;
    Cell as_of, weight;
};

struct TickerRow {
    std::string ticker, first_day;
    DayQuote last;
    std::optional<double> previous_close;
    std::optional<std::pair<double, std::string>> low, high;
    std::string instrument_class;
    std::optional<std::string> listing_segment, listing_segment_source;
    // The company.
    std::optional<std::int64_t> cvm_code;
    Cell cnpj, company_name;
    std::string company_source;
    std::optional<std::string> unlinked_reason;
    const Issuer* issuer = nullptr;
    std::vector<IndexMembership> indexes;
};

// The security of the FCA that lists `ticker` on `day`: the one trading then, else the latest.
std::optional<CompanySecurity> SecurityOn(const std::vector<CompanySecurity>& securities,
                                          const std::string& day) {
    std::optional<CompanySecurity> best;
    for (const CompanySecurity& security : securities) {
        const bool started = !security.trading_from || *security.trading_from <= day;
        const bool open = !security.trading_to || *security.trading_to >= day;
        if (started && open) {
            return security;
        }
        if (!best || security.trading_from.value_or("") > best->trading_from.value_or("")) {
            best = security;
        }
    }
    return best;
}

std::string UnlinkedReason(const std::string& instrument_class) {
    if (instrument_class == "BDR") {
        return "a depositary receipt of a foreign issuer: no CVM listed company's FCA lists it";
    }
    if (instrument_class == "ETF" || instrument_class == "FII" || instrument_class == "CI") {
        return "quotas of a fund listed on B3: funds are not CVM listed companies";
    }
    return "no FCA loaded lists this ticker, and no B3 company details loaded name it";
}

class ListingBuilder {
public:
    ListingBuilder(const sdk::DerivationContext& context)
        : context_(context), sql_(context.db), companies_(context.services.Get<ListedCompanies>()) {}

    std::size_t Build() {
        const sdk::SqlRows latest = sql_.Query("SELECT MAX(day) FROM stocks_day");
        sql_.Execute("DELETE FROM stocks_listing");
        sql_.Execute("DELETE FROM stocks_listing_index");
        sql_.Execute("DELETE FROM stocks_listing_sector");
        if (latest.empty() || !latest[0][0]) {
            return 0;
        }
        latest_day_ = *latest[0][0];
        LoadIssuers();
        LoadIndexes();
        std::vector<TickerRow> rows;
        for (const auto& row :
             sql_.Query("SELECT ticker, MIN(day), MAX(day) FROM stocks_quote WHERE market_type = 10"
                        " GROUP BY ticker ORDER BY ticker")) {
            TickerRow ticker;
            ticker.ticker = *row[0];
            ticker.first_day = *row[1];
            ReadDays(ticker, *row[2]);
            Link(ticker);
            rows.push_back(std::move(ticker));
        }
        Write(rows);
        return rows.size();
    }

private:
    void LoadIssuers() {
        for (const auto& row : sql_.Query(
                 "SELECT issuer, cnpj, cvm_code, company_name, sector, subsector, segment, details_source,"
                 " common_shares, preferred_shares, supplement_source FROM stocks_issuer")) {
            Issuer issuer{*row[0], row[1], Int(row[2]), row[3],      row[4], row[5],
                          row[6],  row[7], Int(row[8]), Int(row[9]), row[10]};
            issuers_.emplace(issuer.code, std::move(issuer));
        }
        for (const auto& row :
             sql_.Query("SELECT ticker, issuer FROM stocks_issuer_code ORDER BY ticker, issuer")) {
            issuer_of_ticker_.emplace(*row[0], *row[1]);
        }
    }

    void LoadIndexes() {
        for (const auto& row : sql_.Query("SELECT ticker, index_code, source, as_of, weight_published"
                                          " FROM stocks_index_member ORDER BY ticker, index_code, source")) {
            indexes_[*row[0]].push_back({*row[1], *row[2], row[3], row[4]});
        }
    }

    // The ticker's last day, the day before it and the 52 weeks ending on it.
    void ReadDays(TickerRow& ticker, const std::string& last_day) {
        const std::string window_start = ShiftDays(last_day, -364);
        std::vector<DayQuote> days;
        for (const auto& row :
             sql_.Query("SELECT day, bdi, short_name, specification, isin, close_price, quotation_factor, "
                        "volume, quantity,"
                        " trades FROM stocks_quote WHERE ticker = $1 AND market_type = 10 AND day >= $2"
                        " ORDER BY day, volume DESC, bdi",
                        {ticker.ticker, ShiftDays(last_day, -400)})) {
            if (!days.empty() && days.back().day == *row[0]) {
                continue;  // the day's line with the largest value came first
            }
            DayQuote q;
            q.day = *row[0];
            q.bdi = static_cast<int>(std::stoll(*row[1]));
            q.short_name = row[2];
            q.specification = row[3];
            q.isin = row[4];
            q.factor = std::stoll(*row[6]);
            q.close = PerShare(Int(row[5]), q.factor);
            q.volume = Reais(Int(row[7]));
            q.quantity = Int(row[8]);
            q.trades = Int(row[9]);
            days.push_back(std::move(q));
        }
        ticker.last = days.back();
        if (days.size() > 1) {
            ticker.previous_close = days[days.size() - 2].close;
        }
        for (const DayQuote& q : days) {
            if (q.day < window_start || !q.close) {
                continue;
            }
            if (!ticker.low || *q.close < ticker.low->first) {
                ticker.low = std::make_pair(*q.close, q.day);
            }
            if (!ticker.high || *q.close > ticker.high->first) {
                ticker.high = std::make_pair(*q.close, q.day);
            }
        }
        ticker.instrument_class = InstrumentClass(ticker.last.specification.value_or(""), ticker.last.bdi);
    }

    const std::optional<companies::ListedCompany>& Company(std::int64_t cvm_code) {
        auto found = company_cache_.find(cvm_code);
        if (found == company_cache_.end()) {
            found = company_cache_.emplace(cvm_code, companies_.ByCvmCode(context_.db, cvm_code)).first;
        }
        return found->second;
    }

    void Link(TickerRow& ticker) {
        const auto code = issuer_of_ticker_.find(ticker.ticker);
        const std::string issuer_code =
            code != issuer_of_ticker_.end() ? code->second : ticker.ticker.substr(0, 4);
        const auto issuer = issuers_.find(issuer_code);
        if (issuer != issuers_.end()) {
            ticker.issuer = &issuer->second;
        }
        if (const auto security =
                SecurityOn(companies_.ByTicker(context_.db, ticker.ticker), ticker.last.day)) {
            ticker.cvm_code = security->cvm_code;
            ticker.cnpj = security->cnpj;
            ticker.company_source = "companies.securities: FCA document " +
                                    std::to_string(security->document_id) + " version " +
                                    std::to_string(security->version) + ", valor_mobiliario row " +
                                    std::to_string(security->source_row);
            if (security->segment) {
                ticker.listing_segment = security->segment;
                ticker.listing_segment_source = "companies.securities: FCA valor_mobiliario.Segmento";
            }
        } else if (code != issuer_of_ticker_.end() && ticker.issuer && ticker.issuer->cvm_code) {
            ticker.cvm_code = ticker.issuer->cvm_code;
            ticker.cnpj = ticker.issuer->cnpj;
            ticker.company_source =
                "b3.company_details: " + ticker.issuer->details_source.value_or(issuer_code);
        }
        if (ticker.cvm_code) {
            const auto& company = Company(*ticker.cvm_code);
            ticker.company_name = company ? company->legal_name : std::nullopt;
            if (!ticker.company_name && ticker.issuer) {
                ticker.company_name = ticker.issuer->company_name;
            }
            if (!ticker.cnpj && company) {
                ticker.cnpj = company->cnpj;
            }
        } else {
            ticker.unlinked_reason = UnlinkedReason(ticker.instrument_class);
        }
        // COTAHIST's own segment code is the day's fact; the FCA's is what the form declared.
        if (const auto segment = ListingSegment(ticker.last.specification.value_or(""))) {
            ticker.listing_segment = segment;
            ticker.listing_segment_source = "b3.cotahist: ESPECI of " + ticker.last.day;
        }
        const auto found = indexes_.find(ticker.ticker);
        if (found != indexes_.end()) {
            ticker.indexes = found->second;
        }
    }

    // The share-class tickers of each company, with their shares, for the market capitalization.
    std::map<std::int64_t, std::vector<CapitalClass>> Capitals(const std::vector<TickerRow>& rows) {
        std::map<std::int64_t, std::vector<const TickerRow*>> by_company;
        for (const TickerRow& row : rows) {
            if (row.cvm_code && IsShareClass(row.instrument_class) && row.last.day == latest_day_) {
                by_company[*row.cvm_code].push_back(&row);
            }
        }
        std::map<std::int64_t, std::vector<CapitalClass>> capitals;
        for (const auto& [cvm_code, tickers] : by_company) {
            std::map<std::string, const companies::SharesFigure*> issued;
            const std::vector<companies::SharesFigure> figures =
                companies_.SharesOutstanding(context_.db, cvm_code, latest_day_);
            for (const companies::SharesFigure& figure : figures) {
                if (figure.measure == "issued" && figure.quantity) {
                    issued[figure.share_class] = &figure;
                }
            }
            std::size_t preferred_tickers = 0;
            for (const TickerRow* row : tickers) {
                preferred_tickers += row->instrument_class.starts_with("PN") ? 1 : 0;
            }
            std::vector<CapitalClass>& classes = capitals[cvm_code];
            for (const TickerRow* row : tickers) {
                CapitalClass item{row->ticker,   row->instrument_class, row->last.close,
                                  row->last.day, std::nullopt,          ""};
                auto figure = issued.find(row->instrument_class);
                // A single preferred ticker stands for every preferred share the form counts.
                if (figure == issued.end() && preferred_tickers == 1 &&
                    row->instrument_class.starts_with("PN")) {
                    figure = issued.find("PN");
                }
                if (figure != issued.end()) {
                    item.shares = static_cast<double>(*figure->second->quantity);
                    item.shares_source = "companies.shares_outstanding: FRE " + figure->second->source_table +
                                         " of " + figure->second->reference_date + " (document " +
                                         std::to_string(figure->second->document_id) + ", row " +
                                         std::to_string(figure->second->source_row) + ", " +
                                         figure->second->source_column + ")";
                } else if (row->issuer) {
                    const bool common = row->instrument_class == "ON";
                    const auto& shares = common ? row->issuer->common_shares : row->issuer->preferred_shares;
                    if (shares && (common || preferred_tickers == 1)) {
                        item.shares = static_cast<double>(*shares);
                        item.shares_source =
                            std::string("b3.corporate_actions: ") +
                            row->issuer->supplement_source.value_or("GetListedSupplementCompany") +
                            (common ? " numberCommonShares" : " numberPreferredShares");
                    }
                }
                classes.push_back(std::move(item));
            }
        }
        return capitals;
    }

    void WriteMarketCap(sdk::JsonText& json, const MarketCap& cap, const std::vector<CapitalClass>& classes) {
        if (!cap.value) {
            json.Null();
            return;
        }
        json.BeginObject();
        json.Key("value").Value(*cap.value);
        json.Key("date").Value(latest_day_);
        json.Key("parts").BeginArray();
        for (const CapitalClass* part : cap.parts) {
            json.BeginObject();
            json.Key("ticker").Value(part->ticker);
            json.Key("class").Value(part->share_class);
            json.Key("close").Value(*part->close);
            json.Key("close_date").Value(part->close_date);
            json.Key("shares").Value(*part->shares);
            json.Key("shares_source").Value(part->shares_source);
            json.EndObject();
        }
        json.EndArray();
        json.Key("left_out").BeginArray();
        for (const auto& [item, reason] : cap.left_out) {
            json.BeginObject();
            json.Key("ticker").Value(item->ticker);
            json.Key("class").Value(item->share_class);
            json.Key("reason").Value(reason);
            json.EndObject();
        }
        json.EndArray();
        json.EndObject();
        (void)classes;
    }

    void Write(const std::vector<TickerRow>& rows) {
        const std::map<std::int64_t, std::vector<CapitalClass>> capitals = Capitals(rows);
        std::map<std::int64_t, MarketCap> caps;
        for (const auto& [cvm_code, classes] : capitals) {
            caps.emplace(cvm_code, ComputeMarketCap(classes));
        }
        std::map<std::string, std::string> sectors;
        std::set<std::pair<std::string, std::string>> listed_indexes;
        {
            sdk::BulkLoader load(context_.db, "stocks_listing",
                                 {"ticker", "active", "class", "cnpj", "search_text", "sector_keys",
                                  "name_key", "last_close", "volume", "market_cap", "change", "item"});
            for (const TickerRow& row : rows) {
                const auto cap = row.cvm_code ? caps.find(*row.cvm_code) : caps.end();
                const MarketCap* market_cap = cap != caps.end() ? &cap->second : nullptr;
                std::optional<double> change;
                if (row.last.close && row.previous_close && *row.previous_close != 0) {
                    change = (*row.last.close / *row.previous_close - 1.0) * 100.0;
                }
                sdk::JsonText json;
                json.BeginObject();
                json.Key("ticker").Value(row.ticker);
                json.Key("name").Value(row.last.short_name);
                json.Key("class").Value(row.instrument_class);
                json.Key("specification").Value(row.last.specification);
                json.Key("isin").Value(row.last.isin);
                json.Key("listing_segment").Value(row.listing_segment);
                json.Key("company");
                if (row.cvm_code) {
                    json.BeginObject();
                    json.Key("cvm_code").Value(*row.cvm_code);
                    json.Key("cnpj").Value(row.cnpj);
                    json.Key("name").Value(row.company_name);
                    json.EndObject();
                } else {
                    json.Null();
                }
                json.Key("company_unlinked_reason").Value(row.unlinked_reason);
                const Issuer* issuer = row.issuer;
                json.Key("sector").Value(issuer ? issuer->sector : std::nullopt);
                json.Key("subsector").Value(issuer ? issuer->subsector : std::nullopt);
                json.Key("segment").Value(issuer ? issuer->segment : std::nullopt);
                json.Key("first_date").Value(row.first_day);
                json.Key("last_date").Value(row.last.day);
                json.Key("last_close").Value(row.last.close);
                json.Key("previous_close").Value(row.previous_close);
                json.Key("change").Value(change);
                json.Key("volume").Value(row.last.volume);
                json.Key("quantity").Value(row.last.quantity);
                json.Key("trades").Value(row.last.trades);
                json.Key("quotation_factor").Value(row.last.factor);
                json.Key("week52").BeginObject();
                json.Key("low").Value(row.low ? std::optional<double>(row.low->first) : std::nullopt);
                json.Key("low_date")
                    .Value(row.low ? std::optional<std::string>(row.low->second) : std::nullopt);
                json.Key("high").Value(row.high ? std::optional<double>(row.high->first) : std::nullopt);
                json.Key("high_date")
                    .Value(row.high ? std::optional<std::string>(row.high->second) : std::nullopt);
                json.EndObject();
                json.Key("indexes").BeginArray();
                for (const IndexMembership& index : row.indexes) {
                    json.BeginObject();
                    json.Key("index").Value(index.index);
                    json.Key("source").Value(index.source);
                    json.Key("as_of").Value(index.as_of);
                    json.Key("weight_published").Value(index.weight);
                    json.EndObject();
                    listed_indexes.emplace(index.index, row.ticker);
                }
                json.EndArray();
                json.Key("market_cap");
                if (market_cap) {
                    WriteMarketCap(json, *market_cap, capitals.at(*row.cvm_code));
                } else {
                    json.Null();
                }
                json.Key("field_sources").BeginObject();
                json.Key("quotes").Value("b3.cotahist: COTAHIST of " + row.last.day);
                json.Key("company").Value(row.cvm_code ? std::optional<std::string>(row.company_source)
                                                       : std::nullopt);
                json.Key("listing_segment").Value(row.listing_segment_source);
                json.Key("sector").Value(
                    issuer && issuer->sector
                        ? std::optional<std::string>(
                              "b3.company_details: " + issuer->details_source.value_or(issuer->code) +
                              " industryClassification")
                        : std::nullopt);
                json.Key("indexes").Value(
                    row.indexes.empty() ? std::nullopt : std::optional<std::string>("b3.index_membership"));
                json.EndObject();
                json.EndObject();

                std::string sector_keys = "|";
                if (issuer) {
                    for (const Cell& level : {issuer->sector, issuer->subsector, issuer->segment}) {
                        if (level) {
                            const std::string key = sdk::FoldForSearch(*level);
                            sector_keys += key + "|";
                            sectors.emplace(key, *level);
                        }
                    }
                }
                std::string search = sdk::FoldForSearch(row.ticker + " " + row.last.short_name.value_or("") +
                                                        " " + row.company_name.value_or(""));
                const std::string active = row.last.day == latest_day_ ? "1" : "0";
                const std::string close = row.last.close ? SortValue(*row.last.close, 6) : "";
                const std::string volume = row.last.volume ? SortValue(*row.last.volume, 2) : "";
                const std::string cap_value =
                    market_cap && market_cap->value ? SortValue(*market_cap->value, 2) : "";
                const std::string change_value = change ? SortValue(*change, 8) : "";
                const std::string name_key = sdk::FoldForSearch(row.last.short_name.value_or(""));
                const std::string item = json.Take();
                const auto opt = [](const std::string& text) {
                    return text.empty() ? sdk::SqlValue() : sdk::SqlValue(text);
                };
                load.Add({row.ticker, active, row.instrument_class,
                          row.cnpj ? sdk::SqlValue(*row.cnpj) : std::nullopt, search, sector_keys,
                          opt(name_key), opt(close), opt(volume), opt(cap_value), opt(change_value), item});
            }
            load.Finish();
        }
        for (const auto& [index, ticker] : listed_indexes) {
            sql_.Execute("INSERT INTO stocks_listing_index (index_code, ticker) VALUES ($1, $2)",
                         {index, ticker});
        }
        for (const auto& [key, name] : sectors) {
            sql_.Execute("INSERT INTO stocks_listing_sector (sector_key, name) VALUES ($1, $2)", {key, name});
        }
    }

    const sdk::DerivationContext& context_;
    sdk::SqlSession sql_;
    const ListedCompanies& companies_;
    std::string latest_day_;
    std::map<std::string, Issuer> issuers_;
    std::map<std::string, std::string> issuer_of_ticker_;
    std::map<std::string, std::vector<IndexMembership>> indexes_;
    std::map<std::int64_t, std::optional<companies::ListedCompany>> company_cache_;
};

}  // namespace

sdk::IngestSummary ListingDerivation::Run(const sdk::DerivationContext& context) {
    sdk::IngestSummary summary;
    context.progress.Stage("stocks.listing");
    ListingBuilder builder(context);
    summary.inserted = builder.Build();
    summary.release_label = "stocks-listing-" + sdk::Rfc3339Utc(context.now).substr(0, 10);
    return summary;
}

}  // namespace lastro::stocks
