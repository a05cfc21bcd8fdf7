// The manager history ingester (cvm.cad_fi_hist) on files in CVM's real format: loose and zipped,
// masked and bare documents, nulls kept null, columns found by name, a missing column refused,
// bad rows rejected with their lines, and the full snapshot applied in place.
#include "cad_fi_hist_test_files.hpp"

#include <lastro/sdk/problem.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace lastro::industry::testing {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Every stored spell, by fund and start.
std::vector<ManagerSpell> Spells(odb::database& db) {
    std::vector<ManagerSpell> spells = AllRows<ManagerSpell>(db);
    std::sort(spells.begin(), spells.end(), [](const ManagerSpell& a, const ManagerSpell& b) {
        return std::tie(a.fund_cnpj, a.started_at, a.manager_document) <
               std::tie(b.fund_cnpj, b.started_at, b.manager_document);
    });
    return spells;
}

const ManagerSpell& SpellOf(const std::vector<ManagerSpell>& spells, const std::string& fund,
                            const std::optional<std::string>& started) {
    for (const ManagerSpell& spell : spells) {
        if (spell.fund_cnpj == fund && spell.started_at == started) {
            return spell;
        }
    }
    static const ManagerSpell none;
    ADD_FAILURE() << "no spell of " << fund << " from " << started.value_or("(none)");
    return none;
}

// The base file (line numbers as written):
//   line 2  fund 12.345.678/0001-95 (masked), manager CNPJ masked, 2015-03-02 .. 2019-06-30
//   line 3  the same fund bare, the next manager bare, from 2019-07-01, DT_FIM empty
//   line 4  fund 33.333.333/0001-91, a natural person: CPF masked, accents, DT_REG empty, open
//   line 5  fund 44444444000191, the manager by name only (no document), closed
ManagerFile BaseFile() {
    ManagerFile file;
    file.Spell({{"CNPJ_FUNDO", "12.345.678/0001-95"},
                {"DT_REG", "2015-03-02"},
                {"PF_PJ_GESTOR", "PJ"},
                {"CPF_CNPJ_GESTOR", "22.222.222/0001-91"},
                {"GESTOR", "GESTORA AÇÃO LTDA"},
                {"DT_INI_GESTOR", "2015-03-02"},
                {"DT_FIM_GESTOR", "2019-06-30"}});
    file.Spell({{"CNPJ_FUNDO", "12345678000195"},
                {"DT_REG", "2015-03-02"},
                {"PF_PJ_GESTOR", "PJ"},
                {"CPF_CNPJ_GESTOR", "13131313000120"},
                {"GESTOR", "ÉPSILON GESTÃO DE RECURSOS S.A."},
                {"DT_INI_GESTOR", "2019-07-01"}});
    file.Spell({{"CNPJ_FUNDO", "33.333.333/0001-91"},
                {"PF_PJ_GESTOR", "PF"},
                {"CPF_CNPJ_GESTOR", "123.456.789-09"},
                {"GESTOR", "Maria da Conceição"},
                {"DT_INI_GESTOR", "2012-08-01"}});
    file.Spell({{"CNPJ_FUNDO", "44444444000191"},
                {"DT_REG", "2009-11-16"},
                {"PF_PJ_GESTOR", "PJ"},
                {"GESTOR", "GESTORA SEM DOCUMENTO"},
                {"DT_INI_GESTOR", "2009-11-16"},
                {"DT_FIM_GESTOR", "2014-01-31"}});
    return file;
}

// What the base file stores, whatever way it arrives.
void ExpectBaseSpells(odb::database& db) {
    const std::vector<ManagerSpell> spells = Spells(db);
    ASSERT_EQ(spells.size(), 4u);

    const ManagerSpell& first = SpellOf(spells, "12345678000195", "2015-03-02");
    EXPECT_EQ(first.registered_at, "2015-03-02");
    EXPECT_EQ(first.person_type, "PJ");
    EXPECT_EQ(first.manager_document, "22222222000191");
    EXPECT_EQ(first.manager, "GESTORA AÇÃO LTDA");
    EXPECT_EQ(first.ended_at, "2019-06-30");

    const ManagerSpell& current = SpellOf(spells, "12345678000195", "2019-07-01");
    EXPECT_EQ(current.manager_document, "13131313000120");
    EXPECT_EQ(current.manager, "ÉPSILON GESTÃO DE RECURSOS S.A.");
    EXPECT_FALSE(current.ended_at.has_value()) << "an empty DT_FIM_GESTOR is NULL: the spell is current";

    const ManagerSpell& person = SpellOf(spells, "33333333000191", "2012-08-01");
    EXPECT_EQ(person.person_type, "PF");
    EXPECT_EQ(person.manager_document, "12345678909") << "a CPF is stored as its 11 digits";
    EXPECT_EQ(person.manager, "Maria da Conceição");
    EXPECT_FALSE(person.registered_at.has_value());
    EXPECT_FALSE(person.ended_at.has_value());

    const ManagerSpell& by_name = SpellOf(spells, "44444444000191", "2009-11-16");
    EXPECT_FALSE(by_name.manager_document.has_value()) << "an empty CPF_CNPJ_GESTOR is NULL, not ''";
    EXPECT_EQ(by_name.manager, "GESTORA SEM DOCUMENTO");
    EXPECT_EQ(by_name.ended_at, "2014-01-31");
}

TEST(ManagerHistoryIngester, ReadsALooseFileWithMaskedAndBareDocumentsAndKeepsNullsNull) {
    IndustryDatabase database;
    const sdk::IngestSummary summary =
        Ingest(database.Db(), {WriteLoose(database.Dir(), "cad_fi_hist_gestor.csv", BaseFile().Bytes())});
    EXPECT_EQ(summary.rows_read, 4u);
    EXPECT_EQ(summary.inserted, 4u);
    EXPECT_EQ(summary.updated + summary.unchanged + summary.removed + summary.rejected, 0u);
    EXPECT_TRUE(summary.rejections.empty());
    ExpectBaseSpells(database.Db());
}

TEST(ManagerHistoryIngester, ReadsTheGestorMemberOfTheZipAndIgnoresTheOthers) {
    IndustryDatabase database;
    const fs::path zip = WriteZip(database.Dir(), "cad_fi_hist.zip",
                                  {{"cad_fi_hist_admin.csv", AdministratorBytes()},
                                   {"cad_fi_hist_gestor.csv", BaseFile().Bytes()},
                                   {"cad_fi_hist_sit.csv", SituationBytes()}});
    const sdk::IngestSummary summary = Ingest(database.Db(), {zip});
    EXPECT_EQ(summary.rows_read, 4u) << "only cad_fi_hist_gestor.csv's rows are read";
    EXPECT_EQ(summary.inserted, 4u);
    EXPECT_EQ(summary.rejected, 0u);
    EXPECT_TRUE(summary.rejections.empty()) << "the zip's own members are ignored silently";
    ExpectBaseSpells(database.Db());
}

TEST(ManagerHistoryIngester, NamesAnUnexpectedMemberItIgnores) {
    IndustryDatabase database;
    const fs::path zip =
        WriteZip(database.Dir(), "cad_fi_hist.zip",
                 {{"cad_fi_hist_gestor.csv", BaseFile().Bytes()}, {"LEIAME.txt", "leia-me\r\n"}});
    const sdk::IngestSummary summary = Ingest(database.Db(), {zip});
    EXPECT_EQ(summary.inserted, 4u);
    EXPECT_EQ(summary.rejected, 0u);
    EXPECT_THAT(summary.rejections,
                ElementsAre("cad_fi_hist.zip:LEIAME.txt: ignored, not a member of cad_fi_hist.zip"));
}

TEST(ManagerHistoryIngester, OtherMembersGivenLooseAreIgnoredAndStrangersRefused) {
    IndustryDatabase database;
    const fs::path admin = WriteLoose(database.Dir(), "cad_fi_hist_admin.csv", AdministratorBytes());
    const fs::path gestor = WriteLoose(database.Dir(), "cad_fi_hist_gestor.csv", BaseFile().Bytes());
    const sdk::IngestSummary summary = Ingest(database.Db(), {admin, gestor});
    EXPECT_EQ(summary.inserted, 4u);
    EXPECT_TRUE(summary.rejections.empty());

    const fs::path stranger = WriteLoose(database.Dir(), "cad_fi.csv", "CNPJ_FUNDO;DENOM_SOCIAL\r\n");
    try {
        Ingest(database.Db(), {gestor, stranger});
        ADD_FAILURE() << "a file that is not the dataset's was accepted";
    } catch (const sdk::IngestError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "cad_fi.csv: not a file of cvm.cad_fi_hist (expected cad_fi_hist.zip or its member "
                  "cad_fi_hist_gestor.csv)");
    }
    try {
        Ingest(database.Db(), {admin});
        ADD_FAILURE() << "an ingest without cad_fi_hist_gestor.csv was accepted";
    } catch (const sdk::IngestError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "cad_fi_hist_admin.csv: no cad_fi_hist_gestor.csv among the inputs: cvm.cad_fi_hist reads "
                  "that member of cad_fi_hist.zip only");
    }
    const fs::path no_gestor =
        WriteZip(database.Dir(), "cad_fi_hist.zip", {{"cad_fi_hist_admin.csv", AdministratorBytes()}});
    try {
        Ingest(database.Db(), {no_gestor});
        ADD_FAILURE() << "a zip without cad_fi_hist_gestor.csv was accepted";
    } catch (const sdk::IngestError& e) {
        EXPECT_THAT(e.what(), HasSubstr("cad_fi_hist.zip: no member of cvm.cad_fi_hist in the archive"));
    }
    EXPECT_EQ(Spells(database.Db()).size(), 4u) << "a refused ingest changes nothing";
}

TEST(ManagerHistoryIngester, FindsColumnsByNameInAnyOrder) {
    IndustryDatabase database;
    ManagerFile shuffled;
    shuffled.header = {"DT_FIM_GESTOR", "GESTOR",       "CNPJ_FUNDO", "OBSERVACAO",
                       "DT_INI_GESTOR", "PF_PJ_GESTOR", "DT_REG",     "CPF_CNPJ_GESTOR"};
    shuffled.lines = {
        "DT_FIM_GESTOR;GESTOR;CNPJ_FUNDO;OBSERVACAO;DT_INI_GESTOR;PF_PJ_GESTOR;DT_REG;CPF_CNPJ_GESTOR"};
    const ManagerFile base = BaseFile();
    for (std::size_t i = 1; i < base.lines.size(); ++i) {
        std::vector<std::string_view> fields;
        sdk::SplitFields(base.lines[i], ';', fields);
        Fields named;
        for (std::size_t c = 0; c < base.header.size(); ++c) {
            named[base.header[c]] = std::string(fields[c]);
        }
        named["OBSERVACAO"] = "coluna a mais";
        shuffled.Spell(named);
    }
    const sdk::IngestSummary summary =
        Ingest(database.Db(), {WriteLoose(database.Dir(), "cad_fi_hist_gestor.csv", shuffled.Bytes())});
    EXPECT_EQ(summary.inserted, 4u);
    EXPECT_EQ(summary.rejected, 0u);
    ExpectBaseSpells(database.Db());
}

TEST(ManagerHistoryIngester, RefusesAFileWithoutARequiredColumnNamingIt) {
    IndustryDatabase database;
    Ingest(database.Db(), {WriteLoose(database.Dir(), "cad_fi_hist_gestor.csv", BaseFile().Bytes())});
    for (std::string_view missing : kManagerColumns) {
        SCOPED_TRACE(missing);
        ManagerFile file;
        file.header.erase(std::find(file.header.begin(), file.header.end(), missing));
        file.lines = {[&] {
            std::string line;
            for (const std::string& column : file.header) {
                line += (line.empty() ? "" : ";") + column;
            }
            return line;
        }()};
        Fields row{
            {"CNPJ_FUNDO", "55555555000191"}, {"DT_INI_GESTOR", "2020-01-02"}, {"GESTOR", "GESTORA X"}};
        row.erase(std::string(missing));
        file.Spell(row);
        const fs::path zip =
            WriteZip(database.Subdir("zip"), "cad_fi_hist.zip", {{"cad_fi_hist_gestor.csv", file.Bytes()}});
        try {
            Ingest(database.Db(), {zip});
            ADD_FAILURE() << "a header without " << missing << " was accepted";
        } catch (const sdk::IngestError& e) {
            EXPECT_EQ(std::string(e.what()),
                      "cad_fi_hist.zip:cad_fi_hist_gestor.csv:1: missing column " + std::string(missing));
        }
    }
    ExpectBaseSpells(database.Db());  // each refused ingest was rolled back
}

TEST(ManagerHistoryIngester, RejectsBadRowsWithTheirLinesAndKeepsTheOthers) {
    IndustryDatabase database;
    ManagerFile file;
    auto spell = [](std::string fund, std::string document, std::string start, std::string end) {
        return Fields{{"CNPJ_FUNDO", std::move(fund)},  {"DT_REG", "2016-04-01"},
                      {"PF_PJ_GESTOR", "PJ"},           {"CPF_CNPJ_GESTOR", std::move(document)},
                      {"GESTOR", "GESTORA SIGMA"},      {"DT_INI_GESTOR", std::move(start)},
                      {"DT_FIM_GESTOR", std::move(end)}};
    };
    file.Spell(spell("12.345.678/0001-95", "12.121.212/0001-06", "2016-04-01", "2018-12-31"));  // 2: kept
    file.Spell(spell("12.345.678/0001-00", "12.121.212/0001-06", "2016-04-01", ""));            // 3
    file.Spell(spell("33333333000191", "12121212000106", "2020/01/01", ""));                    // 4
    file.Spell(spell("33333333000191", "12121212000106", "2020-01-01", "2019-12-31"));          // 5
    file.lines.push_back("44444444000191;2016-04-01;PJ;12121212000106");                        // 6
    Fields person = spell("44444444000191", "123.456.789-00", "2017-01-02", "");                // 7
    person["PF_PJ_GESTOR"] = "PF";
    file.Spell(person);
    file.Spell(spell("", "12121212000106", "2017-01-02", ""));                          // 8
    file.Spell(spell("12345678000195", "12121212000106", "2016-04-01", ""));            // 9: line 2, open
    file.Spell(spell("55555555000191", "12121212000106", "2021-02-30", ""));            // 10
    file.Spell(spell("55555555000191", "12121212000199", "2021-03-01", ""));            // 11
    file.Spell(spell("55555555000191", "GESTORA", "2021-03-01", ""));                   // 12
    file.Spell(spell("55555555000191", "1212121200010", "2021-03-01", ""));             // 13
    file.Spell(spell("66666666000191", "12121212000106", "2021-03-01", "2021-03-01"));  // 14: kept
    const sdk::IngestSummary summary =
        Ingest(database.Db(), {WriteLoose(database.Dir(), "cad_fi_hist_gestor.csv", file.Bytes())});

    EXPECT_EQ(summary.rows_read, 13u);
    EXPECT_EQ(summary.inserted, 2u);
    EXPECT_EQ(summary.rejected, 11u);
    const std::string f = "cad_fi_hist_gestor.csv line ";
    EXPECT_THAT(
        summary.rejections,
        ElementsAre(
            f + "3: CNPJ_FUNDO is not a valid CNPJ: '12.345.678/0001-00'",
            f + "4: DT_INI_GESTOR is not a YYYY-MM-DD date: '2020/01/01'",
            f + "5: DT_FIM_GESTOR 2019-12-31 is before DT_INI_GESTOR 2020-01-01",
            f + "6: expected 7 fields, found 4",
            f + "7: CPF_CNPJ_GESTOR is not a valid CPF: '123.456.789-00'", f + "8: CNPJ_FUNDO is empty",
            f + "10: DT_INI_GESTOR is not a YYYY-MM-DD date: '2021-02-30'",
            f + "11: CPF_CNPJ_GESTOR is not a valid CNPJ: '12121212000199'",
            f + "12: CPF_CNPJ_GESTOR is not a CPF or CNPJ: 'GESTORA'",
            f + "13: CPF_CNPJ_GESTOR is not a CPF (11 digits) or CNPJ (14 digits): '1212121200010'",
            f + "9: duplicate spell (fund 12345678000195 registered 2016-04-01 from 2016-04-01 manager "
                "12121212000106), kept line 2"));

    const std::vector<ManagerSpell> spells = Spells(database.Db());
    ASSERT_EQ(spells.size(), 2u);
    EXPECT_EQ(SpellOf(spells, "12345678000195", "2016-04-01").ended_at, "2018-12-31")
        << "of two rows of one spell the closed one is kept";
    EXPECT_EQ(SpellOf(spells, "66666666000191", "2021-03-01").ended_at, "2021-03-01")
        << "a spell of one day is no error";
}

TEST(ManagerHistoryIngester, ASmallerSnapshotRemovesWhatItNoLongerLists) {
    IndustryDatabase database;
    Ingest(database.Db(), {WriteLoose(database.Dir(), "cad_fi_hist_gestor.csv", BaseFile().Bytes())});
    const std::int64_t current_id = SpellOf(Spells(database.Db()), "12345678000195", "2019-07-01").id;

    // The first spell as it was; the current one closed, with its manager renamed; the natural
    // person's and the nameless spells gone; a new current manager.
    const ManagerFile base = BaseFile();
    ManagerFile next;
    next.lines.push_back(base.lines[1]);
    next.Spell({{"CNPJ_FUNDO", "12345678000195"},
                {"DT_REG", "2015-03-02"},
                {"PF_PJ_GESTOR", "PJ"},
                {"CPF_CNPJ_GESTOR", "13131313000120"},
                {"GESTOR", "ÉPSILON GESTORA LTDA"},
                {"DT_INI_GESTOR", "2019-07-01"},
                {"DT_FIM_GESTOR", "2023-12-31"}});
    next.Spell({{"CNPJ_FUNDO", "12345678000195"},
                {"DT_REG", "2015-03-02"},
                {"PF_PJ_GESTOR", "PJ"},
                {"CPF_CNPJ_GESTOR", "10101010000177"},
                {"GESTOR", "OMEGA CAPITAL"},
                {"DT_INI_GESTOR", "2024-01-01"}});
    const sdk::IngestSummary summary =
        Ingest(database.Db(), {WriteLoose(database.Dir(), "cad_fi_hist_gestor.csv", next.Bytes())});
    EXPECT_EQ(summary.rows_read, 3u);
    EXPECT_EQ(summary.inserted, 1u);
    EXPECT_EQ(summary.updated, 1u);
    EXPECT_EQ(summary.unchanged, 1u);
    EXPECT_EQ(summary.removed, 2u);
    EXPECT_EQ(summary.rejected, 0u);

    const std::vector<ManagerSpell> spells = Spells(database.Db());
    ASSERT_EQ(spells.size(), 3u);
    std::set<std::string> funds;
    for (const ManagerSpell& spell : spells) {
        funds.insert(spell.fund_cnpj);
    }
    EXPECT_EQ(funds, std::set<std::string>{"12345678000195"});
    const ManagerSpell& closed = SpellOf(spells, "12345678000195", "2019-07-01");
    EXPECT_EQ(closed.id, current_id) << "an updated spell keeps its row";
    EXPECT_EQ(closed.ended_at, "2023-12-31");
    EXPECT_EQ(closed.manager, "ÉPSILON GESTORA LTDA");
    EXPECT_FALSE(SpellOf(spells, "12345678000195", "2024-01-01").ended_at.has_value());
}

TEST(ManagerHistoryIngester, TheSameSnapshotAgainChangesNothing) {
    IndustryDatabase database;
    const fs::path file = WriteLoose(database.Dir(), "cad_fi_hist_gestor.csv", BaseFile().Bytes());
    Ingest(database.Db(), {file});
    const sdk::IngestSummary again = Ingest(database.Db(), {file});
    EXPECT_EQ(again.unchanged, 4u);
    EXPECT_EQ(again.inserted + again.updated + again.removed + again.rejected, 0u);
    ExpectBaseSpells(database.Db());
}

TEST(ManagerHistoryIngester, TheReleaseIsTheFilesDateAndEveryPeriodIsRebuilt) {
    IndustryDatabase database;
    const fs::path zip =
        WriteZip(database.Dir(), "cad_fi_hist.zip", {{"cad_fi_hist_gestor.csv", BaseFile().Bytes()}},
                 LocalTime(2026, 8, 17, 3));
    sdk::testing::RecordingProgress progress;
    const sdk::IngestSummary summary = Ingest(database.Db(), {zip}, &progress);
    EXPECT_EQ(summary.release_label, "cad_fi_hist-2026-08-17") << "the member's date, not the latest DT_REG";
    EXPECT_EQ(summary.as_of, "2026-08-17");
    EXPECT_FALSE(summary.periods.has_value()) << "the aggregates rebuild every month";
    EXPECT_THAT(progress.Stages(), Contains("cad_fi_hist.zip:cad_fi_hist_gestor.csv"));

    IndustryDatabase loose;
    const sdk::IngestSummary from_loose = Ingest(
        loose.Db(),
        {WriteLoose(loose.Dir(), "cad_fi_hist_gestor.csv", BaseFile().Bytes(), LocalTime(2026, 9, 1, 23))});
    EXPECT_EQ(from_loose.release_label, "cad_fi_hist-2026-09-01");
}

}  // namespace
}  // namespace lastro::industry::testing
