#include "sample/stock_market.hpp"

#include "sample/b3_calendar.hpp"
#include "sample/cotahist_line.hpp"

#include <lastro/sdk/sample/date_math.hpp>
#include <lastro/sdk/sample/money.hpp>
#include <lastro/sdk/sample/prng.hpp>

#include <algorithm>
#include <array>
#include <stdexcept>

namespace lastro::stocks {
namespace {

using sdk::sample::MulDiv;
using sdk::sample::Prng;
using sdk::sample::StreamOf;

// Funds, ETFs and BDRs belong to no CVM company of the sample: their stems start with letters no
// CVM code of the sample spells (codes stay below 26^3 x 10), W, X and Y; the companies
// sample's rename takes Z.
std::string Stem(char first, std::size_t n) {
    std::string stem(1, first);
    stem += static_cast<char>('A' + n / 676 % 26);
    stem += static_cast<char>('A' + n / 26 % 26);
    stem += static_cast<char>('A' + n % 26);
    return stem;
}

// "Atlântica Energia S.A." -> "ATLANTICA EN": B3's short names are upper-case ASCII.
std::string ShortName(const std::string& utf8) {
    static const std::array<std::pair<std::string_view, char>, 14> kFolds{{{"á", 'A'},
                                                                           {"â", 'A'},
                                                                           {"ã", 'A'},
                                                                           {"à", 'A'},
                                                                           {"é", 'E'},
                                                                           {"ê", 'E'},
                                                                           {"í", 'I'},
                                                                           {"ó", 'O'},
                                                                           {"ô", 'O'},
                                                                           {"õ", 'O'},
                                                                           {"ú", 'U'},
                                                                           {"ç", 'C'},
                                                                           {"Ç", 'C'},
                                                                           {"Ã", 'A'}}};
    std::string name = utf8.substr(0, utf8.find(" S.A."));
    std::string out;
    for (std::size_t i = 0; i < name.size() && out.size() < 12;) {
        const unsigned char c = static_cast<unsigned char>(name[i]);
        if (c < 0x80) {
            out += static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
            ++i;
            continue;
        }
        char folded = ' ';
        for (const auto& [from, to] : kFolds) {
            if (name.compare(i, from.size(), from) == 0) {
                folded = to;
            }
        }
        out += folded;
        i += 2;
    }
    while (!out.empty() && out.back() == ' ') {
        out.pop_back();
    }
    return out;
}

std::string SegmentCode(const std::string& segment) {
    if (segment == "Novo Mercado") {
        return "NM";
    }
    if (segment == "Nível 1") {
        return "N1";
    }
    if (segment == "Nível 2") {
        return "N2";
    }
    return "";
}

constexpr std::array<std::string_view, 12> kForeign{
    "GLOBAL TECH", "PACIFIC OIL",  "NORDIC BANK", "ALPINE PHARM", "OCEAN FOODS",  "ATLAS MOTORS",
    "ZENITH SOFT", "POLAR MINING", "SUMMIT RETL", "ORBIT COMMS",  "CEDAR HEALTH", "VECTOR CHIPS"};

// The planted events' days (2026): every last day with rights is a Wednesday, its ex-date the
// Thursday after, both trading days.
constexpr sdk::Date kDividendLastWith{2026, 3, 18};
constexpr sdk::Date kSplitLastWith{2026, 4, 15};
constexpr sdk::Date kBonusLastWith{2026, 5, 20};
constexpr sdk::Date kReverseSplitLastWith{2026, 8, 12};

}  // namespace

std::string PublishedStockFactor(const StockEvent& event) {
    // B3's convention as read on branch stocks-b3json (commit e240481, StockEventPriceFactor;
    // PEERS-3.md 3 called it UNCONFIRMED): a split or a stock dividend is the percentage of new
    // shares per share held (1 -> 2 is "100,00000000000", 10 % more is "10,00000000000"), a
    // reverse split the shares after per share before (10 -> 1 is "0,10000000000").
    const std::int64_t e11 = 100'000'000'000;  // 11 decimals, as B3 writes its rates
    const std::int64_t value_e11 =
        event.label == "GRUPAMENTO"
            ? MulDiv(event.shares_after, e11, event.shares_before)
            : MulDiv(event.shares_after - event.shares_before, 100 * e11, event.shares_before);
    return PtDecimal(value_e11, 11);
}

std::string PtInteger(std::int64_t value) {
    const std::string digits = std::to_string(value < 0 ? -value : value);
    std::string out = value < 0 ? "-" : "";
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) {
            out += '.';
        }
        out += digits[i];
    }
    return out;
}

std::string PtDecimal(std::int64_t units, int decimals, bool trim_zeros) {
    std::string text = sdk::sample::Decimal(units, decimals);
    const std::size_t point = text.find('.');
    std::string integer = text.substr(0, point);
    std::string fraction = point == std::string::npos ? "" : text.substr(point + 1);
    if (trim_zeros) {
        while (!fraction.empty() && fraction.back() == '0') {
            fraction.pop_back();
        }
    }
    const bool negative = !integer.empty() && integer[0] == '-';
    std::string out = PtInteger(std::stoll(negative ? integer.substr(1) : integer));
    if (negative) {
        out = "-" + out;
    }
    return fraction.empty() ? out : out + "," + fraction;
}

std::string PtDate(const sdk::Date& day) {
    const std::string iso = day.ToString();
    return iso.substr(8, 2) + "/" + iso.substr(5, 2) + "/" + iso.substr(0, 4);
}

StockMarket DrawStockMarket(std::uint64_t seed, sdk::SampleScale scale) {
    const bool full = scale == sdk::SampleScale::kFull;
    StockMarket market;
    market.listing = companies::SampleListing(seed, scale);
    market.days = B3TradingDays(kFirstTradingDay, kStocksReferenceDate);
    Prng prng = Prng::ForStream(seed, StreamOf("b3.cotahist/instruments"));

    // The roles of the planted cases, on the first companies listing only ON shares that trade
    // the whole year (the rename's company excepted).
    enum Role { kNone, kSplit, kReverse, kBonus, kDividend, kPerThousand };
    std::vector<Role> roles(market.listing.size(), kNone);
    {
        const std::array<Role, 6> wanted{kSplit, kReverse, kBonus, kDividend, kPerThousand, kPerThousand};
        std::size_t next = 0;
        for (std::size_t c = 0; c < market.listing.size() && next < wanted.size(); ++c) {
            const auto& securities = market.listing[c].securities;
            if (securities.size() == 1 && securities[0].share_class == companies::ListedClass::kOn &&
                !securities[0].trading_to && securities[0].trading_from < kFirstTradingDay) {
                roles[c] = wanted[next++];
            }
        }
        if (next < wanted.size()) {
            throw std::runtime_error(
                "the companies sample lists too few companies for the stocks sample's cases");
        }
    }

    for (std::size_t c = 0; c < market.listing.size(); ++c) {
        const companies::ListedSampleCompany& company = market.listing[c];
        const std::string segment = SegmentCode(company.segment);
        const std::string name =
            ShortName(company.trade_name.empty() ? company.legal_name : company.trade_name);
        const bool liquid = prng.Chance(full ? 350 : 700);
        const std::int64_t common = prng.Between(50, 5'000) * 1'000'000 + prng.Between(0, 999'999);
        const std::int64_t preferred = prng.Between(20, 3'000) * 1'000'000 + prng.Between(0, 999'999);
        // A ticker that ends and one of its class that starts the next day: a rename (the
        // companies sample plants one, as NATU3 became NTCO3); the new one carries the prices on.
        for (const companies::ListedSampleSecurity& old : company.securities) {
            for (const companies::ListedSampleSecurity& next : company.securities) {
                if (old.trading_to && old.share_class == next.share_class &&
                    sdk::sample::AddDays(*old.trading_to, 1) == next.trading_from) {
                    market.cases.renamed_from = old.ticker;
                    market.cases.renamed_to = next.ticker;
                    market.cases.renamed_last_day = *old.trading_to;
                }
            }
        }
        for (const companies::ListedSampleSecurity& security : company.securities) {
            Instrument i;
            i.ticker = security.ticker;
            i.issuer = security.ticker.substr(0, 4);
            i.nomres = name;
            i.segment = segment;
            i.company = static_cast<int>(c);
            i.from = sdk::sample::Later(security.trading_from, kFirstTradingDay);
            i.to = security.trading_to;
            i.common_shares = common;
            i.preferred_shares = security.share_class == companies::ListedClass::kOn ? 0 : preferred;
            switch (security.share_class) {
                case companies::ListedClass::kOn:
                    i.share_class = "ON";
                    i.isin = WithIsinCheckDigit("BR" + i.issuer + "ACNOR");
                    break;
                case companies::ListedClass::kPna:
                    i.share_class = "PNA";
                    i.isin = WithIsinCheckDigit("BR" + i.issuer + "ACNPA");
                    break;
                case companies::ListedClass::kUnit:
                    i.share_class = "UNT";
                    i.kind = InstrumentKind::kUnit;
                    i.isin = WithIsinCheckDigit("BR" + i.issuer + "CDAM1");
                    break;
            }
            i.first_price = prng.Between(300, 12'000);  // R$ 3 to R$ 120
            i.daily = liquid || prng.Chance(600);
            i.odd_lots = prng.Chance(800);
            if (liquid && security.share_class != companies::ListedClass::kUnit &&
                prng.Chance(full ? 500 : 120)) {
                i.option_series = full ? static_cast<int>(prng.Between(45, 120)) : 4;
            }
            if (security.ticker == market.cases.renamed_from || security.ticker == market.cases.renamed_to) {
                i.daily = true;
                i.option_series = 0;
            }
            switch (roles[c]) {
                case kSplit:
                    i.first_price = prng.Between(6'000, 9'000);
                    market.cases.split_ticker = i.ticker;
                    market.cases.split_last_with = kSplitLastWith;
                    market.events.push_back(
                        {"DESDOBRAMENTO", false, 0, {2026, 3, 27}, kSplitLastWith, {}, 0, 0, 1, 2, ""});
                    break;
                case kReverse:
                    i.first_price = prng.Between(40, 90);  // a penny stock groups its shares
                    market.cases.reverse_split_ticker = i.ticker;
                    market.cases.reverse_split_last_with = kReverseSplitLastWith;
                    market.events.push_back(
                        {"GRUPAMENTO", false, 0, {2026, 7, 20}, kReverseSplitLastWith, {}, 0, 0, 10, 1, ""});
                    break;
                case kBonus:
                    market.cases.bonus_ticker = i.ticker;
                    market.cases.bonus_last_with = kBonusLastWith;
                    market.events.push_back(
                        {"BONIFICACAO", false, 0, {2026, 4, 30}, kBonusLastWith, {}, 0, 0, 10, 11, ""});
                    break;
                case kDividend:
                    market.cases.dividend_ticker = i.ticker;
                    market.cases.dividend_last_with = kDividendLastWith;
                    market.events.push_back({"DIVIDENDO",
                                             true,
                                             0,
                                             {2026, 3, 5},
                                             kDividendLastWith,
                                             {2026, 3, 31},
                                             0,
                                             120,
                                             1,
                                             1,
                                             "Anual/2025"});
                    market.events.push_back({"JRS CAP PROPRIO",
                                             true,
                                             0,
                                             {2026, 3, 5},
                                             kDividendLastWith,
                                             {2026, 3, 31},
                                             0,
                                             250,
                                             1,
                                             1,
                                             "Anual/2025"});
                    break;
                case kPerThousand:
                    // Quoted per 1,000 shares: R$ 0.005 to R$ 0.09 a share, R$ 5 to R$ 90 a lot.
                    i.fatcot = 1'000;
                    i.first_price = prng.Between(500, 9'000);
                    i.odd_lots = false;
                    i.option_series = 0;
                    market.cases.per_thousand.push_back(i.ticker);
                    break;
                case kNone:
                    break;
            }
            if (roles[c] != kNone) {
                i.daily = true;
            }
            market.instruments.push_back(std::move(i));
            if (roles[c] != kNone && roles[c] != kPerThousand) {
                const int count = roles[c] == kDividend ? 2 : 1;
                for (int e = 0; e < count; ++e) {
                    market.events[market.events.size() - 1 - static_cast<std::size_t>(e)].instrument =
                        static_cast<int>(market.instruments.size() - 1);
                }
            } else if (roles[c] == kNone && market.instruments.back().daily &&
                       market.instruments.back().kind == InstrumentKind::kShare &&
                       market.instruments.back().ticker != market.cases.renamed_from &&
                       market.instruments.back().ticker != market.cases.renamed_to && prng.Chance(300)) {
                // An ordinary cash event now and then, on a Wednesday between February and September.
                sdk::Date day = sdk::sample::RandomDate(prng, {2026, 2, 2}, {2026, 9, 25});
                while (sdk::sample::Weekday(day) != 3 || !IsB3TradingDay(day) ||
                       !IsB3TradingDay(sdk::sample::AddDays(day, 1))) {
                    day = sdk::sample::AddDays(day, 1);
                }
                const bool jcp = prng.Chance(400);
                market.events.push_back({jcp ? "JRS CAP PROPRIO" : "DIVIDENDO", true,
                                         static_cast<int>(market.instruments.size() - 1),
                                         sdk::sample::AddDays(day, -14), day, sdk::sample::AddDays(day, 12),
                                         0, prng.Between(40, 300), 1, 1,
                                         jcp ? "1º Trimestre/2026" : "Anual/2025"});
            }
        }
    }

    // Funds (CODBDI 12), ETFs (14, ESPECI CI) and BDRs (34, DRN).
    const std::size_t fiis = full ? 300 : 4;
    const std::size_t etfs = full ? 60 : 3;
    const std::size_t bdrs = full ? 400 : 4;
    for (std::size_t n = 0; n < fiis + etfs + bdrs; ++n) {
        Instrument i;
        const bool fii = n < fiis;
        const bool etf = !fii && n < fiis + etfs;
        i.issuer = Stem(fii ? 'Y' : etf ? 'X' : 'W', n);
        i.ticker = i.issuer + (fii || etf ? "11" : "34");
        i.kind = fii ? InstrumentKind::kFii : etf ? InstrumentKind::kEtf : InstrumentKind::kBdr;
        i.codbdi = fii ? 12 : etf ? 14 : 34;
        i.share_class = fii || etf ? "CI" : "DRN";
        i.nomres = fii   ? "FII " + i.issuer + " IM"
                   : etf ? "ETF " + i.issuer + " IND"
                         : std::string(kForeign[n % kForeign.size()]);
        i.isin = WithIsinCheckDigit("BR" + i.issuer + (fii || etf ? "CTF00" : "BDR00"));
        i.from = kFirstTradingDay;
        i.first_price = fii ? prng.Between(5'000, 15'000) : prng.Between(1'000, 9'000);
        i.daily = prng.Chance(fii ? 800 : 500);
        i.odd_lots = !fii && !etf && prng.Chance(700);  // funds and ETFs trade in lots of one
        market.instruments.push_back(std::move(i));
    }

    // By ticker, as B3 orders a day's records; the events follow their instruments.
    std::vector<int> order(market.instruments.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        order[i] = static_cast<int>(i);
    }
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        return market.instruments[static_cast<std::size_t>(a)].ticker <
               market.instruments[static_cast<std::size_t>(b)].ticker;
    });
    std::vector<int> position(order.size());
    std::vector<Instrument> sorted;
    for (std::size_t p = 0; p < order.size(); ++p) {
        position[static_cast<std::size_t>(order[p])] = static_cast<int>(p);
        sorted.push_back(std::move(market.instruments[static_cast<std::size_t>(order[p])]));
    }
    market.instruments = std::move(sorted);
    for (StockEvent& event : market.events) {
        event.instrument = position[static_cast<std::size_t>(event.instrument)];
    }
    for (std::size_t i = 0; i < market.instruments.size(); ++i) {
        if (market.instruments[i].ticker == market.cases.renamed_to) {
            for (std::size_t j = 0; j < market.instruments.size(); ++j) {
                if (market.instruments[j].ticker == market.cases.renamed_from) {
                    market.instruments[i].continues = static_cast<int>(j);
                }
            }
        }
    }

    // The walk: each instrument's closes, from its own stream. On an ex-date the close is the
    // day before's less the cash (rounded to the cent) or times the split ratio, exactly: the
    // day's own move is left out so that the event can be read from the file.
    const std::size_t days = market.days.size();
    market.closes.assign(market.instruments.size(), std::vector<std::int64_t>(days, 0));
    std::vector<std::int64_t> last(market.instruments.size(), 0);
    for (std::size_t i = 0; i < market.instruments.size(); ++i) {
        const Instrument& instrument = market.instruments[i];
        Prng walk = Prng::ForStream(seed, StreamOf("b3.cotahist/walk"), StreamOf(instrument.ticker));
        std::int64_t price = instrument.continues >= 0 ? last[static_cast<std::size_t>(instrument.continues)]
                                                       : instrument.first_price;
        if (instrument.continues >= 0 && price == 0) {
            throw std::logic_error("a renamed ticker sorts before the one it carries on");
        }
        const std::int64_t drift = walk.Between(-4, 6);
        bool pending = false;  // an event took effect since the last traded day
        std::int64_t adjusted = 0;
        for (std::size_t d = 0; d < days; ++d) {
            const sdk::Date& day = market.days[d];
            if (day < instrument.from || (instrument.to && *instrument.to < day)) {
                continue;
            }
            const bool trades = instrument.daily || !walk.Chance(200);
            const std::int64_t move = walk.Between(-220, 220) + drift;
            if (!trades) {
                continue;
            }
            std::int64_t close = 0;
            if (pending) {
                close = std::max<std::int64_t>(1, adjusted);
                pending = false;
            } else {
                close = std::max<std::int64_t>(instrument.fatcot > 1 ? 100 : 5,
                                               MulDiv(price, 10'000 + move, 10'000));
            }
            market.closes[i][d] = close;
            price = close;
            // The events whose last day with rights is today take effect from the next day.
            std::int64_t cash_cents_e8 = 0;
            bool any = false;
            adjusted = close;
            for (StockEvent& event : market.events) {
                if (event.instrument != static_cast<int>(i) || event.last_with != day) {
                    continue;
                }
                any = true;
                if (event.cash) {
                    // R$ 1e-4 precision, as B3's valueCash: yield_bp of the close.
                    event.value_e8 = std::max<std::int64_t>(1, MulDiv(close, event.yield_bp, 100)) * 10'000;
                    cash_cents_e8 += event.value_e8;
                } else {
                    adjusted = MulDiv(adjusted, event.shares_before, event.shares_after);
                }
            }
            if (any) {
                adjusted -= MulDiv(cash_cents_e8, 100, sdk::sample::kE8);
                pending = true;
            }
        }
        last[i] = price;
    }
    for (const StockEvent& event : market.events) {
        const auto& closes = market.closes[static_cast<std::size_t>(event.instrument)];
        const auto at = std::find(market.days.begin(), market.days.end(), event.last_with);
        if (at == market.days.end() || closes[static_cast<std::size_t>(at - market.days.begin())] == 0) {
            throw std::logic_error("a corporate action's last day with rights has no close: " +
                                   market.instruments[static_cast<std::size_t>(event.instrument)].ticker);
        }
    }
    return market;
}

}  // namespace lastro::stocks
