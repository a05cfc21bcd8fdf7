#include "domain/rows/positive_segments.hpp"

#include "funds_model-odb.hxx"

#include <lastro/sdk/data_migration.hpp>

#include <boost/json.hpp>
#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <stdexcept>
#include <utility>
#include <vector>

namespace lastro::funds {

std::optional<FidcPositiveSegments> PositiveSegmentsOf(std::int64_t report_id,
                                                       const std::optional<std::string>& segments_json) {
    if (!segments_json) {
        return std::nullopt;
    }
    boost::system::error_code error;
    const boost::json::value parsed = boost::json::parse(*segments_json, error);
    if (error || !parsed.is_array()) {
        throw std::runtime_error("FIDC report " + std::to_string(report_id) +
                                 " has a table II row but no well-formed segments_json");
    }
    boost::json::array positive;
    for (const boost::json::value& item : parsed.as_array()) {
        const boost::json::object* segment = item.if_object();
        const boost::json::value* value = segment ? segment->if_contains("value") : nullptr;
        if (!value || !value->is_number() || value->to_number<double>() <= 0) {
            continue;
        }
        boost::json::object kept;
        for (const char* key : {"code", "name"}) {
            const boost::json::value* field = segment->if_contains(key);
            kept[key] = field ? *field : boost::json::value(nullptr);
        }
        kept["value"] = *value;
        positive.push_back(std::move(kept));
    }
    return FidcPositiveSegments{report_id, boost::json::serialize(positive)};
}

std::size_t RebuildPositiveSegments(odb::database& db) {
    db.erase_query<FidcPositiveSegments>();
    // By report id, a batch at a time: a report's table II is a few kilobytes and there are
    // hundreds of thousands of reports.
    using ReportQuery = odb::query<FidcReport>;
    constexpr std::size_t kBatch = 5000;
    std::size_t written = 0;
    std::int64_t after = 0;
    for (;;) {
        std::vector<FidcReportSegments> batch;
        for (FidcReportSegments& row :
             db.query<FidcReportSegments>(odb::query<FidcReportSegments>(ReportQuery::id > after) +
                                          "ORDER BY" + ReportQuery::id + "LIMIT " + std::to_string(kBatch))) {
            batch.push_back(std::move(row));
        }
        if (batch.empty()) {
            return written;
        }
        after = batch.back().report_id;
        for (const FidcReportSegments& row : batch) {
            if (std::optional<FidcPositiveSegments> segments =
                    PositiveSegmentsOf(row.report_id, row.segments_json)) {
                db.persist(*segments);
                ++written;
            }
        }
    }
}

namespace {

void FillOnMigration(odb::database& db) {
    RebuildPositiveSegments(db);
}

// A database at funds 10 gets every stored report's positive segments on its way to 11.
const sdk::DataMigration<11> kFillOnMigration("funds", &FillOnMigration);

}  // namespace
}  // namespace lastro::funds
