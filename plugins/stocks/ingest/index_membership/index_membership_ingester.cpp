// One ingest of B3's index membership: every file read first (a bad one refuses the ingest before
// anything is written), then each file's scope replaced: GetStockIndex every row of source
// GetStockIndex, GetTheoricalPortfolio_<INDEX> that index's rows of source GetTheoricalPortfolio.
// The counts compare the new rows with the scope's stored rows by (index, ticker).
#include "ingest/index_membership/index_membership_ingester.hpp"

#include "domain/b3_json/b3_json.hpp"
#include "domain/b3_json/stored_values.hpp"
#include "domain/corporate_actions/corporate_actions.hpp"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/ingest/inputs.hpp>
#include <lastro/sdk/ingest/progress.hpp>
#include <lastro/sdk/ingest/values.hpp>
#include <lastro/sdk/problem.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lastro::stocks {
namespace {

constexpr const char* kStockIndexSource = "GetStockIndex";
constexpr const char* kPortfolioSource = "GetTheoricalPortfolio";

sdk::DatasetLayout Layout() {
    sdk::DatasetLayout layout;
    layout.dataset = std::string(kIndexMembershipDataset);
    layout.tables.push_back({"stock_index", sdk::NamePattern("GetStockIndex.json"), false});
    layout.tables.push_back({"portfolio", sdk::NamePattern("GetTheoricalPortfolio_{NAME}.json"), false});
    // Recognised only to be refused with the name it needs.
    layout.tables.push_back({"portfolio_plain", sdk::NamePattern("GetTheoricalPortfolio.json"), false});
    layout.expected =
        "GetStockIndex.json and GetTheoricalPortfolio_<INDEX>.json (e.g. _IBOV), loose or zipped";
    return layout;
}

// One file's rows: (index, ticker) -> as_of, theoretical quantity, weight as published.
struct Scope {
    std::string source;
    std::optional<std::string> index;  // a portfolio's index; nullopt: every index of the source
    std::string file;
    std::map<std::pair<std::string, std::string>, StoredValues> rows;
};

std::string Upper(std::string text) {
    for (char& c : text) {
        c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
    }
    return text;
}

}  // namespace

sdk::IngestSummary IndexMembershipIngester::Run(const sdk::IngestContext& context) {
    const sdk::IngestInputs inputs(context.inputs);
    const sdk::DatasetFiles files(inputs, Layout());
    files.RequireComplete();
    files.RefuseRepeats();

    sdk::IngestSummary summary;
    sdk::RowCounter counter(context.progress, summary);
    std::vector<Scope> scopes;
    std::map<std::string, std::string> portfolios;  // index -> file
    std::optional<std::string> latest;
    for (const sdk::TableFile& table : files.Tables()) {
        const std::string& id = files.Spec(table).id;
        const std::string& file = table.file.display;
        if (id == "portfolio_plain") {
            throw sdk::IngestError(file, 0,
                                   "B3's GetTheoricalPortfolio answer does not name its index: name the file "
                                   "GetTheoricalPortfolio_<INDEX>.json for the index it was asked for (e.g. "
                                   "GetTheoricalPortfolio_IBOV.json)");
        }
        counter.Stage(file);
        Scope scope;
        scope.file = file;
        if (id == "stock_index") {
            const StockIndexAnswer answer = ReadStockIndex(*inputs.Open(table.file));
            scope.source = kStockIndexSource;
            const std::optional<std::string> as_of =
                answer.update ? std::optional<std::string>(answer.update->ToString()) : std::nullopt;
            for (const StockIndexRecord& record : answer.records) {
                counter.Row();
                const std::string ticker = Upper(record.ticker);
                for (const std::string& index : record.indexes) {
                    // A ticker listed twice under an index is one membership: the first is kept.
                    scope.rows.emplace(std::make_pair(Upper(index), ticker),
                                       StoredValues{as_of, std::nullopt, std::nullopt});
                }
            }
            if (as_of && (!latest || *as_of > *latest)) {
                latest = as_of;
            }
        } else {
            const std::optional<std::string> index = IssuerCode(table.name);
            if (!index) {
                throw sdk::IngestError(file, 0,
                                       "the name's index " + sdk::Quoted(table.name) +
                                           " is not a B3 index code (letters and digits, e.g. IBOV)");
            }
            if (const auto given = portfolios.find(*index); given != portfolios.end()) {
                throw sdk::IngestError(
                    file, 0,
                    "a second portfolio of index " + *index + " (the first is " + given->second + ")");
            }
            portfolios.emplace(*index, file);
            const PortfolioAnswer answer = ReadTheoricalPortfolio(*inputs.Open(table.file));
            scope.source = kPortfolioSource;
            scope.index = index;
            // The answer carries no date: B3 serves the current portfolio, so its day is the download's.
            const std::string as_of =
                sdk::UtcDate(inputs.ModifiedAt(table.file).value_or(context.now)).ToString();
            for (const PortfolioRecord& record : answer.records) {
                counter.Row();
                scope.rows.emplace(
                    std::make_pair(*index, Upper(record.ticker)),
                    StoredValues{
                        as_of,
                        record.theoretical_quantity ? std::optional<std::string>(CanonicalDecimal(
                                                          record.theoretical_quantity->decimal))
                                                    : std::nullopt,
                        record.part ? std::optional<std::string>(record.part->published) : std::nullopt});
            }
            if (!latest || as_of > *latest) {
                latest = as_of;
            }
        }
        scopes.push_back(std::move(scope));
    }

    sdk::SqlSession sql(context.db);
    for (const Scope& scope : scopes) {
        std::string where = "source = $1";
        std::vector<sdk::SqlValue> key{scope.source};
        if (scope.index) {
            where += " AND index_code = $2";
            key.emplace_back(*scope.index);
        }
        std::map<std::pair<std::string, std::string>, StoredValues> stored;
        for (const auto& row :
             sql.Query("SELECT index_code, ticker, as_of, theoretical_quantity, weight_published"
                       " FROM stocks_index_member WHERE " +
                           where,
                       key)) {
            stored.emplace(std::make_pair(*row[0], *row[1]), StoredValues{row[2], row[3], row[4]});
        }
        for (const auto& [member, values] : scope.rows) {
            const auto found = stored.find(member);
            if (found == stored.end()) {
                ++summary.inserted;
            } else {
                ++(found->second == values ? summary.unchanged : summary.updated);
                stored.erase(found);
            }
        }
        summary.removed += stored.size();
        sql.Execute("DELETE FROM stocks_index_member WHERE " + where, key);
        sdk::BulkLoader load(context.db, "stocks_index_member",
                             {"source", "index_code", "ticker", "as_of", "theoretical_quantity",
                              "weight_published", "source_file"});
        for (const auto& [member, values] : scope.rows) {
            load.Add(
                {scope.source, member.first, member.second, values[0], values[1], values[2], scope.file});
        }
        load.Finish();
    }
    const std::string now = sdk::Rfc3339Utc(context.now);
    summary.release_label = "b3-index-membership-" + now.substr(0, 10);
    summary.as_of = latest;
    return summary;
}

}  // namespace lastro::stocks
