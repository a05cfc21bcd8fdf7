#include "domain/rows/quota_operation_rows.hpp"

#include "domain/fidc/fidc_series_label.hpp"
#include "domain/fidc/fidc_values.hpp"
#include "domain/rows/quota_rows.hpp"

#include <lastro/sdk/serving/money.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace lastro::funds {

namespace {

constexpr double kOutlierFactor = 10.0;

// The X_4 rows of one kind for one series and month: values and shares summed over the rows.
struct KindTotal {
    MaybeNumber value_brl;
    MaybeNumber shares;
};

KindTotal Total(const std::vector<const FidcQuotaOperation*>& rows, const std::string& kind) {
    std::vector<MaybeNumber> values;
    std::vector<MaybeNumber> shares;
    for (const FidcQuotaOperation* row : rows) {
        if (row->kind == kind) {
            values.push_back(row->value);
            shares.push_back(row->quota_count);
        }
    }
    return {sdk::SumOfAmounts(values), SumOfAll(shares)};  // null when a row left its field empty
}

// The amortization rows of one series and month, read (FidcQuotaOperation::reading).
struct AmortizationTotal {
    MaybeNumber value_brl;        // sum of the read amounts; null when any row is not read
    MaybeNumber published_value;  // sums of TAB_X_VL_TOTAL / TAB_X_QT_COTA as published
    MaybeNumber published_shares;
    std::int64_t unverified = 0;         // rows whose reading is unverified (or was never decided)
    std::optional<std::string> reading;  // the rows' reading; "unverified" when any is
};

AmortizationTotal Amortization(const std::vector<const FidcQuotaOperation*>& rows) {
    std::vector<MaybeNumber> read, values, shares;
    AmortizationTotal total;
    for (const FidcQuotaOperation* row : rows) {
        if (row->kind != "amortization") {
            continue;
        }
        values.push_back(row->value);
        shares.push_back(row->quota_count);
        read.push_back(row->value_brl);
        // A row ingested before the reading existed (schema 3) counts as unverified.
        const std::string reading = row->reading.value_or("unverified");
        if (reading == "unverified") {
            ++total.unverified;
        }
        if (!total.reading || reading == "unverified" ||
            (reading == "swapped" && *total.reading != "unverified")) {
            total.reading = reading;
        }
    }
    total.published_value = sdk::SumOfAmounts(values);
    total.published_shares = SumOfAll(shares);
    if (total.unverified == 0) {
        total.value_brl = sdk::SumOfAmounts(read);
    }
    return total;
}

// subscriptions − outflows, exact to the cent; null when either is missing (docs/api/quotas.md).
MaybeNumber NetFlow(const MaybeNumber& subscriptions, const MaybeNumber& outflows) {
    return sdk::MoneyDifference(subscriptions, outflows);
}

void WriteOperationRow(sdk::JsonText& json, const FidcQuotaReport& report, const FidcQuotaSeries& series,
                       const std::vector<const FidcQuotaOperation*>& rows) {
    const KindTotal subscriptions = Total(rows, "subscription");
    const KindTotal redemptions = Total(rows, "redemption");
    const KindTotal pending = Total(rows, "pending_redemption");
    const AmortizationTotal amortization = Amortization(rows);

    const bool outlier =
        IsSubscriptionOutlier(subscriptions.value_brl, subscriptions.shares, series.quota_value);
    const MaybeNumber subscriptions_brl = outlier ? std::nullopt : subscriptions.value_brl;
    // An amortization that could not be read leaves the totals that include it null (missing
    // is null, never zero); the flows without amortizations are served under their own names.
    const MaybeNumber outflows_excluding_amortization = redemptions.value_brl;
    const MaybeNumber net_flow_excluding_amortization = NetFlow(subscriptions_brl, redemptions.value_brl);
    MaybeNumber outflows;
    MaybeNumber net_flow;
    if (amortization.unverified == 0) {
        outflows = sdk::SumOfAmounts({redemptions.value_brl, amortization.value_brl});
        net_flow = NetFlow(subscriptions_brl, outflows);
    }

    json.BeginObject();
    WriteSeriesIdentity(json, report, series);
    json.Key("subscriptions_shares").Value(subscriptions.shares);
    json.Key("subscriptions_brl").Value(subscriptions_brl);
    json.Key("subscription_original_brl").Value(subscriptions.value_brl);
    json.Key("subscription_outlier_removed").Value(outlier);
    json.Key("paid_redemptions_shares").Value(redemptions.shares);
    json.Key("paid_redemptions_brl").Value(redemptions.value_brl);
    json.Key("pending_redemptions_shares").Value(pending.shares);
    json.Key("pending_redemptions_brl").Value(pending.value_brl);
    json.Key("amortization_brl").Value(amortization.value_brl);
    json.Key("amortization_per_share_brl").Value(Ratio(amortization.value_brl, series.quota_count));
    json.Key("amortization_reading").Value(amortization.reading);
    json.Key("amortization_unverified_count").Value(amortization.unverified);
    json.Key("amortization_published_value").Value(amortization.published_value);
    json.Key("amortization_published_shares").Value(amortization.published_shares);
    json.Key("net_flow_brl").Value(net_flow);
    json.Key("outflows_brl").Value(outflows);
    json.Key("net_flow_excluding_amortization_brl").Value(net_flow_excluding_amortization);
    json.Key("outflows_excluding_amortization_brl").Value(outflows_excluding_amortization);
    json.Key("manager_reference_nav_brl")
        .Value(sdk::RoundToCents(Product(series.quota_count, series.quota_value)));
    json.Key("other_operations").BeginArray();
    for (const FidcQuotaOperation* row : rows) {
        if (row->kind == "other") {
            json.BeginObject();
            json.Key("published_kind").Value(row->published_kind);
            json.Key("value_brl").Value(row->value);
            json.Key("shares").Value(row->quota_count);
            json.EndObject();
        }
    }
    json.EndArray();
    json.EndObject();
}

// The series of `report` with the operation's series key, or a stand-in built from the X_4 row
// when the series appears only in X_4 (seniority parsed from its label, no quota data).
FidcQuotaSeries SeriesFor(const std::vector<FidcQuotaSeries>& report_series,
                          const FidcQuotaOperation& operation) {
    for (const FidcQuotaSeries& series : report_series) {
        if (series.series_key == operation.series_key) {
            return series;
        }
    }
    FidcQuotaSeries stand_in;
    stand_in.report_id = operation.report_id;
    stand_in.label = operation.series_label;
    stand_in.series_key = operation.series_key;
    stand_in.seniority = std::string(SeniorityOf(operation.series_label));
    return stand_in;
}

}  // namespace

bool IsSubscriptionOutlier(const std::optional<double>& value_brl, const std::optional<double>& shares,
                           const std::optional<double>& quota_value_brl) {
    if (!value_brl || !shares || !quota_value_brl || *shares <= 0.0 || *quota_value_brl <= 0.0) {
        return false;
    }
    const double implied = *value_brl / *shares;
    return implied > *quota_value_brl * kOutlierFactor || implied * kOutlierFactor < *quota_value_brl;
}

std::size_t WriteOperationRows(sdk::JsonText& json, const FidcQuotaReport& report,
                               const std::vector<FidcQuotaSeries>& series,
                               const std::vector<FidcQuotaOperation>& operations) {
    // X_4 rows by series key, in table order.
    std::map<std::string, std::vector<const FidcQuotaOperation*>> by_series;
    for (const FidcQuotaOperation& operation : operations) {
        by_series[operation.series_key].push_back(&operation);
    }
    std::vector<std::pair<FidcQuotaSeries, const std::vector<const FidcQuotaOperation*>*>> rows;
    for (const auto& [key, series_rows] : by_series) {
        rows.emplace_back(SeriesFor(series, *series_rows.front()), &series_rows);
    }
    std::sort(rows.begin(), rows.end(),
              [](const auto& a, const auto& b) { return SeriesOrder(a.first, b.first); });
    for (const auto& [one, series_rows] : rows) {
        WriteOperationRow(json, report, one, *series_rows);
    }
    return rows.size();
}

}  // namespace lastro::funds
