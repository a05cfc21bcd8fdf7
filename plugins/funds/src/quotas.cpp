#include "src/quotas.hpp"

#include "funds_model.hxx"
#include "src/class_reports.hpp"

#include <lastro/sdk/serving/dataset_meta.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lastro::funds {

namespace {

// The answer of /cotas (RowsText = FidcQuotaRowsText) or /cotas/operacoes
// (FidcOperationRowsText): the class's report of each month in [from, to] by ReportsBetween's
// preference, its stored rows in month order.
template <typename RowsText>
sdk::Result AnswerOfStoredRows(const sdk::RequestContext& context) {
    const auto from = context.params.MonthValue("from");
    const auto to = context.params.MonthValue("to");
    RequireOrderedRange(from, to);
    const ClassRef ref = FindClass(context, context.params.String("class_id").value_or(""));
    const std::vector<RowsText> months = ReportsBetween<RowsText>(context.db, ref, from, to);
    std::size_t size = 2;
    for (const RowsText& month : months) {
        size += month.json.size() + 1;
    }
    std::string data;
    data.reserve(size);
    data += '[';
    std::size_t row_count = 0;
    std::optional<std::string> latest_served;
    for (const RowsText& month : months) {
        if (month.rows == 0) {
            continue;
        }
        if (row_count > 0) {
            data += ',';
        }
        data += month.json;
        row_count += static_cast<std::size_t>(month.rows);
        latest_served = month.month;  // ascending
    }
    data += ']';
    sdk::Result result;
    result.meta = sdk::DatasetMeta(context.host, {kFidcReportDataset});
    result.meta.as_of = latest_served;  // the reference period: the latest month served (contract 2.2)
    result.meta.row_count = row_count;
    result.data_json = std::move(data);
    return result;
}

}  // namespace

sdk::Result HandleClassQuotas(const sdk::RequestContext& context) {
    return AnswerOfStoredRows<FidcQuotaRowsText>(context);
}

sdk::Result HandleClassQuotaOperations(const sdk::RequestContext& context) {
    return AnswerOfStoredRows<FidcOperationRowsText>(context);
}

}  // namespace lastro::funds
