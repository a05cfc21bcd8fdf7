// The industry sample writer: cad_fi_hist.zip invented from the funds sample's universe (the
// registry's funds, its day and the reports' months) the request carries, the same bytes for the
// same seed, spells only of the registry's FIDC-family funds and managers, some manager changes
// and some funds without history, read back by the ingester without a rejection; nothing at a
// scale the manifest does not declare; a clear error without the universe.
#include "cad_fi_hist_test_files.hpp"
#include "sample/sample_writer.hpp"

#include <lastro/sdk/sample/date_math.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::industry::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr std::size_t kFidcFunds = 160;
constexpr std::uint64_t kSeed = sdk::kDefaultSampleSeed;

// One fund of the universe's registry, as the test sees it.
struct Fund {
    bool fidc = false;
    std::string registered;  // the earliest Data_Registro of its rows
    std::string adapted;     // Data_Adaptacao_RCVM175 of its live row
    std::string manager_document;
    std::string manager;
    std::string person_type;
};

std::map<std::string, Fund> RegistryFunds(const funds::SampleUniverse& universe) {
    std::map<std::string, Fund> funds;
    for (const funds::SampleFund& f : universe.funds) {
        Fund& fund = funds[f.cnpj];
        fund.fidc = f.fund_type == "FIDC" || f.fund_type == "FIDC-NP" || f.fund_type == "FIC-FIDC";
        fund.registered = f.registered.ToString();
        fund.adapted = f.adapted ? f.adapted->ToString() : "";
        fund.manager_document = f.manager_document;
        fund.manager = f.manager;
        fund.person_type = f.manager_person_type;
    }
    return funds;
}

std::string Digits(const std::string& text) {
    return sdk::DigitsOnly(text);
}

std::string DayBefore(const std::string& date) {
    return sdk::sample::AddDays(*sdk::Date::Parse(date), -1).ToString();
}

class SampleManagerHistoryTest : public ::testing::Test {
protected:
    void SetUp() override {
        universe_ = TestUniverse(kFidcFunds);
        report_ = sample::IndustrySampleWriter().Write(
            SampleRequestWith(dir_.Path(), kSeed, sdk::SampleScale::kSample, universe_));
        zip_ = dir_.Path() / "cad_fi_hist.zip";
        funds_ = RegistryFunds(*universe_);
        for (const Fields& spell : MemberRows(zip_, "cad_fi_hist_gestor.csv")) {
            spells_[Digits(spell.at("CNPJ_FUNDO"))].push_back(spell);
        }
    }

    std::size_t Count(const std::string& name) const {
        for (const sdk::SampleCount& count : report_.counts) {
            if (count.name == name) {
                return count.count;
            }
        }
        ADD_FAILURE() << "no count " << name;
        return 0;
    }

    sdk::testing::TempDir dir_;
    std::shared_ptr<const funds::SampleUniverse> universe_;
    fs::path zip_;
    sdk::SampleReport report_;
    std::map<std::string, Fund> funds_;
    std::map<std::string, std::vector<Fields>> spells_;  // by fund CNPJ (digits), in file order
};

TEST_F(SampleManagerHistoryTest, WritesTheRealZipFromTheUniverse) {
    EXPECT_EQ(report_.files, (std::vector<fs::path>{zip_}));
    std::vector<std::string> members;
    for (const auto& [name, bytes] : sdk::testing::ZipMemberBytes(zip_)) {
        members.push_back(name);
    }
    EXPECT_THAT(members, ElementsAre("cad_fi_hist_admin.csv", "cad_fi_hist_denom_social.csv",
                                     "cad_fi_hist_gestor.csv", "cad_fi_hist_sit.csv"));
    EXPECT_EQ(MemberHeader(zip_, "cad_fi_hist_gestor.csv"),
              (std::vector<std::string>{"CNPJ_FUNDO", "DT_REG", "PF_PJ_GESTOR", "CPF_CNPJ_GESTOR", "GESTOR",
                                        "DT_INI_GESTOR", "DT_FIM_GESTOR"}));
    EXPECT_EQ(MemberHeader(zip_, "cad_fi_hist_admin.csv"),
              (std::vector<std::string>{"CNPJ_FUNDO", "DT_REG", "CNPJ_ADMIN", "ADMIN", "DT_INI_ADMIN",
                                        "DT_FIM_ADMIN"}));
    EXPECT_EQ(MemberHeader(zip_, "cad_fi_hist_sit.csv"),
              (std::vector<std::string>{"CNPJ_FUNDO", "DT_REG", "SIT", "DT_INI_SIT", "DT_FIM_SIT"}));
    std::size_t spells = 0;
    for (const auto& [cnpj, list] : spells_) {
        spells += list.size();
    }
    EXPECT_EQ(Count("manager spells"), spells);
    // As the legacy registry publishes them: masked CNPJs and CPFs.
    for (const auto& [cnpj, list] : spells_) {
        for (const Fields& spell : list) {
            EXPECT_EQ(spell.at("CNPJ_FUNDO"), sdk::FormatCnpj(cnpj));
            EXPECT_THAT(spell.at("CPF_CNPJ_GESTOR"),
                        ::testing::MatchesRegex("[0-9]{2}\\.[0-9]{3}\\.[0-9]{3}/[0-9]{4}-[0-9]{2}|"
                                                "[0-9]{3}\\.[0-9]{3}\\.[0-9]{3}-[0-9]{2}"));
        }
    }
}

TEST_F(SampleManagerHistoryTest, TheSameSeedGivesTheSameBytesAndAnotherSeedOthers) {
    const std::string bytes = sdk::testing::ReadFile(zip_);
    sdk::testing::TempDir again;
    sample::IndustrySampleWriter().Write(
        SampleRequestWith(again.Path(), kSeed, sdk::SampleScale::kSample, TestUniverse(kFidcFunds)));
    EXPECT_EQ(sdk::testing::ReadFile(again.Path() / "cad_fi_hist.zip"), bytes);
    // Written again over itself: the same bytes.
    sample::IndustrySampleWriter().Write(
        SampleRequestWith(dir_.Path(), kSeed, sdk::SampleScale::kSample, universe_));
    EXPECT_EQ(sdk::testing::ReadFile(zip_), bytes);

    sdk::testing::TempDir other;
    sample::IndustrySampleWriter().Write(
        SampleRequestWith(other.Path(), kSeed + 1, sdk::SampleScale::kSample, universe_));
    EXPECT_NE(MemberRows(other.Path() / "cad_fi_hist.zip", "cad_fi_hist_gestor.csv"),
              MemberRows(zip_, "cad_fi_hist_gestor.csv"));
}

TEST_F(SampleManagerHistoryTest, EverySpellIsOfAFidcFamilyFundOfTheRegistryAndNamesOneOfItsManagers) {
    std::map<std::string, std::string> managers;  // document -> name, of every fund of the registry
    for (const auto& [cnpj, fund] : funds_) {
        if (!fund.manager_document.empty()) {
            managers[fund.manager_document] = fund.manager;
        }
    }
    ASSERT_FALSE(spells_.empty());
    for (const auto& [cnpj, list] : spells_) {
        SCOPED_TRACE(cnpj);
        ASSERT_TRUE(funds_.count(cnpj)) << "a spell of a fund the registry does not have";
        const Fund& fund = funds_.at(cnpj);
        EXPECT_TRUE(fund.fidc) << "a spell of a fund outside the FIDC family";
        EXPECT_TRUE(!fund.adapted.empty() || fund.registered < "2023-10-02")
            << "a spell of a fund registered under RCVM 175";
        for (const Fields& spell : list) {
            EXPECT_EQ(spell.at("DT_REG"), fund.registered) << "DT_REG is the fund's first registration";
            const std::string document = Digits(spell.at("CPF_CNPJ_GESTOR"));
            ASSERT_TRUE(managers.count(document)) << "a manager the registry does not name";
            EXPECT_EQ(spell.at("GESTOR"), managers.at(document));
            EXPECT_EQ(spell.at("PF_PJ_GESTOR"), document.size() == 11 ? "PF" : "PJ");
        }
        // The last spell is the registry's current manager, to the day before the adaptation
        // (open when the fund never adapted).
        const Fields& last = list.back();
        EXPECT_EQ(Digits(last.at("CPF_CNPJ_GESTOR")), fund.manager_document);
        EXPECT_EQ(last.at("DT_FIM_GESTOR"), fund.adapted.empty() ? "" : DayBefore(fund.adapted));
        // The first begins about the registration.
        const std::string& start = list.front().at("DT_INI_GESTOR");
        EXPECT_GE(start, fund.registered);
        EXPECT_LE(start, sdk::sample::AddDays(*sdk::Date::Parse(fund.registered), 20).ToString());
    }
}

TEST_F(SampleManagerHistoryTest, SomeFundsChangedManagerAndSomeHaveNoHistory) {
    std::size_t changes = 0, reaching_reports = 0;
    for (const auto& [cnpj, list] : spells_) {
        SCOPED_TRACE(cnpj);
        ASSERT_LE(list.size(), 2u);
        if (list.size() != 2) {
            continue;
        }
        ++changes;
        const Fields& earlier = list[0];
        const Fields& current = list[1];
        EXPECT_NE(Digits(earlier.at("CPF_CNPJ_GESTOR")), Digits(current.at("CPF_CNPJ_GESTOR")))
            << "the earlier manager is another one";
        EXPECT_GE(earlier.at("DT_FIM_GESTOR"), "2023-06-01");
        EXPECT_LE(earlier.at("DT_FIM_GESTOR"), "2025-06-30");
        EXPECT_LT(earlier.at("DT_INI_GESTOR"), earlier.at("DT_FIM_GESTOR"));
        EXPECT_EQ(DayBefore(current.at("DT_INI_GESTOR")), earlier.at("DT_FIM_GESTOR"))
            << "the current manager takes over the next day";
        if (earlier.at("DT_FIM_GESTOR") >= "2023-09-30") {
            ++reaching_reports;
        }
    }
    std::size_t legacy_without = 0, legacy = 0;
    for (const auto& [cnpj, fund] : funds_) {
        const bool is_legacy = fund.fidc && (!fund.adapted.empty() || fund.registered < "2023-10-02");
        legacy += is_legacy ? 1 : 0;
        legacy_without += is_legacy && !spells_.count(cnpj) ? 1 : 0;
        if (fund.fidc && !is_legacy) {
            EXPECT_FALSE(spells_.count(cnpj)) << cnpj << " was registered under RCVM 175";
        }
    }
    EXPECT_EQ(Count("funds with a manager change"), changes);
    EXPECT_EQ(Count("legacy FIDC-family funds"), legacy);
    EXPECT_EQ(Count("funds without manager history"), legacy_without);
    // About 15 % change manager and about 5 % have no history (one of them the fund the registry
    // names no manager for); some changes move net worth in the reports' months.
    EXPECT_GE(changes, legacy * 8 / 100);
    EXPECT_LE(changes, legacy * 22 / 100);
    EXPECT_GE(legacy_without, 2u);
    EXPECT_LE(legacy_without, legacy * 12 / 100);
    EXPECT_GE(reaching_reports, 1u);
    EXPECT_FALSE(spells_.count(TestCnpj(100000000000ULL + 7 * 7919))) << "fund 7 has no manager";
}

TEST_F(SampleManagerHistoryTest, TheIngesterReadsTheSampleWithoutRejections) {
    IndustryDatabase database;
    const sdk::IngestSummary summary = Ingest(database.Db(), {zip_});
    EXPECT_EQ(summary.rejected, 0u);
    EXPECT_TRUE(summary.rejections.empty());
    EXPECT_EQ(summary.rows_read, Count("manager spells"));
    EXPECT_EQ(summary.inserted, Count("manager spells"));
    EXPECT_EQ(summary.release_label, "cad_fi_hist-2026-10-14") << "the registry's day";
    std::size_t open = 0;
    for (const ManagerSpell& spell : AllRows<ManagerSpell>(database.Db())) {
        EXPECT_TRUE(funds_.at(spell.fund_cnpj).fidc);
        open += spell.ended_at ? 0 : 1;
    }
    EXPECT_GT(open, 0u) << "funds that never adapted have an open spell";
}

TEST(SampleManagerHistoryScales, WritesExactlyAtTheScalesTheManifestDeclares) {
    const YAML::Node manifest =
        YAML::LoadFile(std::string(LASTRO_SOURCE_DIR) + "/plugins/industry/manifest.yaml");
    std::set<std::string> declared;
    for (const YAML::Node& dataset : manifest["datasets"]) {
        if (dataset["id"].as<std::string>() != "cvm.cad_fi_hist") {
            continue;
        }
        ASSERT_TRUE(dataset["sample"]) << "cvm.cad_fi_hist declares no sample";
        EXPECT_EQ(dataset["sample"]["files"][0].as<std::string>(), "cad_fi_hist.zip");
        declared.insert("sample");  // the default
        if (dataset["sample"]["scales"]) {
            declared.clear();
            for (const YAML::Node& scale : dataset["sample"]["scales"]) {
                declared.insert(scale.as<std::string>());
            }
        }
    }
    for (const sdk::SampleScale scale : {sdk::SampleScale::kSample, sdk::SampleScale::kFull}) {
        const std::string name(sdk::SampleScaleName(scale));
        SCOPED_TRACE(name);
        sdk::testing::TempDir dir;
        const sdk::SampleReport report = sample::IndustrySampleWriter().Write(
            SampleRequestWith(dir.Path(), kSeed, scale, TestUniverse(20)));
        if (declared.count(name)) {
            EXPECT_EQ(report.files, (std::vector<fs::path>{dir.Path() / "cad_fi_hist.zip"}));
        } else {
            EXPECT_TRUE(report.files.empty());
            EXPECT_FALSE(fs::exists(dir.Path() / "cad_fi_hist.zip"));
            EXPECT_THAT(report.notes, ElementsAre(name + " scale: no cad_fi_hist.zip (cvm.cad_fi_hist has a "
                                                         "sample at scale sample only)"));
        }
    }
}

TEST_F(SampleManagerHistoryTest, ChangesInTheReportsCountFromTheUniversesFirstReportMonth) {
    const std::size_t changes = Count("funds with a manager change");
    ASSERT_GT(changes, 0u);
    const sample::ManagerHistory as_written = sample::BuildManagerHistory(*universe_, kSeed);
    EXPECT_EQ(as_written.first_report_month_end, (sdk::Date{2023, 9, 30}));
    EXPECT_EQ(as_written.manager_changes, changes);
    EXPECT_THAT(report_.notes,
                ElementsAre(::testing::StartsWith(
                    "cad_fi_hist.zip: " + std::to_string(as_written.changes_in_reports) +
                    " manager changes end on or after 2023-09-30 (inside the funds sample's FIDC reports, "
                    "2023-09 .. 2026-08); ")));
    // Reports from before the change window: every change is inside them; from after it: none.
    auto universe = TestUniverse(kFidcFunds);
    universe->first_report_month = sdk::Month{2023, 5};
    const sample::ManagerHistory early = sample::BuildManagerHistory(*universe, kSeed);
    EXPECT_EQ(early.first_report_month_end, (sdk::Date{2023, 5, 31}));
    EXPECT_EQ(early.changes_in_reports, changes);
    universe->first_report_month = sdk::Month{2025, 7};
    EXPECT_EQ(sample::BuildManagerHistory(*universe, kSeed).changes_in_reports, 0u);
    // The same spells whatever the reports' months.
    EXPECT_EQ(early.spells.size(), as_written.spells.size());
}

// A universe of another plugin, as a request may carry beside funds'.
class OtherUniverse final : public sdk::SampleUniverseOf<OtherUniverse> {
public:
    static constexpr std::string_view kUniverseName = "other.things";
    static constexpr std::string_view kUniverseIdentity = "0123456789abcdef";
};

TEST(SampleManagerHistoryUniverse, WithoutTheFundsUniverseTheWriterSaysWhatIsMissing) {
    sdk::testing::TempDir dir;
    for (const auto& universe :
         {std::shared_ptr<const sdk::SampleUniverse>(),
          std::shared_ptr<const sdk::SampleUniverse>(std::make_shared<OtherUniverse>())}) {
        try {
            sample::IndustrySampleWriter().Write(
                SampleRequestWith(dir.Path(), kSeed, sdk::SampleScale::kSample, universe));
            ADD_FAILURE() << "the writer ran without the funds universe";
        } catch (const sdk::SampleUniverseError& e) {
            EXPECT_THAT(e.what(),
                        HasSubstr("no sample universe 'funds.sample' was passed to this sample writer"));
            EXPECT_THAT(e.what(), HasSubstr(universe ? "(it has: other.things)" : "(it has: none)"));
        }
        EXPECT_FALSE(fs::exists(dir.Path() / "cad_fi_hist.zip"));
    }
    // At a scale the dataset does not declare, nothing is read: no universe is needed.
    EXPECT_TRUE(
        sample::IndustrySampleWriter().Write({dir.Path(), kSeed, sdk::SampleScale::kFull}).files.empty());
}

}  // namespace
}  // namespace lastro::industry::testing
