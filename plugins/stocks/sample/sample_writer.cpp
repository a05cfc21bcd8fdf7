#include "sample/sample_writer.hpp"

#include "sample/cotahist_line.hpp"

#include <lastro/sdk/sample/date_math.hpp>
#include <lastro/sdk/sample/money.hpp>
#include <lastro/sdk/sample/prng.hpp>
#include <lastro/sdk/sample/sample_directory.hpp>

#include <boost/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>

namespace lastro::stocks {
namespace {

using sdk::sample::MulDiv;
using sdk::sample::Prng;
using sdk::sample::StreamOf;

// The third Friday of the month: B3's monthly option expiry.
sdk::Date ThirdFriday(int year, int month) {
    sdk::Date day{year, month, 1};
    while (sdk::sample::Weekday(day) != 5) {
        day = sdk::sample::AddDays(day, 1);
    }
    return sdk::sample::AddDays(day, 14);
}

// A day's prices around `close`, and quantity and volume with PREMED = VOLTOT x FATCOT / QUATOT
// truncated, as B3 computes it: the volume carries up to one cent per FATCOT shares' lot more
// than the average's, which truncation drops and rounding would not.
void Fill(CotahistQuote& q, std::int64_t close, std::int64_t quantity, Prng& prng) {
    q.close = close;
    q.open = std::max<std::int64_t>(1, MulDiv(close, 10'000 + prng.Between(-150, 150), 10'000));
    const std::int64_t swing = std::max<std::int64_t>(1, close / 60);
    q.high = std::max(q.open, close) + prng.Between(0, swing);
    q.low = std::max<std::int64_t>(1, std::min(q.open, close) - prng.Between(0, swing));
    q.quantity = quantity;
    const std::int64_t lots = std::max<std::int64_t>(1, quantity / q.fatcot);
    if (q.high > q.low) {
        q.average = prng.Between(q.low, q.high - 1);
        q.volume = MulDiv(q.average, quantity, q.fatcot) + prng.Between(0, lots - 1);
    } else {
        q.average = q.low;
        q.volume = MulDiv(q.average, quantity, q.fatcot);
    }
    q.average = static_cast<std::int64_t>(static_cast<__int128>(q.volume) * q.fatcot / quantity);
    q.trades = std::min<std::int64_t>(99'999, prng.Between(1, quantity / 100 + 1));
    q.best_bid = prng.Chance(40) ? 0 : std::max<std::int64_t>(1, close - prng.Between(0, 2));
    q.best_ask = prng.Chance(40) ? 0 : close + prng.Between(0, 2);
}

std::string Spotlight(const Instrument& i) {
    // GetStockIndex's "spotlight": the class in 5 and the segment ("ON   NM"), "DRN" alone.
    std::string text = i.share_class;
    if (!i.segment.empty()) {
        text.append(5 - std::min<std::size_t>(5, text.size()), ' ');
        text += i.segment;
    }
    return text;
}

boost::json::object Page(std::size_t records) {
    return {
        {"pageNumber", 1}, {"pageSize", 9999}, {"totalRecords", records}, {"totalPages", records ? 1 : 0}};
}

std::string IndustryClassification(const std::string& cvm_sector) {
    static const std::map<std::string, std::string> kB3{
        {"Energia Elétrica", "Utilidade Pública / Energia Elétrica / Energia Elétrica"},
        {"Saneamento, Serv. Água e Gás", "Utilidade Pública / Água e Saneamento / Água e Saneamento"},
        {"Metalurgia e Siderurgia", "Materiais Básicos / Siderurgia e Metalurgia / Siderurgia"},
        {"Alimentos", "Consumo não Cíclico / Alimentos Processados / Carnes e Derivados"},
        {"Serviços Transporte e Logística", "Bens Industriais / Transporte / Transporte Rodoviário"},
        {"Construção Civil, Mat. Constr. e Decoração", "Consumo Cíclico / Construção Civil / Incorporações"},
        {"Têxtil e Vestuário", "Consumo Cíclico / Tecidos, Vestuário e Calçados / Fios e Tecidos"},
        {"Extração Mineral", "Materiais Básicos / Mineração / Minerais Metálicos"},
        {"Telecomunicações", "Comunicações / Telecomunicações / Telecomunicações"},
        {"Papel e Celulose", "Materiais Básicos / Madeira e Papel / Papel e Celulose"},
        {"Securitização de Recebíveis",
         "Financeiro / Securitizadoras de Recebíveis / Securitizadoras de Recebíveis"},
    };
    const auto it = kB3.find(cvm_sector);
    return it == kB3.end() ? "Outros / Outros / Outros" : it->second;
}

std::string Market(const std::string& segment) {
    return segment == "NM"   ? "NOVO MERCADO"
           : segment == "N1" ? "NIVEL 1"
           : segment == "N2" ? "NIVEL 2"
                             : "BOLSA";
}

std::string Json(const boost::json::value& value) {
    return boost::json::serialize(value);
}

}  // namespace

std::int64_t WriteCotahist(const StockMarket& market, std::uint64_t seed,
                           const std::function<void(const std::string&)>& emit) {
    std::int64_t records = 0;
    emit(CotahistHeader(kCotahistYear, kStocksReferenceDate));
    ++records;
    std::vector<std::pair<std::string, std::string>> lines;  // one day's, sorted by ticker and market
    for (std::size_t d = 0; d < market.days.size(); ++d) {
        const sdk::Date& day = market.days[d];
        lines.clear();
        for (std::size_t i = 0; i < market.instruments.size(); ++i) {
            const Instrument& instrument = market.instruments[i];
            const std::int64_t close = market.closes[i][d];
            if (close == 0) {
                continue;
            }
            Prng prng = Prng::ForStream(seed, StreamOf("b3.cotahist/day"), StreamOf(instrument.ticker) + d);
            int dismes = 100 + static_cast<int>(StreamOf(instrument.isin) % 40);
            for (const StockEvent& event : market.events) {
                dismes += event.instrument == static_cast<int>(i) && event.last_with < day ? 1 : 0;
            }
            CotahistQuote q;
            q.day = day;
            q.codbdi = instrument.codbdi;
            q.ticker = instrument.ticker;
            q.tpmerc = 10;
            q.nomres = instrument.nomres;
            q.especi = Especi(instrument.share_class, "", instrument.segment);
            q.fatcot = instrument.fatcot;
            q.isin = instrument.isin;
            q.dismes = dismes;
            const std::int64_t quantity = instrument.fatcot > 1 ? prng.Between(1, 20'000) * instrument.fatcot
                                          : instrument.daily    ? prng.Between(10, 40'000) * 100
                                                                : prng.Between(1, 300) * 100;
            Fill(q, close, quantity, prng);
            lines.emplace_back(q.ticker + " 010", CotahistLine(q));
            if (instrument.odd_lots && prng.Chance(850)) {
                CotahistQuote odd = q;
                odd.codbdi = 96;
                odd.tpmerc = 20;
                odd.ticker = instrument.ticker + "F";
                Fill(odd, std::max<std::int64_t>(1, MulDiv(close, 10'000 + prng.Between(-60, 60), 10'000)),
                     prng.Between(1, 4'000), prng);
                lines.emplace_back(odd.ticker + " 020", CotahistLine(odd));
            }
            if (instrument.option_series > 0) {
                sdk::Date expiry = ThirdFriday(day.year, day.month);
                if (expiry < day) {
                    expiry =
                        day.month == 12 ? ThirdFriday(day.year + 1, 1) : ThirdFriday(day.year, day.month + 1);
                }
                const int pairs = (instrument.option_series + 1) / 2;
                for (int s = 0; s < instrument.option_series; ++s) {
                    const bool call = s % 2 == 0;
                    CotahistQuote o;
                    o.day = day;
                    o.codbdi = call ? 78 : 82;
                    o.tpmerc = call ? 70 : 80;
                    o.ticker = instrument.issuer + static_cast<char>((call ? 'A' : 'M') + expiry.month - 1) +
                               std::to_string(10 + s / 2);
                    o.nomres = instrument.issuer + "E";
                    o.especi = q.especi;
                    o.prazot = "000";
                    o.strike = std::max<std::int64_t>(1, MulDiv(close, 80 + 40 * (s / 2) / pairs, 100));
                    o.expiry = expiry;
                    o.isin = instrument.isin;
                    o.dismes = dismes;
                    const std::int64_t intrinsic =
                        std::max<std::int64_t>(0, call ? close - o.strike : o.strike - close);
                    Fill(o, intrinsic + std::max<std::int64_t>(1, MulDiv(close, prng.Between(5, 60), 1'000)),
                         prng.Between(1, 500) * 100, prng);
                    lines.emplace_back(o.ticker + (call ? " 070" : " 080"), CotahistLine(o));
                }
            }
        }
        std::sort(lines.begin(), lines.end());
        for (const auto& [key, line] : lines) {
            emit(line);
            ++records;
        }
    }
    ++records;
    emit(CotahistTrailer(kCotahistYear, kStocksReferenceDate, records));
    return records;
}

sdk::SampleReport StocksSampleWriter::Write(const sdk::SampleRequest& request) {
    const bool full = request.scale == sdk::SampleScale::kFull;
    const StockMarket market = DrawStockMarket(request.seed, request.scale);
    sdk::sample::SampleDirectory out(request.out_dir,
                                     sdk::sample::ArchiveTimestamp(request.seed, kStocksReferenceDate));
    sdk::SampleReport report;
    const std::string member = "COTAHIST_A" + std::to_string(kCotahistYear) + ".TXT";
    const std::string zip = "COTAHIST_A" + std::to_string(kCotahistYear) + ".ZIP";
    std::int64_t records = 0;
    std::filesystem::path streamed;
    if (full) {
        // The SDK's zips are built in memory; a full year (about 540 MB) is streamed to disk
        // unzipped instead, a form B3's file also takes once unzipped and the dataset accepts.
        std::filesystem::remove(request.out_dir / zip);
        streamed = request.out_dir / member;
        std::ofstream file(streamed, std::ios::binary | std::ios::trunc);
        if (!file) {
            throw std::runtime_error(streamed.string() + ": cannot write");
        }
        records = WriteCotahist(market, request.seed, [&](const std::string& line) { file << line; });
        file.close();
        if (!file) {
            throw std::runtime_error(streamed.string() + ": write failed");
        }
    } else {
        std::filesystem::remove(request.out_dir / member);
        std::string bytes;
        records = WriteCotahist(market, request.seed, [&](const std::string& line) { bytes += line; });
        out.WriteZip(zip, {{member, std::move(bytes)}});
    }

    // Per issuer: the companies of the listing, under the stem of their latest tickers.
    std::map<int, std::vector<std::size_t>> of_company;  // company -> instruments
    for (std::size_t i = 0; i < market.instruments.size(); ++i) {
        if (market.instruments[i].company >= 0) {
            of_company[market.instruments[i].company].push_back(i);
        }
    }
    const std::size_t last_day = market.days.size() - 1;
    std::size_t events_written = 0;
    for (const auto& [c, instruments] : of_company) {
        const companies::ListedSampleCompany& company = market.listing[static_cast<std::size_t>(c)];
        const Instrument& main = market.instruments[instruments.front()];
        std::string issuer = main.issuer;
        for (const std::size_t i : instruments) {
            if (!market.instruments[i].to) {
                issuer = market.instruments[i].issuer;  // a rename's new stem is the issuer's code now
            }
        }
        // Cash events, latest first (B3's order).
        std::vector<const StockEvent*> events;
        for (const StockEvent& event : market.events) {
            if (std::find(instruments.begin(), instruments.end(),
                          static_cast<std::size_t>(event.instrument)) != instruments.end()) {
                events.push_back(&event);
            }
        }
        std::stable_sort(events.begin(), events.end(), [](const StockEvent* a, const StockEvent* b) {
            return b->last_with < a->last_with;
        });
        boost::json::array cash_results;
        boost::json::array cash_supplement;
        boost::json::array stock_supplement;
        for (const StockEvent* event : events) {
            const Instrument& instrument = market.instruments[static_cast<std::size_t>(event->instrument)];
            ++events_written;
            if (!event->cash) {
                stock_supplement.push_back({{"assetIssued", instrument.isin},
                                            {"factor", PublishedStockFactor(*event)},
                                            {"approvedOn", PtDate(event->approved)},
                                            {"isinCode", instrument.isin},
                                            {"label", event->label},
                                            {"lastDatePrior", PtDate(event->last_with)},
                                            {"remarks", ""}});
                continue;
            }
            const std::size_t d = static_cast<std::size_t>(
                std::find(market.days.begin(), market.days.end(), event->last_with) - market.days.begin());
            const std::int64_t close = market.closes[static_cast<std::size_t>(event->instrument)][d];
            // corporateActionPrice = 100 x valueCash / closingPricePriorExDate, 6 decimals, rounded
            // (ABEV's 0,1334 / 16,07 is 0,830118): in 1e-6 %, value_e8 x 100 / close in cents.
            const std::int64_t price_e6 = MulDiv(event->value_e8, 100, close);
            cash_results.push_back({{"typeStock", instrument.share_class},
                                    {"dateApproval", PtDate(event->approved)},
                                    {"valueCash", PtDecimal(event->value_e8, 8, true)},
                                    {"ratio", "1"},
                                    {"corporateAction", event->label},
                                    {"lastDatePriorEx", PtDate(event->last_with)},
                                    {"dateClosingPricePriorExDate", PtDate(event->last_with)},
                                    {"closingPricePriorExDate", PtDecimal(close, 2)},
                                    {"quotedPerShares", std::to_string(instrument.fatcot)},
                                    {"corporateActionPrice", PtDecimal(price_e6, 6)},
                                    {"lastDateTimePriorEx", event->last_with.ToString() + "T00:00:00"}});
            cash_supplement.push_back({{"assetIssued", instrument.isin},
                                       {"paymentDate", PtDate(event->payment)},
                                       {"rate", PtDecimal(event->value_e8 * 1'000, 11)},
                                       {"relatedTo", event->related_to},
                                       {"approvedOn", PtDate(event->approved)},
                                       {"isinCode", instrument.isin},
                                       {"label", event->label},
                                       {"lastDatePrior", PtDate(event->last_with)},
                                       {"remarks", ""}});
        }
        boost::json::array subscriptions;
        if (main.ticker == market.cases.dividend_ticker) {
            // One subscription right, which moves no price.
            subscriptions.push_back(
                {{"assetIssued", main.isin},
                 {"percentage", "5,00000000000"},
                 {"priceUnit", PtDecimal(market.closes[instruments.front()][last_day] * 900'000'000, 11)},
                 {"tradingPeriod", "14/09/2026 a 25/09/2026"},
                 {"subscriptionDate", "30/09/2026"},
                 {"approvedOn", "01/09/2026"},
                 {"isinCode", main.isin},
                 {"label", "SUBSCRICAO"},
                 {"lastDatePrior", "10/09/2026"},
                 {"remarks", ""}});
        }
        boost::json::object cash_file{{"page", Page(cash_results.size())}, {"results", cash_results}};
        out.Write("GetListedCashDividends_" + issuer + ".json", Json(cash_file));

        const std::int64_t common = main.common_shares;
        std::int64_t preferred = 0;
        for (const std::size_t i : instruments) {
            preferred = std::max(preferred, market.instruments[i].preferred_shares);
        }
        std::string trading_name = main.nomres;
        trading_name.append(12 - std::min<std::size_t>(12, trading_name.size()), ' ');  // B3 pads it
        boost::json::object supplement{{"stockCapital", PtDecimal((common + preferred) * 347 + 22, 2)},
                                       {"quotedPerSharSince", main.fatcot > 1 ? "02/01/2012" : "01/11/2013"},
                                       {"commonSharesForm", "Escritural"},
                                       {"preferredSharesForm", preferred ? "Escritural" : ""},
                                       {"hasCommom", "BRADESCO"},
                                       {"hasPreferred", preferred ? "BRADESCO" : ""},
                                       {"roundLot", std::to_string(main.fatcot > 1 ? main.fatcot : 100)},
                                       {"tradingName", trading_name},
                                       {"numberCommonShares", PtInteger(common)},
                                       {"numberPreferredShares", PtInteger(preferred)},
                                       {"totalNumberShares", PtInteger(common + preferred)},
                                       {"code", issuer},
                                       {"codeCVM", std::to_string(company.cvm_code)},
                                       {"segment", Market(main.segment)},
                                       {"cashDividends", cash_supplement},
                                       {"stockDividends", stock_supplement},
                                       {"subscriptions", subscriptions}};
        out.Write("GetListedSupplementCompany_" + issuer + ".json", Json(boost::json::array{supplement}));

        boost::json::array other_codes;
        std::string code = main.ticker;
        for (const std::size_t i : instruments) {
            const Instrument& instrument = market.instruments[i];
            if (!instrument.to) {
                other_codes.push_back({{"code", instrument.ticker}, {"isin", instrument.isin}});
                if (code == main.ticker && main.to) {
                    code = instrument.ticker;
                }
            }
        }
        std::string upper;
        for (const char ch : company.legal_name) {
            upper += ch >= 'a' && ch <= 'z' ? static_cast<char>(ch - 'a' + 'A') : ch;
        }
        boost::json::object details{{"issuingCompany", issuer},
                                    {"companyName", upper},
                                    {"tradingName", main.nomres},
                                    {"cnpj", company.cnpj},
                                    {"industryClassification", IndustryClassification(company.sector)},
                                    {"industryClassificationEng", nullptr},
                                    {"activity", "Atividades de " + company.sector + "."},
                                    {"website", "https://ri." + issuer + ".com.br"},
                                    {"hasQuotation", nullptr},
                                    {"status", "A"},
                                    {"marketIndicator", "1"},
                                    {"market", Market(main.segment)},
                                    {"institutionCommon", "BRADESCO"},
                                    {"institutionPreferred", preferred ? "BRADESCO" : ""},
                                    {"code", code},
                                    {"codeCVM", std::to_string(company.cvm_code)},
                                    {"lastDate", PtDate(kStocksReferenceDate) + " 23:05:06"},
                                    {"otherCodes", other_codes},
                                    {"hasEmissions", false},
                                    {"hasBDR", false},
                                    {"typeBDR", nullptr},
                                    {"describleCategoryBVMF", nullptr}};
        out.Write("GetDetailsCompany_" + issuer + ".json", Json(details));
    }

    // Index membership on the reference day: the shares, units and BDRs that traded on it.
    Prng indexes = Prng::ForStream(request.seed, StreamOf("b3.index_membership"));
    struct Member {
        std::size_t instrument;
        std::string indexes;
    };
    std::vector<Member> members;
    std::vector<std::size_t> ibov;
    for (std::size_t i = 0; i < market.instruments.size(); ++i) {
        const Instrument& instrument = market.instruments[i];
        if (instrument.kind == InstrumentKind::kFii || instrument.kind == InstrumentKind::kEtf ||
            market.closes[i][last_day] == 0) {
            continue;
        }
        std::vector<std::string> names;
        if (instrument.kind == InstrumentKind::kBdr) {
            names.push_back("BDRX");
        } else {
            const bool in_ibov = instrument.fatcot == 1 &&
                                 (instrument.ticker == market.cases.dividend_ticker || indexes.Chance(450));
            if (in_ibov) {
                names.push_back("IBOV");
                ibov.push_back(i);
            }
            if (in_ibov || indexes.Chance(500)) {
                names.push_back("IBRA");
            }
            if (!instrument.segment.empty()) {
                names.push_back("IGCT");
                names.push_back("IGCX");
            }
            if (instrument.segment == "NM") {
                names.push_back("IGNM");
            }
            if (instrument.segment == "NM" || instrument.segment == "N2") {
                names.push_back("ITAG");
            }
            if (!in_ibov && indexes.Chance(400)) {
                names.push_back("SMLL");
            }
        }
        if (names.empty()) {
            continue;
        }
        std::sort(names.begin(), names.end());
        std::string joined;
        for (const std::string& name : names) {
            joined += (joined.empty() ? "" : ",") + name;
        }
        members.push_back({i, joined});
    }
    std::stable_sort(members.begin(), members.end(), [&](const Member& a, const Member& b) {
        return market.instruments[a.instrument].nomres < market.instruments[b.instrument].nomres;
    });
    boost::json::array stock_index;
    for (const Member& m : members) {
        const Instrument& instrument = market.instruments[m.instrument];
        stock_index.push_back({{"company", instrument.nomres},
                               {"spotlight", Spotlight(instrument)},
                               {"code", instrument.ticker},
                               {"indexes", m.indexes}});
    }
    out.Write("GetStockIndex.json", Json(boost::json::object{{"page", Page(stock_index.size())},
                                                             {"header",
                                                              {{"update", kStocksReferenceDate.ToString()},
                                                               {"startMonth", 9},
                                                               {"endMonth", 12},
                                                               {"year", kStocksReferenceDate.year}}},
                                                             {"results", stock_index}}));

    // IBOV's theoretical portfolio: quantities invented, parts (3 decimals) summing to 100,000.
    std::vector<std::int64_t> quantities;
    std::vector<std::int64_t> weights;
    std::int64_t total_quantity = 0;
    __int128 total_value = 0;
    for (const std::size_t i : ibov) {
        const Instrument& instrument = market.instruments[i];
        const std::int64_t quantity = MulDiv(std::max(instrument.common_shares, instrument.preferred_shares),
                                             indexes.Between(300, 900), 1'000);
        quantities.push_back(quantity);
        weights.push_back(MulDiv(quantity, market.closes[i][last_day], 100'000));
        total_quantity += quantity;
        total_value += static_cast<__int128>(quantity) * market.closes[i][last_day];
    }
    const std::vector<std::int64_t> parts = sdk::sample::Allocate(100'000, weights);
    boost::json::array portfolio;
    for (std::size_t k = 0; k < ibov.size(); ++k) {
        const Instrument& instrument = market.instruments[ibov[k]];
        portfolio.push_back({{"cod", instrument.ticker},
                             {"asset", instrument.nomres},
                             {"type", Especi(instrument.share_class, "", instrument.segment)},
                             {"theoricalQty", PtInteger(quantities[k])},
                             {"part", PtDecimal(parts[k], 3)},
                             {"cont", k + 1}});
    }
    // The reductor turns the portfolio's value into points: about 130,000 points here.
    const std::int64_t reductor_e8 = static_cast<std::int64_t>(total_value * 1'000'000 / 130'000);
    out.Write("GetTheoricalPortfolio_IBOV.json",
              Json(boost::json::object{{"page", Page(portfolio.size())},
                                       {"header",
                                        {{"part", "100,000"},
                                         {"theoricalQty", PtInteger(total_quantity)},
                                         {"reductor", PtDecimal(reductor_e8, 8)}}},
                                       {"results", portfolio}}));

    report.files = out.Files();
    if (full) {
        report.files.insert(report.files.begin(), streamed);
    }
    report.counts.push_back({"tickers", market.instruments.size()});
    report.counts.push_back({"trading days", market.days.size()});
    report.counts.push_back({"COTAHIST records", static_cast<std::size_t>(records)});
    report.counts.push_back({"issuers", of_company.size()});
    report.counts.push_back({"corporate actions", events_written});
    if (full) {
        report.notes.push_back(
            "COTAHIST_A2026.TXT is written unzipped at scale full: streamed, not held in memory");
    }
    return report;
}

}  // namespace lastro::stocks
