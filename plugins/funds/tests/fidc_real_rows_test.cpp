// The real FIDC rows of ../shared/datasets/real/fidc_inf_mensal_derived/ (re-serialized by a
// third party: ../SOURCES.md) packed back into CVM's layout (';', ISO-8859-1, CVM's column
// names, one monthly zip per month with every table, header-only where there are no rows),
// ingested, and read through the quota endpoints: amortizations filed with their columns
// reversed, series that share a label, reports delivered twice.
#include "fidc_real_files.hpp"
#include "fidc_report_fixture.hpp"
#include "fidc_test_files.hpp"
#include "src/quotas.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace lastro::funds::testing {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;

class FidcRealRowsTest : public FidcReportTest {
protected:
    void SetUp() override {
        FidcReportTest::SetUp();
        if (!fs::exists(kDerivedDir)) {
            GTEST_SKIP() << "real files not present: " << kDerivedDir;
        }
        // The classes read below, each the only class of its fund under the fund's CNPJ.
        int id = 3000;
        for (const auto& [cnpj, name] :
             std::vector<std::pair<std::string, std::string>>{{"08632394000102", "RED FIDC"},
                                                              {"11823118000136", "FIDC 11823118"},
                                                              {"22175345000119", "FIDC 22175345"},
                                                              {"32528241000102", "DANIELE MULTIPLO FIDC"},
                                                              {"36115099000114", "FIDC 36115099"},
                                                              {"38305947000183", "FIDC 38305947"}}) {
            const std::string fund = std::to_string(++id);
            const std::string klass = std::to_string(id + 100);
            Persist(RegistryFund(fund, cnpj, "FIDC", name, "GESTORA", "ADMINISTRADORA",
                                 "Em Funcionamento Normal"));
            Persist(RegistryClass(klass, fund, cnpj, name));
            class_of_[cnpj] = klass;
        }

        std::map<std::string, FidcMonth> months;  // "202312" -> its tables
        for (const auto& [table, file] : kDerivedFiles) {
            const std::vector<std::string>& header = FidcCurrentHeaders().at(table);
            for (Fields row : ReadDerived(table)) {
                const std::string date = row.at("DT_COMPTC");
                const std::string period = date.substr(0, 4) + date.substr(5, 2);
                auto month = months.try_emplace(period, period, FidcEra::kFundoClasse).first;
                std::erase_if(row, [&header](const auto& field) {
                    return std::find(header.begin(), header.end(), field.first) == header.end();
                });
                month->second.Row(table, row);
            }
        }
        std::vector<fs::path> zips;
        for (const auto& [period, month] : months) {
            zips.push_back(WriteFidcMonthlyZip(database_.Dir(), month));
        }
        summary_ = IngestFidc(Db(), zips);
    }

    boost::json::array Quotas(const std::string& cnpj, const std::string& month) {
        return Run(&HandleClassQuotas, {{"class_id", ClassIdFor(class_of_.at(cnpj))},
                                        {"from", MonthOf(month)},
                                        {"to", MonthOf(month)}})
            .data.as_array();
    }
    boost::json::array Operations(const std::string& cnpj, const std::string& month) {
        return Run(&HandleClassQuotaOperations, {{"class_id", ClassIdFor(class_of_.at(cnpj))},
                                                 {"from", MonthOf(month)},
                                                 {"to", MonthOf(month)}})
            .data.as_array();
    }
    static const boost::json::object& Labelled(const boost::json::array& rows, const std::string& label) {
        for (const auto& row : rows) {
            if (row.at("series_label").as_string() == label) {
                return row.as_object();
            }
        }
        ADD_FAILURE() << "no row for " << label;
        static const boost::json::object kNone;
        return kNone;
    }

    std::map<std::string, std::string> class_of_;
    sdk::IngestSummary summary_;
};

TEST_F(FidcRealRowsTest, AmortizationsFiledWithTheColumnsReversedAreServedInBrl) {
    // 08.632.394/0001-02, 2023-12 (delivered twice: the later delivery's 56.8 per quota).
    const boost::json::array red = Operations("08632394000102", "2023-12");
    const auto& serie1 = Labelled(red, "Subclasse Senior Serie 1");
    EXPECT_EQ(serie1.at("amortization_reading").as_string(), "swapped");
    EXPECT_DOUBLE_EQ(serie1.at("amortization_brl").to_number<double>(), 22719421.84);
    EXPECT_DOUBLE_EQ(serie1.at("amortization_per_share_brl").to_number<double>(), 22719421.84 / 400000.0);
    EXPECT_DOUBLE_EQ(serie1.at("amortization_published_value").to_number<double>(), 56.8);
    EXPECT_DOUBLE_EQ(serie1.at("outflows_brl").to_number<double>(), 22719421.84);  // no redemption paid
    const auto& serie2 = Labelled(red, "Subclasse Senior Serie 2");
    EXPECT_EQ(serie2.at("amortization_reading").as_string(), "swapped");
    EXPECT_DOUBLE_EQ(serie2.at("amortization_brl").to_number<double>(), 2436896.61);

    // A label of X_4 that X_2 does not have: no evidence, no amount.
    const auto& other = Labelled(red, "Subclasse Subordinada Tipo Subclasse | Subordinada 1");
    EXPECT_EQ(other.at("amortization_reading").as_string(), "unverified");
    EXPECT_TRUE(other.at("amortization_brl").is_null());
    EXPECT_TRUE(other.at("outflows_brl").is_null());
    EXPECT_TRUE(other.at("net_flow_brl").is_null());
    EXPECT_DOUBLE_EQ(other.at("amortization_published_value").to_number<double>(), 43.36);
    EXPECT_DOUBLE_EQ(other.at("amortization_published_shares").to_number<double>(), 30000000.02);

    // 11.823.118/0001-36, 2023-12: 71,815.79 per quota on 7.8 quotas.
    const boost::json::array fidc = Operations("11823118000136", "2023-12");
    const auto& serie4 = Labelled(fidc, "Subclasse Senior Série 4");
    EXPECT_EQ(serie4.at("amortization_reading").as_string(), "swapped");
    EXPECT_DOUBLE_EQ(serie4.at("amortization_brl").to_number<double>(), 560178.13);
    // Per quota of X_2 (7.8 quotas, published rounded): 71,817.71, near the published 71,815.79.
    EXPECT_DOUBLE_EQ(serie4.at("amortization_per_share_brl").to_number<double>(), 560178.13 / 7.8);
}

TEST_F(FidcRealRowsTest, EveryAmortizationOfTheRealRowsHasAReading) {
    std::map<std::string, int> readings;
    for (const FidcQuotaOperation& operation : AllRows<FidcQuotaOperation>(Db())) {
        if (operation.kind == "amortization") {
            ++readings[operation.reading.value_or("none")];
            EXPECT_EQ(operation.value_brl.has_value(), operation.reading != "unverified");
        }
    }
    // Worked out from the derived files with the rules of docs/api/fidc-metrics.md: every
    // amortization with a value is swapped or without evidence.
    EXPECT_EQ(readings,
              (std::map<std::string, int>{{"as_published", 105}, {"swapped", 6}, {"unverified", 6}}));
}

TEST_F(FidcRealRowsTest, SeriesThatShareALabelAreDistinctAndKeepTheirIdentityAcrossMonths) {
    // 36.115.099/0001-14: three 'Subclasse Subordinada 0 | 0' series, month after month.
    for (const std::string month : {"2023-10", "2023-11"}) {
        const boost::json::array rows = Quotas("36115099000114", month);
        std::vector<std::string> ids;
        std::vector<double> quotas;
        for (const auto& row : rows) {
            ids.emplace_back(row.at("series_id").as_string());
            quotas.push_back(row.at("quota_count").to_number<double>());
        }
        EXPECT_THAT(ids, ElementsAre("subclasse-subordinada-0-0", "subclasse-subordinada-0-0-2",
                                     "subclasse-subordinada-0-0-3"))
            << month;
        EXPECT_THAT(quotas, ElementsAre(4760.1, 25000.0, 11888.46)) << month;
    }
    const boost::json::array october = Quotas("36115099000114", "2023-10");
    EXPECT_NEAR(october.at(0).at("total_nav_brl").to_number<double>(),
                4760.1 * 1462.65 + 25000.0 * 1257.48 + 11888.46 * 1020.94, 0.01);
    EXPECT_NEAR(october.at(0).at("subordinated_nav_brl").to_number<double>(),
                october.at(0).at("total_nav_brl").to_number<double>(), 0.01);

    // 22.175.345/0001-19: two 'Subclasse Subordinada  |' series, and their subscriptions.
    const boost::json::array flows = Operations("22175345000119", "2023-10");
    ASSERT_EQ(flows.size(), 2u);
    EXPECT_DOUBLE_EQ(flows.at(0).at("subscriptions_shares").to_number<double>(), 88.13);
    EXPECT_DOUBLE_EQ(flows.at(0).at("subscription_original_brl").to_number<double>(), 464196.58);
    EXPECT_DOUBLE_EQ(flows.at(0).at("manager_reference_nav_brl").to_number<double>(),
                     27526828.51);  // to the cent
    EXPECT_DOUBLE_EQ(flows.at(1).at("subscriptions_shares").to_number<double>(), 25.18);
    EXPECT_DOUBLE_EQ(flows.at(1).at("manager_reference_nav_brl").to_number<double>(), 35199598.16);
    EXPECT_EQ(Quotas("22175345000119", "2023-12").size(), 2u);

    // Worked out from the derived files (X_2 and X_4 label groups) with the rule of
    // docs/datasets/inf_mensal_fidc.md.
    EXPECT_THAT(summary_.rejections,
                Contains("repeated series labels: 56 group(s) read as distinct series, 6 as "
                         "series of a report delivered more than once (last delivery kept)"));
}

TEST_F(FidcRealRowsTest, AReportDeliveredTwiceCountsItsSeriesOnce) {
    // 32.528.241/0001-02, 2023-12: two deliveries, NAV 396,921,676.13 then 398,003,295.85; X_2
    // follows each. The later delivery is kept for the one-row tables and the series alike.
    const boost::json::array rows = Quotas("32528241000102", "2023-12");
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_DOUBLE_EQ(rows.at(0).at("quota_value_brl").to_number<double>(), 113139.08);
    EXPECT_DOUBLE_EQ(rows.at(0).at("reported_nav_brl").to_number<double>(), 398003295.85);
    EXPECT_NEAR(rows.at(0).at("total_nav_brl").to_number<double>(), 3517.82 * 113139.08, 0.01);

    // 08.632.394/0001-02: three series, each filed once per delivery.
    EXPECT_EQ(Quotas("08632394000102", "2023-12").size(), 3u);
    // 38.305.947/0001-83: seven labels, two rows each, in a report delivered twice.
    EXPECT_EQ(Quotas("38305947000183", "2023-12").size(), 7u);
}

}  // namespace
}  // namespace lastro::funds::testing
