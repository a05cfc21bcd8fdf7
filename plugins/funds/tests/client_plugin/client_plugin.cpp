// The fundsclient test plugin (manifest.yaml beside this file): a dependent of funds that uses
// only the SDK and <lastro/funds/services.hpp>.
#include "client_model-odb.hxx"
#include "client_model.hxx"

#include <lastro/funds/services.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/plugin.hpp>
#include <lastro/sdk/serving/money.hpp>

#include <boost/json.hpp>
#include <odb/database.hxx>

#include <cstdlib>
#include <ctime>
#include <memory>
#include <stdexcept>
#include <string>

namespace lastro::fundsclient {
namespace {

// Rebuilds the months the source ingest changed (every month when it cannot tell).
class TotalsDerivation : public sdk::Derivation {
public:
    sdk::IngestSummary Run(const sdk::DerivationContext& context) override {
        const auto& facts = context.services.Get<funds::FidcMonthlyFacts>();
        const std::vector<std::string> months = context.periods ? *context.periods : facts.Months(context.db);
        sdk::IngestSummary summary;
        summary.periods.emplace();
        const char* fail_month = std::getenv("LASTRO_FUNDSCLIENT_FAIL_MONTH");
        for (const std::string& month : months) {
            // The e2e suite makes a derivation fail, to see the source's ingest undone with it.
            if (fail_month && month == fail_month) {
                throw std::runtime_error("asked to fail on " + month + " by LASTRO_FUNDSCLIENT_FAIL_MONTH");
            }
            MonthlyTotal total;
            sdk::MoneySum nav;  // exact to the cent; the reports without a NAV are counted apart
            total.month = month;
            total.derived_at = sdk::Rfc3339Utc(context.now);
            facts.ForEachReport(context.db, month, [&](const funds::FidcMonthlyFact& fact) {
                ++total.reports;
                ++summary.rows_read;
                if (!fact.nav) {
                    ++total.nav_missing;
                    return;
                }
                nav.Add(fact.nav);
            });
            total.nav_total = nav.PartialTotal();
            std::unique_ptr<MonthlyTotal> stored(context.db.find<MonthlyTotal>(month));
            if (total.reports == 0) {
                if (stored) {
                    context.db.erase<MonthlyTotal>(month);
                    ++summary.removed;
                    summary.periods->push_back(month);
                }
                continue;
            }
            if (stored) {
                context.db.update(total);
                ++summary.updated;
            } else {
                context.db.persist(total);
                ++summary.inserted;
            }
            summary.periods->push_back(month);
        }
        summary.release_label = months.empty() ? "empty" : months.back();
        return summary;
    }
};

class FundsClientPlugin : public sdk::Plugin {
public:
    void Register(sdk::Registrar& registrar) override {
        registrar.AddHandler("fundsclient.locate", [this](const sdk::RequestContext& context) {
            const funds::Located located = locator_->ByCnpj(context.db, *context.params.String("cnpj"));
            if (located.Empty()) {
                throw sdk::NotFound("no fund or class has this CNPJ", "cnpj");
            }
            boost::json::array funds, classes;
            for (const auto& fund : located.funds) {
                funds.push_back(boost::json::value(fund.fund_id));
            }
            for (const auto& fund_class : located.classes) {
                classes.push_back(boost::json::value(fund_class.class_id));
            }
            sdk::Result result;
            result.data =
                boost::json::object{{"fund_ids", std::move(funds)}, {"class_ids", std::move(classes)}};
            return result;
        });
        registrar.AddHandler("fundsclient.totals", [](const sdk::RequestContext& context) {
            const std::string month = context.params.MonthValue("month")->ToString();
            std::unique_ptr<MonthlyTotal> total(context.db.find<MonthlyTotal>(month));
            if (!total) {
                throw sdk::NotFound("no totals for " + month, "month");
            }
            sdk::Result result;
            result.data = boost::json::object{
                {"month", total->month},
                {"reports", total->reports},
                {"nav_total_brl", total->nav_total ? boost::json::value(*total->nav_total) : nullptr},
                {"nav_missing", total->nav_missing},
                {"derived_at", total->derived_at},
            };
            if (auto release = context.host.LatestRelease("fundsclient.monthly_totals")) {
                result.meta.data_release = release->label;
            }
            result.meta.sources.push_back({"lastro", "fundsclient.monthly_totals"});
            return result;
        });
        registrar.AddDerivation("fundsclient.monthly_totals", std::make_shared<TotalsDerivation>());
    }
    void Start(const sdk::StartContext& context) override {
        locator_ = &context.services.Get<funds::FundLocator>();
    }

private:
    const funds::FundLocator* locator_ = nullptr;
};

}  // namespace
}  // namespace lastro::fundsclient

LASTRO_PLUGIN(lastro::fundsclient::FundsClientPlugin)
