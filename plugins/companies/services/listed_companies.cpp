#include "services/listed_companies.hpp"

#include <lastro/sdk/bulk_sql.hpp>

#include <boost/json/parse.hpp>

#include <charconv>

namespace lastro::companies {
namespace {

std::optional<std::string> Member(const boost::json::object& item, std::string_view key) {
    const auto* value = item.if_contains(key);
    return value && value->is_string() ? std::optional<std::string>(std::string(value->as_string()))
                                       : std::nullopt;
}

std::vector<ListedCompany> Companies(odb::database& db, const std::string& where, const std::string& value) {
    sdk::SqlSession sql(db);
    std::vector<ListedCompany> found;
    for (const auto& row : sql.Query("SELECT cvm_code, cnpj, item FROM companies_company WHERE " + where +
                                         " ORDER BY registered_at DESC, cvm_code DESC",
                                     {value})) {
        const boost::json::value parsed = boost::json::parse(*row[2]);
        const boost::json::object& item = parsed.as_object();
        ListedCompany company;
        company.cvm_code = std::stoll(*row[0]);
        company.cnpj = row[1];
        company.legal_name = Member(item, "legal_name");
        company.trade_name = Member(item, "trade_name");
        company.situation = Member(item, "situation");
        company.sector = Member(item, "sector");
        company.market = Member(item, "market");
        company.category = Member(item, "category");
        company.registered_at = Member(item, "registered_at");
        company.cancelled_at = Member(item, "cancelled_at");
        found.push_back(std::move(company));
    }
    return found;
}

std::vector<CompanySecurity> Securities(odb::database& db, const std::string& where,
                                        const std::string& value) {
    sdk::SqlSession sql(db);
    std::vector<CompanySecurity> found;
    for (const auto& row :
         sql.Query("SELECT cvm_code, cnpj, security, share_class, ticker, market, segment, trading_from, "
                   "trading_to,"
                   " listed_from, listed_to, reference_date, version, document_id, source_row FROM "
                   "companies_security"
                   " WHERE " +
                       where + " ORDER BY ticker IS NULL, ticker, cvm_code, document_id, source_row",
                   {value})) {
        CompanySecurity security;
        security.cvm_code = std::stoll(*row[0]);
        security.cnpj = row[1];
        security.security = row[2];
        security.share_class = row[3];
        security.ticker = row[4];
        security.market = row[5];
        security.segment = row[6];
        security.trading_from = row[7];
        security.trading_to = row[8];
        security.listed_from = row[9];
        security.listed_to = row[10];
        security.reference_date = row[11];
        security.version = std::stoll(*row[12]);
        security.document_id = std::stoll(*row[13]);
        security.source_row = std::stoll(*row[14]);
        found.push_back(std::move(security));
    }
    return found;
}

std::optional<std::int64_t> WholeNumber(const std::optional<std::string>& text) {
    if (!text) {
        return std::nullopt;
    }
    std::int64_t value = 0;
    const char* end = text->data() + text->size();
    const auto [at, error] = std::from_chars(text->data(), end, value);
    return error == std::errc() && at == end ? std::optional<std::int64_t>(value) : std::nullopt;
}

}  // namespace

std::vector<ListedCompany> ListedCompaniesReader::ByCnpj(odb::database& db, const std::string& cnpj) const {
    return Companies(db, "cnpj = $1", cnpj);
}

std::optional<ListedCompany> ListedCompaniesReader::ByCvmCode(odb::database& db,
                                                              std::int64_t cvm_code) const {
    std::vector<ListedCompany> found =
        Companies(db, "cvm_code = CAST($1 AS BIGINT)", std::to_string(cvm_code));
    return found.empty() ? std::nullopt : std::optional<ListedCompany>(std::move(found.front()));
}

std::vector<CompanySecurity> ListedCompaniesReader::Securities(odb::database& db,
                                                               std::int64_t cvm_code) const {
    return companies::Securities(db, "cvm_code = CAST($1 AS BIGINT)", std::to_string(cvm_code));
}

std::vector<CompanySecurity> ListedCompaniesReader::ByTicker(odb::database& db,
                                                             const std::string& ticker) const {
    return companies::Securities(db, "ticker = $1", ticker);
}

std::vector<SharesFigure> ListedCompaniesReader::SharesOutstanding(
    odb::database& db, std::int64_t cvm_code, const std::optional<std::string>& day) const {
    sdk::SqlSession sql(db);
    const std::string code = std::to_string(cvm_code);
    const std::string last_day = day.value_or("9999-12-31");
    const sdk::SqlRows latest = sql.Query(
        "SELECT MAX(reference_date) FROM companies_shares WHERE cvm_code = CAST($1 AS BIGINT) AND "
        "reference_date <= $2",
        {code, last_day});
    std::vector<SharesFigure> figures;
    if (latest.empty() || !latest[0][0]) {
        return figures;
    }
    for (const auto& row : sql.Query(
             "SELECT cnpj, reference_date, version, document_id, delivered_at, measure, share_class, "
             "quantity,"
             " source_table, source_row, source_column FROM companies_shares"
             " WHERE cvm_code = CAST($1 AS BIGINT) AND reference_date = $2 ORDER BY measure, share_class",
             {code, *latest[0][0]})) {
        SharesFigure figure;
        figure.cvm_code = cvm_code;
        figure.cnpj = row[0];
        figure.reference_date = *row[1];
        figure.version = std::stoll(*row[2]);
        figure.document_id = std::stoll(*row[3]);
        figure.delivered_at = row[4];
        figure.measure = *row[5];
        figure.share_class = *row[6];
        figure.quantity_published = row[7];
        figure.quantity = WholeNumber(row[7]);
        figure.source_table = *row[8];
        figure.source_row = std::stoll(*row[9]);
        figure.source_column = *row[10];
        figures.push_back(std::move(figure));
    }
    return figures;
}

}  // namespace lastro::companies
