// funds 14: the answers of /v1/classes/{class_id}/carteira/fundos are stored by the derivation
// of funds.portfolio_fund_answers (src/portfolio_fund_answers.hpp). These tests check that a
// rebuild follows each dataset the answer reads and writes only what changed, that the manifest
// derives the answers from exactly those datasets, and that a database at funds 13 gets them
// when it migrates. portfolio_funds_test.cpp compares every answer it checks with its stored copy.
#include "src/portfolio_fund_answers.hpp"
#include "src/cda_holder.hpp"
#include "src/portfolio_funds.hpp"

#include "class_data_fixture.hpp"

#include <lastro/sdk/testing/plugin_calls.hpp>

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "funds_model-odb.hxx"

#include <odb/schema-catalog.hxx>
#include <odb/transaction.hxx>

#include <map>
#include <set>
#include <string>
#include <utility>

namespace lastro::funds::testing {
namespace {

constexpr const char* kHolderCnpj = "77777777000191";  // class 2002

// A derivation of funds needs no other plugin's service.
class NoServices : public sdk::Services {
public:
    const sdk::Service& Find(std::string_view name, std::string_view) const override {
        throw std::runtime_error("no service " + std::string(name));
    }
};

class PortfolioFundAnswersTest : public ClassDataTest {
protected:
    void SetUp() override {
        ClassDataTest::SetUp();
        for (const char* month : {"2024-04", "2024-05"}) {
            Persist(Holder(kHolderCnpj, month, 10000.0));
            Persist(FundPosition(kHolderCnpj, month, 2000001, kSeniorClassCnpj, 1000));
            Persist(FundPosition(kHolderCnpj, month, 2000002, kOutsideCnpj, 50));
        }
        // A holder without positions in funds has no stored answer.
        Persist(Holder(kJuniorClassCnpj, "2024-05", 500.0));
        Persist(Position(kJuniorClassCnpj, "2024-05", 1000001, "BLC_1"));
        FidcReport report = Report(kSeniorClassCnpj, "2024-04");
        report.nav = 4000000;
        Persist(report);
    }

    sdk::IngestSummary Derive() {
        PortfolioFundAnswersDerivation derivation;
        return sdk::testing::RunDerivation(derivation, Db(), kPortfolioFundAnswersDataset, kFidcReportDataset,
                                           std::nullopt, services_, 1717200000);
    }

    // The stored answers' texts, by holder and month.
    std::map<std::pair<std::string, std::string>, std::string> Stored() {
        std::map<std::pair<std::string, std::string>, std::string> texts;
        for (const PortfolioFundAnswer& answer : sdk::testing::AllRows<PortfolioFundAnswer>(Db())) {
            texts.emplace(std::make_pair(answer.holder_cnpj, answer.month), answer.data_json);
        }
        return texts;
    }

    // The invested class's NAV as the stored answer of `month` gives it.
    boost::json::value InvestedNav(const std::string& month) {
        const sdk::Result result =
            Run(&HandleClassPortfolioFunds, {{"class_id", ClassIdFor("2002")}, {"month", MonthOf(month)}});
        for (const auto& row : result.data.as_array()) {
            if (row.at("invested_cnpj").as_string() == kSeniorClassCnpj) {
                return row.at("invested_nav_brl");
            }
        }
        ADD_FAILURE() << "no row of " << kSeniorClassCnpj;
        return nullptr;
    }

    NoServices services_;
};

TEST_F(PortfolioFundAnswersTest, EveryHolderMonthWithFundsIsStoredAsTheDataGivesIt) {
    const sdk::IngestSummary summary = Derive();
    EXPECT_EQ(summary.inserted, 2u);
    EXPECT_EQ(summary.rows_read, 2u);
    EXPECT_EQ(summary.periods, (std::vector<std::string>{"2024-04", "2024-05"}));
    EXPECT_EQ(summary.release_label, "2024-05");  // the newest CDA month
    const auto stored = Stored();
    ASSERT_EQ(stored.size(), 2u);
    for (const auto& [key, text] : stored) {
        odb::transaction transaction(Db().begin());
        const auto holder = FindCdaHolder(Db(), key.first, *sdk::Month::Parse(key.second));
        ASSERT_TRUE(holder);
        EXPECT_EQ(BuildPortfolioFundAnswer(Db(), *holder, *sdk::Month::Parse(key.second)).data_json, text);
        transaction.commit();
    }
    // The answers served are the stored ones: the report's NAV as of 2024-04.
    EXPECT_EQ(InvestedNav("2024-05").to_number<double>(), 4000000);
}

TEST_F(PortfolioFundAnswersTest, ARebuildFollowsTheDataAndWritesOnlyWhatChanged) {
    Derive();
    const sdk::IngestSummary same = Derive();
    EXPECT_EQ(same.unchanged, 2u);
    EXPECT_EQ(same.inserted + same.updated + same.removed, 0u);
    EXPECT_TRUE(same.periods && same.periods->empty());

    // A newer report of the invested class (an FIDC ingest) changes May's answer, not April's.
    FidcReport may = Report(kSeniorClassCnpj, "2024-05");
    may.nav = 5000000;
    Persist(may);
    const sdk::IngestSummary fidc = Derive();
    EXPECT_EQ(fidc.updated, 1u);
    EXPECT_EQ(fidc.unchanged, 1u);
    EXPECT_EQ(fidc.periods, (std::vector<std::string>{"2024-05"}));
    EXPECT_EQ(InvestedNav("2024-05").to_number<double>(), 5000000);
    EXPECT_EQ(InvestedNav("2024-04").to_number<double>(), 4000000);

    // April's positions gone (a CDA ingest): its answer is erased, and May no longer compares.
    {
        odb::transaction transaction(Db().begin());
        Db().erase_query<CdaPosition>(odb::query<CdaPosition>::month == "2024-04");
        Db().erase_query<CdaHolder>(odb::query<CdaHolder>::month == "2024-04");
        transaction.commit();
    }
    const sdk::IngestSummary cda = Derive();
    EXPECT_EQ(cda.removed, 1u);
    EXPECT_EQ(cda.updated, 1u);  // May's movement against April
    const auto stored = Stored();
    EXPECT_EQ(stored.size(), 1u);
    EXPECT_TRUE(stored.contains({kHolderCnpj, "2024-05"}));
}

TEST(PortfolioFundAnswers, AreDerivedFromExactlyTheDatasetsTheAnswerNames) {
    const YAML::Node manifest =
        YAML::LoadFile(std::string(LASTRO_SOURCE_DIR) + "/plugins/funds/manifest.yaml");
    std::set<std::string> derived_from;
    for (const YAML::Node& dataset : manifest["datasets"]) {
        if (dataset["id"].as<std::string>() == kPortfolioFundAnswersDataset) {
            for (const YAML::Node& source : dataset["derived_from"]) {
                derived_from.insert(source.as<std::string>());
            }
        }
    }
    // The sources the handler names in meta (portfolio_funds_test.cpp checks them in order).
    EXPECT_EQ(derived_from, (std::set<std::string>{kCdaDataset, std::string(kRegistryDataset),
                                                   kFidcReportDataset, kAnbimaDataset}));
}

TEST_F(PortfolioFundAnswersTest, MigratingFromSchema13StoresEveryAnswer) {
    Derive();
    const auto derived = Stored();
    ASSERT_EQ(derived.size(), 2u);
    {
        odb::transaction transaction(Db().begin());
        Db().execute("DROP TABLE funds_portfolio_fund_answer");
        Db().execute("UPDATE schema_version SET version = 13 WHERE name = 'funds'");
        transaction.commit();
    }
    Db().schema_version_migration(13, false, "funds");
    {
        odb::transaction transaction(Db().begin());
        odb::schema_catalog::migrate(Db(), 14, "funds");  // as lastro db migrate does
        EXPECT_EQ(Db().schema_version("funds"), 14u);
        transaction.commit();
    }
    EXPECT_EQ(Stored(), derived);
}

}  // namespace
}  // namespace lastro::funds::testing
