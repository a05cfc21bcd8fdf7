#include <lastro/sdk/testing/plugin_calls.hpp>

#include <lastro/sdk/testing/query_plans.hpp>

#include <gtest/gtest.h>
#include <boost/json/parse.hpp>
#include <odb/database.hxx>
#include <odb/statement.hxx>
#include <odb/tracer.hxx>
#include <odb/transaction.hxx>

#include <cstdlib>
#include <iostream>
#include <set>
#include <stdexcept>

namespace lastro::sdk::testing {
namespace {

// The SELECTs a handler executes (prepared once or not), for QueryPlanCheck.
class SelectRecorder : public odb::tracer {
public:
    void execute(odb::connection&, const odb::statement& statement) override { Record(statement.text()); }
    void execute(odb::connection&, const char* statement) override { Record(statement); }
    const std::set<std::string>& Selects() const { return selects_; }

private:
    void Record(const char* text) {
        const std::string sql(text);
        if (sql.rfind("SELECT", 0) == 0) {
            selects_.insert(sql);
        }
    }
    std::set<std::string> selects_;
};

void CheckPlans(odb::database& db, const std::string& operation_id, const std::set<std::string>& selects) {
    static const bool print = std::getenv("LASTRO_TEST_PRINT_PLANS") != nullptr;
    odb::transaction transaction(db.begin());
    for (const std::string& sql : selects) {
        const std::vector<std::string> plan = QueryPlan(db, sql);
        if (print) {
            std::cout << "plan of " << operation_id << ": " << sql << "\n";
            for (const std::string& line : plan) {
                std::cout << "    " << line << "\n";
            }
        }
        for (const std::string& scan : FullScans(plan)) {
            ADD_FAILURE() << operation_id << " reads a whole table or index (" << scan << "):\n" << sql;
        }
    }
    transaction.rollback();
}

}  // namespace

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
    const bool check = QueryPlanCheck::Active() && db.id() == odb::id_sqlite;
    SelectRecorder recorder;
    odb::transaction transaction(db.begin());
    if (check) {
        transaction.tracer(recorder);
    }
    const RequestContext context{operation_id, kRequestId, params, db, host, cursor_position};
    Result result = handler(context);
    transaction.commit();
    if (result.data_json) {  // tests read `data`: the text must parse (a throw fails the test)
        if (!result.data.is_null()) {
            throw std::logic_error(operation_id + " sets both data and data_json");
        }
        result.data = boost::json::parse(*result.data_json);
    }
    if (check) {
        CheckPlans(db, operation_id, recorder.Selects());
    }
    return result;
}

}  // namespace lastro::sdk::testing
