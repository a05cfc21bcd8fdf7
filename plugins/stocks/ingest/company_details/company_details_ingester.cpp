// One ingest of B3's company details: every file read first (a bad one refuses the ingest before
// anything is written), then each issuer's details and codes replaced. An issuer whose details
// and codes read the same as stored counts as unchanged.
#include "ingest/company_details/company_details_ingester.hpp"

#include "domain/b3_json/b3_json.hpp"
#include "domain/b3_json/stored_values.hpp"
#include "domain/corporate_actions/corporate_actions.hpp"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/document_id.hpp>
#include <lastro/sdk/ingest/inputs.hpp>
#include <lastro/sdk/ingest/progress.hpp>
#include <lastro/sdk/ingest/values.hpp>
#include <lastro/sdk/problem.hpp>

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace lastro::stocks {
namespace {

namespace json = boost::json;

sdk::DatasetLayout Layout() {
    sdk::DatasetLayout layout;
    layout.dataset = std::string(kCompanyDetailsDataset);
    layout.tables.push_back({"named", sdk::NamePattern("GetDetailsCompany_{NAME}.json"), false});
    // The answer names its issuer (issuingCompany), so the plain name is enough.
    layout.tables.push_back({"plain", sdk::NamePattern("GetDetailsCompany.json"), false});
    layout.expected =
        "GetDetailsCompany_<ISSUER>.json (B3's answer for one issuer code, e.g. _ABEV), loose or zipped";
    return layout;
}

struct Details {
    std::string issuer;
    std::string file;
    StoredValues columns;  // cnpj .. codes, as stocks_issuer orders them
    std::vector<std::pair<std::string, std::optional<std::string>>> codes;  // ticker, ISIN; one per ticker
    std::string as_of;
};

Details DetailsOf(const DetailsAnswer& answer, const std::string& issuer, const std::string& file,
                  const std::string& modified_day) {
    Details details;
    details.issuer = issuer;
    details.file = file;
    // Only a valid CNPJ is kept: another cell would link the issuer to the wrong company.
    std::optional<std::string> cnpj;
    if (answer.cnpj) {
        cnpj = sdk::ClassifyDocument(*answer.cnpj).cnpj;
    }
    const IndustryClassification classification =
        answer.industry_classification ? SplitIndustryClassification(*answer.industry_classification)
                                       : IndustryClassification{};
    json::array codes;
    std::set<std::string> seen;
    for (const OtherCode& code : answer.other_codes) {
        json::object item{{"code", code.ticker}};
        item["isin"] = code.isin ? json::value(*code.isin) : json::value(nullptr);
        codes.push_back(std::move(item));
        std::string ticker = code.ticker;
        for (char& c : ticker) {
            c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
        }
        if (seen.insert(ticker).second) {
            details.codes.emplace_back(std::move(ticker), code.isin);
        }
    }
    details.columns = {
        cnpj,
        answer.cvm_code ? std::optional<std::string>(std::to_string(*answer.cvm_code)) : std::nullopt,
        answer.company_name,
        answer.trading_name,
        classification.sector,
        classification.subsector,
        classification.segment,
        answer.industry_classification,
        answer.market,
        json::serialize(codes)};
    details.as_of = answer.last_date ? answer.last_date->ToString() : modified_day;
    return details;
}

}  // namespace

sdk::IngestSummary CompanyDetailsIngester::Run(const sdk::IngestContext& context) {
    const sdk::IngestInputs inputs(context.inputs);
    const sdk::DatasetFiles files(inputs, Layout());
    files.RequireComplete();

    sdk::IngestSummary summary;
    sdk::RowCounter counter(context.progress, summary);
    std::map<std::string, Details> issuers;
    for (const sdk::TableFile& table : files.Tables()) {
        const std::string& file = table.file.display;
        counter.Stage(file);
        const DetailsAnswer answer = ReadDetails(*inputs.Open(table.file));
        counter.Row();
        const std::optional<std::string> issuer = IssuerCode(answer.issuing_company);
        if (!issuer) {
            throw sdk::IngestError(
                file, 0, "$: issuingCompany is not a B3 issuer code: " + sdk::Quoted(answer.issuing_company));
        }
        if (files.Spec(table).id == "named" && IssuerCode(table.name) != issuer) {
            throw sdk::IngestError(
                file, 0,
                "the file is named for issuer " + table.name + " but its issuingCompany is " + *issuer);
        }
        if (const auto given = issuers.find(*issuer); given != issuers.end()) {
            throw sdk::IngestError(file, 0,
                                   "a second GetDetailsCompany of issuer " + *issuer + " (the first is " +
                                       given->second.file + ")");
        }
        const std::string modified =
            sdk::UtcDate(inputs.ModifiedAt(table.file).value_or(context.now)).ToString();
        issuers.emplace(*issuer, DetailsOf(answer, *issuer, file, modified));
    }

    sdk::SqlSession sql(context.db);
    std::optional<std::string> latest;
    for (const auto& [issuer, details] : issuers) {
        const sdk::SqlRows stored = sql.Query(
            "SELECT cnpj, cvm_code, company_name, trading_name, sector, subsector, segment,"
            " classification_published, market, codes FROM stocks_issuer WHERE issuer = $1",
            {issuer});
        std::vector<std::pair<std::string, std::optional<std::string>>> stored_codes;
        for (const auto& row : sql.Query(
                 "SELECT ticker, isin FROM stocks_issuer_code WHERE issuer = $1 ORDER BY ticker", {issuer})) {
            stored_codes.emplace_back(*row[0], row[1]);
        }
        auto codes = details.codes;
        std::sort(codes.begin(), codes.end());
        const bool same_row =
            !stored.empty() && StoredValues(stored[0].begin(), stored[0].end()) == details.columns;
        if (same_row && stored_codes == codes) {
            ++summary.unchanged;
        } else {
            ++(stored.empty() || !stored[0][9] ? summary.inserted : summary.updated);
        }
        StoredValues values{issuer};
        values.insert(values.end(), details.columns.begin(), details.columns.end());
        values.push_back(details.file);
        values.push_back(details.as_of);
        sql.Execute(
            "INSERT INTO stocks_issuer (issuer, cnpj, cvm_code, company_name, trading_name, sector, "
            "subsector,"
            " segment, classification_published, market, codes, details_source, details_as_of)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)"
            " ON CONFLICT (issuer) DO UPDATE SET cnpj = excluded.cnpj, cvm_code = excluded.cvm_code,"
            " company_name = excluded.company_name, trading_name = excluded.trading_name,"
            " sector = excluded.sector, subsector = excluded.subsector, segment = excluded.segment,"
            " classification_published = excluded.classification_published, market = excluded.market,"
            " codes = excluded.codes, details_source = excluded.details_source,"
            " details_as_of = excluded.details_as_of",
            Views(values));
        sql.Execute("DELETE FROM stocks_issuer_code WHERE issuer = $1", {issuer});
        for (const auto& [ticker, isin] : details.codes) {
            sql.Execute("INSERT INTO stocks_issuer_code (ticker, issuer, isin) VALUES ($1, $2, $3)",
                        {ticker, issuer, isin ? sdk::SqlValue(*isin) : std::nullopt});
        }
        if (!latest || details.as_of > *latest) {
            latest = details.as_of;
        }
    }
    const std::string now = sdk::Rfc3339Utc(context.now);
    summary.release_label = "b3-company-details-" + now.substr(0, 10);
    summary.as_of = latest;
    return summary;
}

}  // namespace lastro::stocks
