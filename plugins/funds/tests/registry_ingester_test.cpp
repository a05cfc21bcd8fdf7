#include "registry_fixture.hpp"

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/uuid.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace lastro::funds::testing {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;

template <typename T, typename Id>
std::set<std::string> Ids(const std::vector<T>& objects, Id id) {
    std::set<std::string> ids;
    for (const T& object : objects) {
        ids.insert(object.*id);
    }
    return ids;
}

Fund FundById(odb::database& db, std::int64_t registry_id) {
    for (const Fund& fund : AllRows<Fund>(db)) {
        if (fund.registry_id == registry_id) {
            return fund;
        }
    }
    ADD_FAILURE() << "no fund " << registry_id;
    return {};
}

FundClass ClassById(odb::database& db, std::int64_t registry_id) {
    for (const FundClass& fund_class : AllRows<FundClass>(db)) {
        if (fund_class.registry_id == registry_id) {
            return fund_class;
        }
    }
    ADD_FAILURE() << "no class " << registry_id;
    return {};
}

TEST_F(RegistryTest, CountsEveryRowOnce) {
    EXPECT_EQ(summary_.rows_read, kBaseRead);
    EXPECT_EQ(summary_.inserted, kBaseKept);
    EXPECT_EQ(summary_.updated, 0u);
    EXPECT_EQ(summary_.unchanged, 0u);
    EXPECT_EQ(summary_.removed, 0u);
    EXPECT_EQ(summary_.rejected, 8u);
    EXPECT_EQ(summary_.rejections.size(), 8u);
    EXPECT_EQ(AllRows<Fund>(Db()).size(), 5u);
    EXPECT_EQ(AllRows<FundClass>(Db()).size(), 6u);
    EXPECT_EQ(AllRows<Subclass>(Db()).size(), 2u);
}

TEST_F(RegistryTest, NamesTheReasonOfEveryRejectedRow) {
    const auto& r = summary_.rejections;
    EXPECT_THAT(r, Contains(HasSubstr("registro_fundo.csv line 7: invalid CNPJ_Fundo '12345678000100'")));
    EXPECT_THAT(r, Contains(HasSubstr("registro_fundo.csv line 9: Data_Registro is not a YYYY-MM-DD date")));
    EXPECT_THAT(r, Contains(HasSubstr("registro_fundo.csv line 10: Patrimonio_Liquido is not a number")));
    EXPECT_THAT(r, Contains("registro_fundo.csv line 11: expected 21 fields, found 7"));
    EXPECT_THAT(r, Contains("registro_fundo.csv line 6: duplicate ID_Registro_Fundo 1002 (kept line 3)"));
    EXPECT_THAT(r, Contains("registro_classe.csv line 8: unknown ID_Registro_Fundo 9999"));
    EXPECT_THAT(r, Contains("registro_classe.csv line 9: unknown ID_Registro_Fundo 1005"));
    EXPECT_THAT(r, Contains("registro_subclasse.csv line 4: unknown ID_Registro_Classe 9998"));
}

TEST_F(RegistryTest, DuplicateRegistryIdKeepsTheRowThatIsNotCancelled) {
    const Fund gama = FundById(Db(), 1002);
    EXPECT_EQ(gama.cvm_code, 5002);
    EXPECT_FALSE(gama.cancelled_at.has_value());
}

TEST(RegistryDuplicates, AmongEqualsTheLaterRegistrationThenTheLaterLineWins) {
    FundsDatabase database;
    Snapshot s;
    s.Fund({{"ID_Registro_Fundo", "1"},
            {"CNPJ_Fundo", "12345678000195"},
            {"Codigo_CVM", "10"},
            {"Data_Registro", "2021-01-01"}});
    s.Fund({{"ID_Registro_Fundo", "1"},
            {"CNPJ_Fundo", "12345678000195"},
            {"Codigo_CVM", "11"},
            {"Data_Registro", "2022-01-01"}});
    s.Fund({{"ID_Registro_Fundo", "1"},
            {"CNPJ_Fundo", "12345678000195"},
            {"Codigo_CVM", "12"},
            {"Data_Registro", "2020-01-01"}});
    s.Fund({{"ID_Registro_Fundo", "2"}, {"CNPJ_Fundo", "33333333000191"}, {"Codigo_CVM", "20"}});
    s.Fund({{"ID_Registro_Fundo", "2"}, {"CNPJ_Fundo", "33333333000191"}, {"Codigo_CVM", "21"}});
    const auto summary = Ingest(database.Db(), WriteCsvs(database.Dir(), s));
    EXPECT_EQ(summary.inserted, 2u);
    EXPECT_EQ(summary.rejected, 3u);
    EXPECT_EQ(FundById(database.Db(), 1).cvm_code, 11);
    EXPECT_EQ(FundById(database.Db(), 2).cvm_code, 21);
    EXPECT_THAT(summary.rejections,
                Contains("registro_fundo.csv line 2: duplicate ID_Registro_Fundo 1 (kept line 3)"));
    EXPECT_THAT(summary.rejections,
                Contains("registro_fundo.csv line 5: duplicate ID_Registro_Fundo 2 (kept line 6)"));
}

TEST_F(RegistryTest, IdsAreUuidV5OfTheRegistryIds) {
    const Fund alfa = FundById(Db(), 1001);
    EXPECT_EQ(alfa.fund_id, sdk::UuidV5(kFundsNamespace, "cvm.registro_fundo:1001"));
    EXPECT_EQ(alfa.fund_id[14], '5');
    const FundClass senior = ClassById(Db(), 2001);
    EXPECT_EQ(senior.class_id, sdk::UuidV5(kFundsNamespace, "cvm.registro_classe:2001"));
    EXPECT_EQ(senior.fund_id, alfa.fund_id);
    for (const Subclass& subclass : AllRows<Subclass>(Db())) {
        EXPECT_EQ(subclass.subclass_id,
                  sdk::UuidV5(kFundsNamespace, "cvm.registro_subclasse:" + subclass.registry_id));
        EXPECT_EQ(subclass.class_id, senior.class_id);
    }
}

TEST_F(RegistryTest, IdsAreTheSameInAFreshDatabaseFedTheZip) {
    FundsDatabase other;
    TempDir zip_dir;
    const auto summary = Ingest(other.Db(), {WriteZip(zip_dir.Path(), BaseSnapshot())});
    EXPECT_EQ(summary.inserted, kBaseKept);
    EXPECT_EQ(Ids(AllRows<Fund>(other.Db()), &Fund::fund_id), Ids(AllRows<Fund>(Db()), &Fund::fund_id));
    EXPECT_EQ(Ids(AllRows<FundClass>(other.Db()), &FundClass::class_id),
              Ids(AllRows<FundClass>(Db()), &FundClass::class_id));
    EXPECT_EQ(Ids(AllRows<Subclass>(other.Db()), &Subclass::subclass_id),
              Ids(AllRows<Subclass>(Db()), &Subclass::subclass_id));
}

TEST_F(RegistryTest, ReleaseIsDatedByTheNewestFile) {
    EXPECT_EQ(summary_.release_label, "registro-2026-08-17");
    EXPECT_EQ(summary_.as_of, "2026-08-17");
    FundsDatabase other;
    TempDir zip_dir;
    const auto summary = Ingest(other.Db(), {WriteZip(zip_dir.Path(), BaseSnapshot())});
    EXPECT_EQ(summary.release_label, "registro-2026-08-17");
    EXPECT_EQ(summary.as_of, "2026-08-17");
}

TEST_F(RegistryTest, ReingestOfTheSameSnapshotChangesNothing) {
    const auto summary = Ingest(Db(), WriteCsvs(database_.Dir(), BaseSnapshot()));
    EXPECT_EQ(summary.inserted, 0u);
    EXPECT_EQ(summary.updated, 0u);
    EXPECT_EQ(summary.unchanged, kBaseKept);
    EXPECT_EQ(summary.removed, 0u);
}

TEST_F(RegistryTest, ReingestWithOneChangedRowUpdatesOnlyThatRow) {
    Snapshot changed = BaseSnapshot();
    changed.funds[2] = Line(kFundHeader, {{"ID_Registro_Fundo", "1002"},
                                          {"CNPJ_Fundo", "33333333000191"},
                                          {"Codigo_CVM", "5002"},
                                          {"Data_Registro", "2019-05-01"},
                                          {"Tipo_Fundo", "FIDC-NP"},
                                          {"Denominacao_Social", "GAMA FIDC NP (NOVO NOME)"},
                                          {"Situacao", "Em Funcionamento Normal"},
                                          {"Administrador", "ADMINISTRADORA BETA S.A."},
                                          {"Tipo_Pessoa_Gestor", "PF"},
                                          {"CPF_CNPJ_Gestor", "12345678909"},
                                          {"Gestor", "Gestora Ômega"}});
    const auto summary = Ingest(Db(), WriteCsvs(database_.Dir(), changed));
    EXPECT_EQ(summary.updated, 1u);
    EXPECT_EQ(summary.unchanged, kBaseKept - 1);
    EXPECT_EQ(summary.inserted, 0u);
    EXPECT_EQ(summary.removed, 0u);
    const Fund gama = FundById(Db(), 1002);
    EXPECT_EQ(gama.name, "GAMA FIDC NP (NOVO NOME)");
    EXPECT_THAT(gama.search_text, HasSubstr("gama fidc np (novo nome)"));
}

TEST_F(RegistryTest, RowsAbsentFromTheSnapshotAreRemoved) {
    Snapshot smaller = BaseSnapshot();
    smaller.funds.erase(smaller.funds.begin() + 4);            // fund 1004: its classes lose their parent
    smaller.subclasses.erase(smaller.subclasses.begin() + 2);  // SUB002
    const auto summary = Ingest(Db(), WriteCsvs(database_.Dir(), smaller));
    EXPECT_EQ(summary.removed, 4u);  // fund 1004, classes 2005 and 2006, subclass SUB002
    EXPECT_EQ(summary.unchanged, kBaseKept - 4);
    EXPECT_EQ(summary.rejected, 8u + 2u);
    EXPECT_EQ(AllRows<Fund>(Db()).size(), 4u);
    EXPECT_EQ(AllRows<FundClass>(Db()).size(), 4u);
    EXPECT_EQ(AllRows<Subclass>(Db()).size(), 1u);
}

TEST_F(RegistryTest, EmptyFieldsStayNull) {
    const Fund gama = FundById(Db(), 1002);
    EXPECT_FALSE(gama.net_worth.has_value());
    EXPECT_FALSE(gama.net_worth_at.has_value());
    EXPECT_FALSE(gama.constituted_at.has_value());
    EXPECT_FALSE(gama.director.has_value());
    const Fund no_code = FundById(Db(), 1006);
    EXPECT_FALSE(no_code.cvm_code.has_value());
    const FundClass mezanino = ClassById(Db(), 2002);
    EXPECT_FALSE(mezanino.net_worth.has_value());
    EXPECT_FALSE(mezanino.auditor.has_value());
    EXPECT_FALSE(mezanino.constituted_at.has_value());
}

TEST_F(RegistryTest, ValuesAreDecodedAndNormalized) {
    const Fund alfa = FundById(Db(), 1001);
    EXPECT_EQ(alfa.name, "FIDC CRÉDITO CONSIGNADO ALFA");  // ISO-8859-1 in the file, UTF-8 here
    EXPECT_EQ(alfa.director, "João da Silva");
    EXPECT_EQ(alfa.net_worth, 20471867.51);
    EXPECT_EQ(alfa.status_folded, "em funcionamento normal");
    EXPECT_EQ(alfa.manager_folded, "gestora acao ltda");
    EXPECT_EQ(alfa.search_text,
              "fidc credito consignado alfa\n12345678000195\ngestora acao ltda\nadministradora beta s.a.");
    EXPECT_TRUE(alfa.fidc_universe);
    EXPECT_EQ(FundById(Db(), 1002).manager_document, "12345678909");  // a CPF stays as published
    EXPECT_TRUE(FundById(Db(), 1006).fidc_universe);                  // "FIC FIDC" spelling
    EXPECT_FALSE(FundById(Db(), 1004).fidc_universe);
    const FundClass senior = ClassById(Db(), 2001);
    EXPECT_EQ(senior.custodian_cnpj, "12121212000106");
    EXPECT_EQ(senior.net_worth, 15000000.25);
}

TEST(RegistryUniverse, RecognisesTheFidcTypesInAnySpelling) {
    for (const char* type :
         {"FIDC", "fidc", "FIDC-NP", "FIDC NP", "FIC-FIDC", "FICFIDC", "FIC FIDC", "fic-fidc"}) {
        EXPECT_TRUE(IsFidcUniverse(type)) << type;
    }
    for (const char* type : {"FI", "FII", "FIP", "FIC-FI", "", "FIDCX"}) {
        EXPECT_FALSE(IsFidcUniverse(type)) << type;
    }
}

TEST(RegistryInputs, MissingColumnFailsTheIngestNamingFileAndLine) {
    FundsDatabase database;
    Snapshot s = BaseSnapshot();
    s.funds[0] = s.funds[0].substr(0, s.funds[0].rfind(';'));  // drop the Gestor column
    try {
        Ingest(database.Db(), WriteCsvs(database.Dir(), s));
        FAIL() << "expected IngestError";
    } catch (const sdk::IngestError& error) {
        EXPECT_THAT(error.File(), HasSubstr("registro_fundo.csv"));
        EXPECT_EQ(error.Line(), 1u);
        EXPECT_THAT(error.what(), HasSubstr("Gestor"));
    }
    EXPECT_TRUE(AllRows<Fund>(database.Db()).empty());
}

TEST(RegistryInputs, AMissingFileIsNamed) {
    FundsDatabase database;
    auto paths = WriteCsvs(database.Dir(), BaseSnapshot());
    paths.erase(std::remove(paths.begin(), paths.end(), database.Dir() / "registro_classe.csv"), paths.end());
    try {
        Ingest(database.Db(), paths);
        FAIL() << "expected IngestError";
    } catch (const sdk::IngestError& error) {
        EXPECT_THAT(error.what(), HasSubstr("registro_classe.csv"));
    }
}

TEST(RegistryInputs, AZipWithoutAMemberIsNamed) {
    FundsDatabase database;
    const fs::path path = database.Dir() / "registro_fundo_classe.zip";
    {
        sdk::ZipWriter zip(path);
        zip.Add("registro_fundo.csv", Snapshot::Bytes(BaseSnapshot().funds), SnapshotTime());
        zip.Add("registro_classe.csv", Snapshot::Bytes(BaseSnapshot().classes), SnapshotTime());
        zip.Close();
    }
    try {
        Ingest(database.Db(), {path});
        FAIL() << "expected IngestError";
    } catch (const sdk::IngestError& error) {
        EXPECT_THAT(error.what(), HasSubstr("registro_subclasse.csv"));
        EXPECT_THAT(error.File(), HasSubstr("registro_fundo_classe.zip"));
    }
}

TEST(RegistryInputs, AnUnknownFileIsRefused) {
    FundsDatabase database;
    auto paths = WriteCsvs(database.Dir(), BaseSnapshot());
    WriteFile(database.Dir() / "cad_fi.csv", "TP_FUNDO\r\n");
    paths.push_back(database.Dir() / "cad_fi.csv");
    EXPECT_THROW(Ingest(database.Db(), paths), sdk::IngestError);
}

TEST(RegistryProgress, ReportsAStagePerFileAndRowsEvery5000) {
    FundsDatabase database;
    Snapshot s;
    for (int i = 1; i <= 5000; ++i) {
        s.Fund({{"ID_Registro_Fundo", std::to_string(i)},
                {"CNPJ_Fundo", "12345678000195"},
                {"Tipo_Fundo", "FIDC"}});
    }
    RecordingProgress progress;
    const auto summary = Ingest(database.Db(), WriteCsvs(database.Dir(), s), &progress);
    EXPECT_EQ(summary.inserted, 5000u);
    EXPECT_EQ(progress.LastRows(), 5000u);
    EXPECT_THAT(progress.Stages(), Contains("registro_fundo.csv"));
    EXPECT_THAT(progress.Stages(), Contains("registro_classe.csv"));
    EXPECT_THAT(progress.Stages(), Contains("registro_subclasse.csv"));
}

}  // namespace
}  // namespace lastro::funds::testing
