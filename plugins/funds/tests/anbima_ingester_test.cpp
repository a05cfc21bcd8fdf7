#include "anbima_test_files.hpp"

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/uuid.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <sstream>
#include <utility>

namespace lastro::funds::testing {
namespace {

using ::testing::HasSubstr;

Fields Full() {
    return {{"anbima_code", "S0001234"},
            {"class_cnpj", "12.345.678/0001-95"},
            {"fund_cnpj", "33333333000191"},
            {"cvm_code", "7001"},
            {"name", "FIDC CRÉDITO ALFA SUBCLASSE SÊNIOR"},
            {"status", "Ativo"},
            {"activity_started_at", "2020-02-01"},
            {"first_subscription_at", "2020-02-03"},
            {"category", "FIDC"},
            {"type", "Agro, Indústria e Comércio"},
            {"focus", "Recebíveis Comerciais"},
            {"investor_type", "Profissional"},
            {"investor_characteristic", "Exclusivo"},
            {"opening_share", "Fechamento"},
            {"adapted_to_rcvm_175", "S"},
            {"minimum_initial_subscription_brl", "1000000.00"},
            {"redemption_payment_days", "30"}};
}

Fields Minimal(const std::string& code) {
    return {{"anbima_code", code}, {"class_cnpj", "44444444000191"}, {"fund_cnpj", "44.444.444/0001-91"}};
}

Fields With(Fields base, const Fields& more) {
    for (const auto& [key, value] : more) {
        base[key] = value;
    }
    return base;
}

AnbimaFile BaseFile() {
    AnbimaFile f;
    f.Row(Full());
    f.Row(Minimal("C-99"));
    f.Row(With(Minimal("abc123"), {{"opening_share", "Abertura"},
                                   {"adapted_to_rcvm_175", "N"},
                                   {"minimum_initial_subscription_brl", "0"},
                                   {"redemption_payment_days", "0"}}));
    return f;
}

std::string Show(const std::optional<double>& value) {
    if (!value) {
        return "null";
    }
    std::ostringstream out;
    out.precision(17);
    out << *value;
    return out.str();
}

std::vector<std::string> Dump(odb::database& db) {
    std::vector<std::string> rows;
    for (const AnbimaSubclass& s : AllRows<AnbimaSubclass>(db)) {
        std::string row = s.subclass_id + "|" + s.anbima_code + "|" + s.class_cnpj + "|" + s.fund_cnpj;
        for (const auto& text : {s.cvm_code, s.name, s.status, s.activity_started_at, s.first_subscription_at,
                                 s.category, s.type, s.focus, s.investor_type, s.investor_characteristic,
                                 s.opening_share, s.adapted_to_rcvm_175}) {
            row += "|" + text.value_or("null");
        }
        row += "|" + Show(s.minimum_initial_subscription) + "|" +
               (s.redemption_payment_days ? std::to_string(*s.redemption_payment_days) : "null");
        rows.push_back(row);
    }
    std::sort(rows.begin(), rows.end());
    return rows;
}

std::optional<AnbimaSubclass> Find(odb::database& db, const std::string& code) {
    for (const AnbimaSubclass& s : AllRows<AnbimaSubclass>(db)) {
        if (s.anbima_code == code) {
            return s;
        }
    }
    return std::nullopt;
}

class AnbimaTest : public ScratchDatabaseTest {
protected:
    void SetUp() override { summary_ = IngestAnbima(Db(), {BaseFile().Write(Dir("base"))}); }

    // The ingest fails with a message containing `expected`, and the database is as it was.
    void ExpectRejected(const std::vector<fs::path>& inputs, const std::string& expected) {
        ExpectRejectedUnchanged([&] { IngestAnbima(Db(), inputs); }, [&] { return Dump(Db()); }, expected);
    }
    void ExpectRejected(const AnbimaFile& file, const std::string& expected) {
        ExpectRejected({file.Write(Dir("bad"))}, expected);
    }

    sdk::IngestSummary summary_;
};

TEST_F(AnbimaTest, CountsAndLabelsTheRelease) {
    EXPECT_EQ(summary_.rows_read, 3u);
    EXPECT_EQ(summary_.inserted, 3u);
    EXPECT_EQ(summary_.rejected, 0u);
    EXPECT_EQ(AllRows<AnbimaSubclass>(Db()).size(), 3u);
    EXPECT_TRUE(summary_.release_label.starts_with("anbima-subclasses-"));
    ASSERT_TRUE(summary_.as_of);
    EXPECT_EQ(summary_.release_label, "anbima-subclasses-" + *summary_.as_of);
}

TEST_F(AnbimaTest, MapsEveryColumn) {
    const auto s = Find(Db(), "S0001234");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->class_cnpj, "12345678000195");
    EXPECT_EQ(s->fund_cnpj, "33333333000191");
    EXPECT_EQ(s->cvm_code, "7001");
    EXPECT_EQ(s->name, "FIDC CRÉDITO ALFA SUBCLASSE SÊNIOR");
    EXPECT_EQ(s->status, "Ativo");
    EXPECT_EQ(s->activity_started_at, "2020-02-01");
    EXPECT_EQ(s->first_subscription_at, "2020-02-03");
    EXPECT_EQ(s->category, "FIDC");
    EXPECT_EQ(s->type, "Agro, Indústria e Comércio");
    EXPECT_EQ(s->focus, "Recebíveis Comerciais");
    EXPECT_EQ(s->investor_type, "Profissional");
    EXPECT_EQ(s->investor_characteristic, "Exclusivo");
    EXPECT_EQ(s->opening_share, "Fechamento");
    EXPECT_EQ(s->adapted_to_rcvm_175, "S");
    EXPECT_EQ(s->minimum_initial_subscription, 1000000.00);
    EXPECT_EQ(s->redemption_payment_days, 30);
}

TEST_F(AnbimaTest, IdsAreUuidV5OfTheCodeInTheFundsNamespace) {
    const auto s = Find(Db(), "S0001234");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->subclass_id, sdk::UuidV5("2b9c1d52-4f1e-4a7e-9d3b-6c0f5e8a7b41", "anbima:S0001234"));
    EXPECT_EQ(s->subclass_id, AnbimaSubclassIdFor("S0001234"));

    FundsDatabase other;
    IngestAnbima(other.Db(), {BaseFile().Write(Dir("again"), "\r\n")});
    EXPECT_EQ(Dump(other.Db()), Dump(Db()));  // CRLF reads alike, ids included
}

TEST_F(AnbimaTest, EmptyFieldsStayNullAndZerosStayZero) {
    const auto minimal = Find(Db(), "C-99");
    ASSERT_TRUE(minimal);
    EXPECT_EQ(minimal->fund_cnpj, "44444444000191");
    for (const auto& text : {minimal->cvm_code, minimal->name, minimal->status, minimal->activity_started_at,
                             minimal->first_subscription_at, minimal->category, minimal->type, minimal->focus,
                             minimal->investor_type, minimal->investor_characteristic, minimal->opening_share,
                             minimal->adapted_to_rcvm_175}) {
        EXPECT_FALSE(text.has_value());
    }
    EXPECT_FALSE(minimal->minimum_initial_subscription.has_value());
    EXPECT_FALSE(minimal->redemption_payment_days.has_value());

    const auto zeros = Find(Db(), "abc123");
    ASSERT_TRUE(zeros);
    EXPECT_EQ(zeros->minimum_initial_subscription, 0.0);
    EXPECT_EQ(zeros->redemption_payment_days, 0);
    EXPECT_EQ(zeros->opening_share, "Abertura");
}

TEST_F(AnbimaTest, AFullSnapshotInsertsUpdatesKeepsAndRemoves) {
    const std::string kept_id = Find(Db(), "S0001234")->subclass_id;
    AnbimaFile next;
    next.Row(Full());                                            // unchanged
    next.Row(With(Minimal("C-99"), {{"status", "Encerrado"}}));  // updated
    next.Row(Minimal("NEW-1"));                                  // inserted; abc123 is gone
    const auto summary = IngestAnbima(Db(), {next.Write(Dir("next"))});
    EXPECT_EQ(summary.inserted, 1u);
    EXPECT_EQ(summary.updated, 1u);
    EXPECT_EQ(summary.unchanged, 1u);
    EXPECT_EQ(summary.removed, 1u);
    EXPECT_FALSE(Find(Db(), "abc123").has_value());
    EXPECT_EQ(Find(Db(), "C-99")->status, "Encerrado");
    EXPECT_EQ(Find(Db(), "S0001234")->subclass_id, kept_id);
}

TEST_F(AnbimaTest, AByteOrderMarkBeforeTheHeaderIsAccepted) {
    AnbimaFile f = BaseFile();
    f.lines.front() = "\xEF\xBB\xBF" + f.lines.front();
    const auto summary = IngestAnbima(Db(), {f.Write(Dir("bom"))});
    EXPECT_EQ(summary.unchanged, 3u);
}

// ---- rejections: each leaves the database as it was ------------------------------------

TEST_F(AnbimaTest, AnyOtherHeaderIsRefusedNamingTheExpectedOne) {
    const std::string expected =
        "anbima_subclasses.csv:1: the header must be exactly: " + std::string(kAnbimaHeader);
    AnbimaFile reordered = BaseFile();
    auto columns = AnbimaHeader();
    std::swap(columns[1], columns[2]);
    reordered.lines.front() = Join(columns);
    ExpectRejected(reordered, expected);

    AnbimaFile extra = BaseFile();
    extra.lines.front() += ";extra";
    ExpectRejected(extra, expected);

    AnbimaFile upper = BaseFile();
    upper.lines.front()[0] = 'A';
    ExpectRejected(upper, expected);
}

TEST_F(AnbimaTest, ARepeatedCodeNamesBothLines) {
    AnbimaFile f = BaseFile();
    f.Row(With(Minimal("C-99"), {{"name", "again"}}));
    ExpectRejected(f, "anbima_subclasses.csv:5: anbima_code C-99 appears on lines 3 and 5");
}

TEST_F(AnbimaTest, InvalidUtf8IsRefusedWithTheLine) {
    AnbimaFile f = BaseFile();
    f.Row(With(Minimal("LATIN1"), {{"name",
                                    "CR\xC9"
                                    "DITO"}}));  // ISO-8859-1 É
    ExpectRejected(f, "anbima_subclasses.csv:5: not UTF-8 text");
}

TEST_F(AnbimaTest, ControlCharactersAreRefused) {
    AnbimaFile f = BaseFile();
    f.Row(With(Minimal("CTRL"), {{"name", std::string("A\x01"
                                                      "B")}}));
    ExpectRejected(f, "anbima_subclasses.csv:5: control byte 0x01");
}

TEST_F(AnbimaTest, AWrongFieldCountIsNamed) {
    AnbimaFile f = BaseFile();
    f.lines.push_back("X1;12345678000195;12345678000195");
    ExpectRejected(f, "anbima_subclasses.csv:5: expected 17 fields, found 3");
}

TEST_F(AnbimaTest, BadValuesAreNamedWithLineColumnAndValue) {
    const std::vector<std::pair<Fields, std::string>> cases = {
        {{{"anbima_code", ""}}, ":5: anbima_code is empty"},
        {{{"anbima_code", "ABC_1"}},
         ":5: anbima_code is not 1 to 20 characters of 0-9, A-Z, a-z and '-': 'ABC_1'"},
        {{{"anbima_code", "A23456789012345678901"}}, ":5: anbima_code is not 1 to 20 characters"},
        {{{"class_cnpj", ""}}, ":5: class_cnpj is empty"},
        {{{"class_cnpj", "12.345.678/0001-00"}}, ":5: class_cnpj is not a valid CNPJ: '12.345.678/0001-00'"},
        {{{"fund_cnpj", "123"}}, ":5: fund_cnpj is not a valid CNPJ: '123'"},
        {{{"cvm_code", "70a1"}}, ":5: cvm_code is not made of digits: '70a1'"},
        {{{"activity_started_at", "2020/02/01"}},
         ":5: activity_started_at is not a YYYY-MM-DD date: '2020/02/01'"},
        {{{"first_subscription_at", "2023-02-29"}}, ":5: first_subscription_at is not a YYYY-MM-DD date"},
        {{{"opening_share", "aberta"}}, ":5: opening_share is not Abertura or Fechamento: 'aberta'"},
        {{{"adapted_to_rcvm_175", "Sim"}}, ":5: adapted_to_rcvm_175 is not S or N: 'Sim'"},
        {{{"minimum_initial_subscription_brl", "1.000,00"}},
         ":5: minimum_initial_subscription_brl is not a plain decimal such as 1000.00: '1.000,00'"},
        {{{"minimum_initial_subscription_brl", "-5"}},
         ":5: minimum_initial_subscription_brl is not a plain decimal"},
        {{{"minimum_initial_subscription_brl", "1e3"}},
         ":5: minimum_initial_subscription_brl is not a plain decimal"},
        {{{"redemption_payment_days", "-1"}},
         ":5: redemption_payment_days is not a non-negative integer: '-1'"},
        {{{"redemption_payment_days", "2.5"}}, ":5: redemption_payment_days is not a non-negative integer"},
    };
    for (const auto& [fields, expected] : cases) {
        AnbimaFile f = BaseFile();
        f.Row(With(Minimal("BAD"), fields));
        ExpectRejected(f, "anbima_subclasses.csv" + expected);
    }
}

TEST_F(AnbimaTest, ExactlyOneFileIsTaken) {
    ExpectRejected({BaseFile().Write(Dir("a")), BaseFile().Write(Dir("b"))},
                   "anbima.subclasses: give exactly one file, anbima_subclasses.csv (given 2)");
}

TEST_F(AnbimaTest, AnEmptyFileIsRefused) {
    const fs::path path = Dir("empty") / "anbima_subclasses.csv";
    WriteFile(path, "");
    ExpectRejected({path}, "anbima_subclasses.csv:1: empty file, no header");
}

TEST_F(AnbimaTest, TheReleaseIsDatedByTheFile) {
    const fs::path path = BaseFile().Write(Dir("dated"));
    fs::last_write_time(path, std::chrono::clock_cast<std::chrono::file_clock>(
                                  std::chrono::system_clock::from_time_t(SnapshotTime())));
    const auto summary = IngestAnbima(Db(), {path});
    EXPECT_EQ(summary.release_label, "anbima-subclasses-2026-08-17");
    EXPECT_EQ(summary.as_of, "2026-08-17");
}

}  // namespace
}  // namespace lastro::funds::testing
