#include <lastro/sdk/testing/plugin_calls.hpp>

#include <odb/database.hxx>
#include <odb/transaction.hxx>

namespace lastro::sdk::testing {

IngestSummary RunIngest(Ingester& ingester, odb::database& db, const std::string& dataset,
                        const std::vector<std::filesystem::path>& inputs, std::time_t now,
                        IngestProgress* progress) {
    RecordingProgress unused;
    odb::transaction transaction(db.begin());
    const IngestContext context{dataset, inputs, db, progress ? *progress : unused, now};
    IngestSummary summary = ingester.Run(context);
    transaction.commit();
    return summary;
}

IngestSummary RunDerivation(Derivation& derivation, odb::database& db, const std::string& dataset,
                            const std::string& source, const std::optional<std::vector<std::string>>& periods,
                            const Services& services, std::time_t now, IngestProgress* progress) {
    RecordingProgress unused;
    odb::transaction transaction(db.begin());
    const DerivationContext context{dataset, source, periods, db, services, progress ? *progress : unused,
                                    now};
    IngestSummary summary = derivation.Run(context);
    transaction.commit();
    return summary;
}

Result CallHandler(const Handler& handler, odb::database& db, const Params& params, const Host& host,
                   const std::optional<boost::json::value>& cursor_position,
                   const std::string& operation_id) {
    static const std::string kRequestId = "00000000-0000-4000-8000-000000000000";
    odb::transaction transaction(db.begin());
    const RequestContext context{operation_id, kRequestId, params, db, host, cursor_position};
    Result result = handler(context);
    transaction.commit();
    return result;
}

}  // namespace lastro::sdk::testing
