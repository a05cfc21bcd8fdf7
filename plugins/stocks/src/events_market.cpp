// GET /v1/proventos: every corporate action loaded, filtered on the day chosen by date_field
// (last day with rights, ex-date or payment date) and on kind; docs/api/proventos.md.
#include "domain/corporate_actions/corporate_actions.hpp"
#include "src/events_handlers.hpp"

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>

#include <string>

namespace lastro::stocks {
namespace {

constexpr const char* kIssuer = "/v1/proventos";
constexpr std::size_t kDefaultLimit = 100;

}  // namespace

sdk::Result HandleEvents(const sdk::RequestContext& context) {
    const sdk::Params& params = context.params;
    sdk::Result result;
    result.meta = sdk::DatasetMeta(context.host, {kCorporateActionsDataset, "b3.cotahist"});

    const std::string date_field = params.String("date_field").value_or("last_date_with_rights");
    std::string date_sql;
    if (date_field == "last_date_with_rights") {
        date_sql = "ca.last_date_with_rights";
    } else if (date_field == "payment_date") {
        date_sql = "ca.payment_date";
    } else if (date_field == "ex_date") {
        date_sql = kExDateSql;
    } else {
        throw sdk::InvalidParameter(
            "date_field",
            "expected last_date_with_rights, ex_date or payment_date, found '" + date_field + "'");
    }
    const std::optional<sdk::Date> from = params.DateValue("from_date");
    const std::optional<sdk::Date> to = params.DateValue("to_date");
    if (from && to && *to < *from) {
        throw sdk::InvalidParameter(
            "to_date", "to_date (" + to->ToString() + ") is before from_date (" + from->ToString() + ")");
    }
    EventConditions conditions;
    if (from) {
        conditions.Add(date_sql + " >= ?", {from->ToString()});
    }
    if (to) {
        conditions.Add(date_sql + " <= ?", {to->ToString()});
    }
    if (const std::optional<std::string> kind = params.String("kind")) {
        conditions.Add("ca.kind = ?", {*kind});
    }
    result.meta.extra["date_field"] = date_field;
    WriteEventPage(context, kIssuer, date_sql, std::move(conditions), kDefaultLimit, result);
    return result;
}

}  // namespace lastro::stocks
