// GET /v1/acoes/{ticker}/proventos: the events of the ticker's issuer (its first four characters,
// or its issuer in B3's company details when loaded) that apply to its ISIN or class, the ISIN
// from the ticker's latest quote (else from the company details); docs/api/proventos.md.
#include "domain/corporate_actions/corporate_actions.hpp"
#include "src/events_handlers.hpp"

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>

#include <boost/json/object.hpp>

#include <string>

namespace lastro::stocks {
namespace {

constexpr const char* kIssuer = "/v1/acoes/{ticker}/proventos";
constexpr std::size_t kDefaultLimit = 100;

std::string Upper(std::string text) {
    for (char& c : text) {
        c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
    }
    return text;
}

}  // namespace

sdk::Result HandleTickerEvents(const sdk::RequestContext& context) {
    const sdk::Params& params = context.params;
    const std::string ticker = Upper(params.String("ticker").value_or(""));
    sdk::Result result;
    result.meta =
        sdk::DatasetMeta(context.host, {kCorporateActionsDataset, "b3.cotahist", kCompanyDetailsDataset});
    sdk::SqlSession sql(context.db);

    std::optional<std::string> isin;
    std::string isin_source = "COTAHIST.CODISI";
    const sdk::SqlRows quote = sql.Query(
        "SELECT isin FROM stocks_quote WHERE ticker = $1 ORDER BY day DESC, isin LIMIT 1", {ticker});
    const sdk::SqlRows code = sql.Query(
        "SELECT issuer, isin FROM stocks_issuer_code WHERE ticker = $1 ORDER BY issuer LIMIT 1", {ticker});
    if (quote.empty() && code.empty()) {
        throw sdk::NotFound("ticker " + ticker + " is in no quote (b3.cotahist) nor company details (" +
                                std::string(kCompanyDetailsDataset) + ") loaded",
                            "ticker");
    }
    if (!quote.empty()) {
        isin = quote[0][0];
    }
    if (!isin && !code.empty()) {
        isin = code[0][1];
        isin_source = "GetDetailsCompany.otherCodes";
    }
    // B3's convention is the ticker's first four characters; the company details say it when loaded.
    std::optional<std::string> issuer = IssuerOfTicker(ticker);
    std::string issuer_source = "the ticker's first four characters";
    if (!code.empty()) {
        issuer = *code[0][0];
        issuer_source = "GetDetailsCompany.otherCodes";
    }
    if (!issuer) {
        throw sdk::NotFound(
            "ticker " + ticker + " names no B3 issuer (a ticker has at least five characters)", "ticker");
    }
    const std::optional<std::string> share_class = isin ? ShareClassOfIsin(*isin) : std::nullopt;

    const std::optional<sdk::Date> from = params.DateValue("from_date");
    const std::optional<sdk::Date> to = params.DateValue("to_date");
    if (from && to && *to < *from) {
        throw sdk::InvalidParameter(
            "to_date", "to_date (" + to->ToString() + ") is before from_date (" + from->ToString() + ")");
    }
    EventConditions conditions;
    conditions.Add("ca.issuer = ?", {*issuer});
    // The ticker's ISIN; an event published by class only (GetListedCashDividends' typeStock)
    // when the class is the ISIN's; an event with neither applies to the whole issuer.
    std::string applies = "(ca.isin IS NULL AND ca.share_type IS NULL)";
    std::vector<std::string> values;
    if (isin) {
        applies += " OR ca.isin = ?";
        values.push_back(*isin);
    }
    if (share_class) {
        applies += " OR (ca.isin IS NULL AND upper(ca.share_type) IN (?, ?))";
        values.push_back(*share_class);
        values.push_back(*share_class == "UNIT" ? "UNT" : *share_class);
    }
    conditions.Add("(" + applies + ")", values);
    if (from) {
        conditions.Add("ca.last_date_with_rights >= ?", {from->ToString()});
    }
    if (to) {
        conditions.Add("ca.last_date_with_rights <= ?", {to->ToString()});
    }
    result.meta.extra["ticker"] = boost::json::object{
        {"ticker", ticker},
        {"issuer", *issuer},
        {"issuer_source", issuer_source},
        {"isin", isin ? boost::json::value(*isin) : boost::json::value(nullptr)},
        {"isin_source", isin ? boost::json::value(isin_source) : boost::json::value(nullptr)},
        {"class", share_class ? boost::json::value(*share_class) : boost::json::value(nullptr)}};
    WriteEventPage(context, kIssuer, "ca.last_date_with_rights", std::move(conditions), kDefaultLimit,
                   result);
    return result;
}

}  // namespace lastro::stocks
