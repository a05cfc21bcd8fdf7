// The corporate-action operations (manifest.yaml, docs/api/proventos.md), and the page of events
// both answer from stocks_corporate_action.
#pragma once

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/plugin.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace lastro::stocks {

// GET /v1/acoes/{ticker}/proventos (src/events_ticker.cpp).
sdk::Result HandleTickerEvents(const sdk::RequestContext& context);
// GET /v1/proventos (src/events_market.cpp).
sdk::Result HandleEvents(const sdk::RequestContext& context);

// The conditions a page of events is read with: " AND ..." on `ca` (stocks_corporate_action),
// each '?' taking the next value as $1, $2... (src/events_page.cpp).
class EventConditions {
public:
    void Add(std::string condition, std::vector<std::string> values = {});
    const std::string& Where() const { return where_; }
    std::vector<sdk::SqlValue> Values() const { return {values_.begin(), values_.end()}; }

private:
    std::string where_;
    std::vector<std::string> values_;
};

// The SQL of an event's ex-date: the first trading day loaded after its last day with rights,
// when that day is loaded (null otherwise).
extern const char* const kExDateSql;

// One page of events matching `conditions`, newest first by `date_sql` (an expression on `ca`,
// nulls last) and then by id, both descending, after the request's cursor; `issuer` names the
// operation in a cursor refusal. Fills data_json, row_count and next_position.
void WriteEventPage(const sdk::RequestContext& context, const char* issuer, const std::string& date_sql,
                    EventConditions conditions, std::size_t default_limit, sdk::Result& result);

}  // namespace lastro::stocks
