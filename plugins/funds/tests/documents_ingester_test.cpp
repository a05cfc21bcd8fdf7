#include "documents_test_files.hpp"
#include "ingest/eventual_fi/documents_category.hpp"

#include <lastro/sdk/problem.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <type_traits>
#include <utility>

namespace lastro::funds::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Fields Document(const std::string& id, const std::string& type) {
    return {{"TP_FUNDO_CLASSE", "CLASSES - FIDC"},
            {"CNPJ_FUNDO_CLASSE", "12.345.678/0001-95"},
            {"DENOM_SOCIAL", "FIDC CRÉDITO ALFA"},
            {"DT_COMPTC", "2024-03-31"},
            {"DT_RECEB", "2024-04-10"},
            {"TP_DOC", type},
            {"NM_ARQ", "doc_" + id + ".pdf"},
            {"ID_DOC", id},
            {"LINK_ARQ", "https://web.cvm.gov.br/app/fundosweb/fundos/regulamento/obter/por/arquivo/" + id}};
}

Fields With(Fields base, const Fields& more) {
    for (const auto& [key, value] : more) {
        base[key] = value;
    }
    return base;
}

// The 2024 file (line numbers matter):
//   2 1001 Fato Relevante (replaced by line 6)
//   3 1002 REGUL FDO, subclass, DT_RECEB with a time (the latest)
//   4 1003 DEMONST CONTAB of 2023, audit result
//   5 1004 REL. RATING with every optional field empty
//   6 1001 again: the last line wins
EventualFile Year2024() {
    EventualFile f;
    f.Row(Document("1001", "Fato Relevante"));
    f.Row(
        With(Document("1002", "REGUL FDO"),
             {{"ID_SUBCLASSE", "SUB01"}, {"DT_COMPTC", "2024-05-01"}, {"DT_RECEB", "2024-05-02 14:33:07"}}));
    f.Row(With(
        Document("1003", "DEMONST CONTAB"),
        {{"DT_COMPTC", "2023-12-31"}, {"DT_RECEB", "2024-03-30"}, {"RESULTADO_AUDITORIA", "Com Ressalva"}}));
    f.Row({{"CNPJ_FUNDO_CLASSE", "33333333000191"}, {"TP_DOC", "REL. RATING"}, {"ID_DOC", "1004"}});
    f.Row(With(Document("1001", "FATO RELEV"), {{"NM_ARQ", "fato_v2.pdf"}}));
    return f;
}

EventualFile Year2023() {
    EventualFile f;
    f.Row(With(Document("900", "AGO"), {{"DT_COMPTC", "2023-04-28"}, {"DT_RECEB", "2023-04-29"}}));
    return f;
}

std::vector<std::string> Dump(odb::database& db) {
    std::vector<std::string> rows;
    auto show = [](const auto& value) {
        if constexpr (requires { value.has_value(); }) {
            if (!value) {
                return std::string("null");
            }
            if constexpr (std::is_same_v<std::decay_t<decltype(*value)>, std::string>) {
                return *value;
            } else {
                return std::to_string(*value);
            }
        } else {
            return std::string(value);
        }
    };
    for (const FundDocument& d : AllRows<FundDocument>(db)) {
        rows.push_back(d.document_id + "|" + d.cnpj + "|" + show(d.filer_type) + "|" + show(d.subclass_code) +
                       "|" + show(d.name) + "|" + show(d.document_date) + "|" + show(d.received_at) + "|" +
                       show(d.reference_year) + "|" + d.document_type + "|" + d.document_type_slug + "|" +
                       d.category + "|" + show(d.file_name) + "|" + show(d.source_url) + "|" +
                       show(d.audit_result) + "|" + std::to_string(d.source_year));
    }
    std::sort(rows.begin(), rows.end());
    return rows;
}

std::optional<FundDocument> Find(odb::database& db, const std::string& id) {
    for (const FundDocument& d : AllRows<FundDocument>(db)) {
        if (d.document_id == id) {
            return d;
        }
    }
    return std::nullopt;
}

class DocumentsTest : public ScratchDatabaseTest {
protected:
    void SetUp() override {
        summary_ = IngestDocuments(Db(), {Year2024().WriteCsv(database_.Dir(), "eventual_fi_2024.csv")});
    }

    // The ingest fails with a message containing `expected`, and the database is as it was.
    void ExpectRejected(const std::vector<fs::path>& inputs, const std::string& expected) {
        ExpectRejectedUnchanged([&] { IngestDocuments(Db(), inputs); }, [&] { return Dump(Db()); }, expected);
    }

    sdk::IngestSummary summary_;
};

TEST_F(DocumentsTest, CountsAndLabelsTheRelease) {
    EXPECT_EQ(summary_.rows_read, 5u);
    EXPECT_EQ(summary_.inserted, 4u);
    EXPECT_EQ(summary_.rejected, 1u);
    EXPECT_THAT(summary_.rejections,
                ElementsAre("eventual_fi_2024.csv line 2: duplicate ID_DOC 1001 (kept line 6)"));
    EXPECT_EQ(summary_.release_label, "eventual_fi-2024-05-02");
    EXPECT_EQ(summary_.as_of, "2024-05-02");
    EXPECT_EQ(AllRows<FundDocument>(Db()).size(), 4u);
}

TEST_F(DocumentsTest, MapsEveryColumn) {
    const auto d = Find(Db(), "1002");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->cnpj, "12345678000195");
    EXPECT_EQ(d->filer_type, "CLASSES - FIDC");
    EXPECT_EQ(d->subclass_code, "SUB01");
    EXPECT_EQ(d->name, "FIDC CRÉDITO ALFA");
    EXPECT_EQ(d->document_date, "2024-05-01");
    EXPECT_EQ(d->received_at, "2024-05-02 14:33:07");  // as published
    EXPECT_EQ(d->reference_year, 2024);
    EXPECT_EQ(d->document_type, "REGUL FDO");
    EXPECT_EQ(d->document_type_slug, "regul-fdo");
    EXPECT_EQ(d->category, "regulation");
    EXPECT_EQ(d->file_name, "doc_1002.pdf");
    EXPECT_EQ(d->source_url,
              "https://web.cvm.gov.br/app/fundosweb/fundos/regulamento/obter/por/arquivo/1002");
    EXPECT_FALSE(d->audit_result.has_value());
    EXPECT_EQ(d->source_year, 2024);

    const auto statements = Find(Db(), "1003");
    ASSERT_TRUE(statements);
    EXPECT_EQ(statements->reference_year, 2023);  // the year of DT_COMPTC, not of the file
    EXPECT_EQ(statements->audit_result, "Com Ressalva");
    EXPECT_EQ(statements->category, "financial_statements");
}

TEST_F(DocumentsTest, EmptyFieldsStayNull) {
    const auto d = Find(Db(), "1004");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->cnpj, "33333333000191");
    EXPECT_EQ(d->category, "rating");
    EXPECT_EQ(d->document_type_slug, "rel-rating");
    for (const auto& text : {d->filer_type, d->subclass_code, d->name, d->document_date, d->received_at,
                             d->file_name, d->source_url, d->audit_result}) {
        EXPECT_FALSE(text.has_value());
    }
    EXPECT_FALSE(d->reference_year.has_value());
}

TEST_F(DocumentsTest, ARepeatedIdKeepsTheLastLine) {
    const auto d = Find(Db(), "1001");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->file_name, "fato_v2.pdf");
    EXPECT_EQ(d->document_type, "FATO RELEV");
    EXPECT_EQ(d->category, "material_fact");
}

TEST_F(DocumentsTest, AYearFileIsTheFullSnapshotOfItsYear) {
    IngestDocuments(Db(), {Year2023().WriteCsv(Dir("a"), "eventual_fi_2023.csv")});
    EventualFile next;
    next.Row(With(Document("1001", "FATO RELEV"), {{"NM_ARQ", "fato_v2.pdf"}}));  // unchanged
    next.Row(With(Document("1002", "REGUL FDO"), {{"DT_RECEB", "2024-06-01"}}));  // changed
    next.Row({{"CNPJ_FUNDO_CLASSE", "33333333000191"}, {"TP_DOC", "REL. RATING"}, {"ID_DOC", "1004"}});
    next.Row(Document("1005", "Comunicado ao Mercado"));  // new; 1003 is gone
    const auto summary =
        IngestDocuments(Db(), {next.WriteZip(Dir("b"), "eventual_fi_2024.zip", "eventual_fi_2024.csv")});
    EXPECT_EQ(summary.inserted, 1u);
    EXPECT_EQ(summary.updated, 1u);
    EXPECT_EQ(summary.unchanged, 2u);
    EXPECT_EQ(summary.removed, 1u);
    EXPECT_EQ(summary.release_label, "eventual_fi-2024-06-01");

    EXPECT_FALSE(Find(Db(), "1003").has_value());
    EXPECT_EQ(Find(Db(), "1002")->received_at, "2024-06-01");
    EXPECT_EQ(Find(Db(), "1005")->category, "notice");
    EXPECT_EQ(Find(Db(), "900")->source_year, 2023);  // the other year is untouched
}

TEST_F(DocumentsTest, TheZipReadsLikeTheCsv) {
    FundsDatabase other;
    IngestDocuments(other.Db(),
                    {Year2024().WriteZip(Dir("z"), "eventual_fi_2024.zip", "eventual_fi_2024.csv")});
    EXPECT_EQ(Dump(other.Db()), Dump(Db()));
}

TEST_F(DocumentsTest, AnIdListedByTwoYearsStaysWithTheLaterYear) {
    EventualFile older;
    older.Row(With(Document("1002", "REGUL FDO"), {{"NM_ARQ", "old.pdf"}}));
    const auto summary = IngestDocuments(Db(), {older.WriteCsv(Dir("a"), "eventual_fi_2023.csv")});
    EXPECT_EQ(summary.rejected, 1u);
    EXPECT_THAT(
        summary.rejections,
        ElementsAre("eventual_fi_2023.csv line 2: ID_DOC 1002 is kept from the later eventual_fi_2024"));
    EXPECT_EQ(Find(Db(), "1002")->file_name, "doc_1002.pdf");
    EXPECT_EQ(Find(Db(), "1002")->source_year, 2024);
}

TEST_F(DocumentsTest, IngestingAnOlderYearKeepsTheLatestReceiptAsTheRelease) {
    const auto summary = IngestDocuments(Db(), {Year2023().WriteCsv(Dir("a"), "eventual_fi_2023.csv")});
    EXPECT_EQ(summary.release_label, "eventual_fi-2024-05-02");
}

// ---- rejections: each leaves the database as it was ------------------------------------

// Whether or not the name carries a year, the refusal names the file and the names expected.
TEST_F(DocumentsTest, ANameOfAnotherShapeIsRefusedNamingTheExpectedNames) {
    const std::string expected =
        ": not a file of cvm.eventual_fi (expected eventual_fi_YYYY.csv or eventual_fi_YYYY.zip)";
    ExpectRejected({Year2024().WriteCsv(Dir("x"), "eventual_fi.csv")}, "eventual_fi.csv" + expected);
    ExpectRejected({Year2024().WriteCsv(Dir("y"), "documentos_2024.csv")}, "documentos_2024.csv" + expected);
    ExpectRejected({Year2024().WriteCsv(Dir("z"), "cda_fi_BLC_1_202401.csv")},
                   "cda_fi_BLC_1_202401.csv" + expected);
}

TEST_F(DocumentsTest, AZipWithoutItsMemberIsRefused) {
    ExpectRejected({Year2024().WriteZip(Dir("x"), "eventual_fi_2024.zip", "eventual_fi_2023.csv")},
                   "eventual_fi_2024.zip: missing member eventual_fi_2024.csv");
}

TEST_F(DocumentsTest, ATruncatedZipIsNamed) {
    const fs::path path = Year2024().WriteZip(Dir("x"), "eventual_fi_2024.zip", "eventual_fi_2024.csv");
    fs::resize_file(path, fs::file_size(path) / 2);
    ExpectRejected({path}, "eventual_fi_2024.zip");
}

TEST_F(DocumentsTest, AMissingColumnIsNamedAtLine1) {
    EventualFile f = Year2024();
    auto header = kEventualHeader;
    header.erase(std::find(header.begin(), header.end(), "ID_DOC"));
    f.lines.front() = Join(header);
    ExpectRejected({f.WriteCsv(Dir("x"), "eventual_fi_2024.csv")},
                   "eventual_fi_2024.csv:1: missing column ID_DOC");
}

TEST_F(DocumentsTest, BadValuesAreNamedWithFileLineColumnAndValue) {
    const std::vector<std::pair<Fields, std::string>> cases = {
        {{{"DT_COMPTC", "31/03/2024"}},
         "eventual_fi_2024.csv:7: DT_COMPTC is not a YYYY-MM-DD date: '31/03/2024'"},
        {{{"DT_RECEB", "2024-04-10T10:00:00"}}, "eventual_fi_2024.csv:7: DT_RECEB is not a YYYY-MM-DD date"},
        {{{"DT_RECEB", "2024-04-10 25:00:00"}},
         "DT_RECEB is not a YYYY-MM-DD date (or YYYY-MM-DD HH:MM:SS): "
         "'2024-04-10 25:00:00'"},
        {{{"CNPJ_FUNDO_CLASSE", "12.345.678/0001-00"}},
         "eventual_fi_2024.csv:7: CNPJ_FUNDO_CLASSE is not a valid CNPJ: '12.345.678/0001-00'"},
        {{{"ID_DOC", ""}}, "eventual_fi_2024.csv:7: ID_DOC is empty"},
        {{{"TP_DOC", ""}}, "eventual_fi_2024.csv:7: TP_DOC is empty"},
        {{{"TP_DOC", "--"}}, "eventual_fi_2024.csv:7: TP_DOC has no letter or digit: '--'"},
    };
    for (const auto& [fields, expected] : cases) {
        EventualFile f = Year2024();
        f.Row(With(Document("2000", "AGO"), fields));
        ExpectRejected({f.WriteCsv(Dir("x"), "eventual_fi_2024.csv")}, expected);
    }
}

TEST_F(DocumentsTest, AWrongFieldCountIsNamed) {
    EventualFile f = Year2024();
    f.lines.push_back("FI;12.345.678/0001-95;CURTA");
    ExpectRejected({f.WriteCsv(Dir("x"), "eventual_fi_2024.csv")},
                   "eventual_fi_2024.csv:7: expected 11 fields, found 3");
}

TEST_F(DocumentsTest, AYearGivenTwiceIsRefused) {
    ExpectRejected({Year2024().WriteCsv(Dir("x"), "eventual_fi_2024.csv"),
                    Year2024().WriteZip(Dir("y"), "eventual_fi_2024.zip", "eventual_fi_2024.csv")},
                   "eventual_fi_2024.zip: year 2024 given twice (also eventual_fi_2024.csv)");
}

TEST(DocumentTypes, SlugsFoldAndHyphenate) {
    EXPECT_EQ(DocumentTypeSlug("Fato Relevante"), "fato-relevante");
    EXPECT_EQ(DocumentTypeSlug("REL. RATING"), "rel-rating");
    EXPECT_EQ(DocumentTypeSlug("AGO/AGE PROPADM"), "ago-age-propadm");
    EXPECT_EQ(DocumentTypeSlug("PROSPEC.DISTRIB"), "prospec-distrib");
    EXPECT_EQ(DocumentTypeSlug("  Convocação  de Assembléia "), "convocacao-de-assembleia");
    EXPECT_EQ(DocumentTypeSlug("Demonstrações Financeiras"), "demonstracoes-financeiras");
    EXPECT_EQ(DocumentTypeSlug("--"), "");
}

TEST(DocumentTypes, CategoriesCoverCvmCodesAndFullNames) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"REGUL FDO", "regulation"},
        {"ALTER REGUL", "regulation"},
        {"SGF ANEXO", "regulation"},
        {"SGF APENDICE", "regulation"},
        {"Regulamento", "regulation"},
        {"AGO", "meeting"},
        {"EDITAL AGO", "meeting"},
        {"AGO/AGE PROPADM", "meeting"},
        {"PROPOSTA ADMINI", "meeting"},
        {"Ata da Assembleia", "meeting"},
        {"Convocação", "meeting"},
        {"DEMONST CONTAB", "financial_statements"},
        {"DF ANUAL FII", "financial_statements"},
        {"PARECER AUD.", "financial_statements"},
        {"Demonstrações Financeiras", "financial_statements"},
        {"FATO RELEV", "material_fact"},
        {"Fato Relevante", "material_fact"},
        {"AVISO MERCADO", "notice"},
        {"Comunicado ao Mercado", "notice"},
        {"REL. RATING", "rating"},
        {"Relatório de Rating", "rating"},
        {"Material Publicitário", "marketing"},
        {"PROSPEC.DISTRIB", "marketing"},
        {"Lâmina", "marketing"},
        {"RELAT GERENCIAL", "report"},
        {"Relatório Anual", "report"},
        {"INFORM MENSAL", "report"},
        {"OUTROS", "other"},
        {"AID", "other"},
    };
    for (const auto& [type, category] : cases) {
        EXPECT_EQ(DocumentCategory(DocumentTypeSlug(type)), category) << type;
    }
}

}  // namespace
}  // namespace lastro::funds::testing
