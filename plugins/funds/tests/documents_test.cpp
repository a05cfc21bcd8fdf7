#include "src/documents.hpp"
#include "class_data_fixture.hpp"

#include <lastro/sdk/problem.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace lastro::funds::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr const char* kClassCnpj = "77777777000191";  // class 2002
constexpr const char* kFundCnpj = "12345678000195";   // its fund 1001 (and class 2001)

class ClassDocumentsTest : public ClassDataTest {
protected:
    void SetUp() override {
        ClassDataTest::SetUp();
        FundDocument regulation = Document("D1", kClassCnpj, "Regulamento", "regulamento", "2024-03-01");
        regulation.received_at = "2024-03-02";
        regulation.category = "regulation";
        regulation.filer_type = "Classe";
        regulation.file_name = "regulamento.pdf";
        regulation.source_url = "https://www.rad.cvm.gov.br/ENET/frmDownloadDocumento.aspx?id=1";
        regulation.subclass_code = "SUB001";
        regulation.audit_result = "Sem ressalvas";
        Persist(regulation);
        FundDocument fund_fact = Document("D2", kFundCnpj, "Fato Relevante", "fato-relevante", "2024-05-10");
        fund_fact.received_at = "2024-05-10 10:00:00";
        Persist(fund_fact);
        FundDocument class_fact =
            Document("D3", kClassCnpj, "Fato Relevante", "fato-relevante", "2024-05-10");
        class_fact.received_at = "2024-05-11";
        Persist(class_fact);
        Persist(Document("D4", kClassCnpj, "Demonstrações Financeiras", "demonstracoes-financeiras",
                         "2022-12-31"));
        Persist(
            Document("D5", "33333333000191", "Regulamento", "regulamento", "2024-06-01"));  // another fund
        Persist(Document("D6", kClassCnpj, "Informe", "informe", std::nullopt));
        Persist(Document("D8", kClassCnpj, "REL. RATING", "rel-rating", "2023-01-01"));
        Persist(Document("D7", kClassCnpj, "REL. RATING", "rel-rating", "2023-01-01"));
    }

    sdk::Result Documents(std::vector<Param> params) {
        params.push_back({"class_id", ClassIdFor("2002")});
        return Run(&HandleClassDocuments, params);
    }

    static std::vector<std::string> Ids(const sdk::Result& result) {
        std::vector<std::string> ids;
        for (const auto& item : result.data.as_array()) {
            ids.emplace_back(item.at("document_id").as_string());
        }
        return ids;
    }
};

TEST_F(ClassDocumentsTest, ClassAndFundDocumentsNewestFirstWithEveryField) {
    const sdk::Result result = Documents({});
    ExpectManifestShape("funds.class_documents", result.data);
    // Date desc, then received desc (D3 received after D2), then id; no date last.
    EXPECT_THAT(Ids(result), ElementsAre("D3", "D2", "D1", "D7", "D8", "D4", "D6"));

    const auto& regulation = result.data.as_array()[2].as_object();
    EXPECT_EQ(regulation.size(), 12u);
    EXPECT_EQ(regulation.at("document_id").as_string(), "D1");
    EXPECT_EQ(regulation.at("scope").as_string(), "class");
    EXPECT_EQ(regulation.at("document_type").as_string(), "Regulamento");
    EXPECT_EQ(regulation.at("document_type_slug").as_string(), "regulamento");
    EXPECT_EQ(regulation.at("category").as_string(), "regulation");
    EXPECT_EQ(regulation.at("document_date").as_string(), "2024-03-01");
    EXPECT_EQ(regulation.at("received_at").as_string(), "2024-03-02");
    EXPECT_EQ(regulation.at("reference_year").as_int64(), 2024);
    EXPECT_EQ(regulation.at("file_name").as_string(), "regulamento.pdf");
    EXPECT_EQ(regulation.at("source_url").as_string(),
              "https://www.rad.cvm.gov.br/ENET/frmDownloadDocumento.aspx?id=1");
    EXPECT_EQ(regulation.at("audit_result").as_string(), "Sem ressalvas");
    EXPECT_EQ(regulation.at("subclass_code").as_string(), "SUB001");

    EXPECT_EQ(result.data.as_array()[1].at("scope").as_string(), "fund");
    const auto& undated = result.data.as_array()[6].as_object();
    for (const char* field : {"document_date", "received_at", "reference_year", "file_name", "source_url",
                              "audit_result", "subclass_code"}) {
        EXPECT_TRUE(undated.at(field).is_null()) << field;
    }

    EXPECT_EQ(result.meta.data_release, "release-of-cvm.eventual_fi");
    ASSERT_EQ(result.meta.sources.size(), 2u);
    EXPECT_EQ(result.meta.sources[0].provider, "cvm");
    EXPECT_EQ(result.meta.sources[0].dataset, "eventual_fi");
    EXPECT_EQ(result.meta.sources[1].dataset, "registro_fundo_classe");
    EXPECT_EQ(result.meta.extra.at("pagination"),
              (boost::json::object{{"limit", 50}, {"offset", 0}, {"has_more", false}}));
    ExpectSourcesForEveryField("funds.class_documents", regulation, result.meta);
}

TEST_F(ClassDocumentsTest, DocumentTypeMatchesTheTypeOrItsSlugIgnoringCaseAndAccents) {
    EXPECT_THAT(Ids(Documents({{"document_type", std::string("fato relevante")}})), ElementsAre("D3", "D2"));
    EXPECT_THAT(Ids(Documents({{"document_type", std::string("FATO-RELEVANTE")}})), ElementsAre("D3", "D2"));
    EXPECT_THAT(Ids(Documents({{"document_type", std::string(" Demonstracoes Financeiras ")}})),
                ElementsAre("D4"));
    EXPECT_THAT(Ids(Documents({{"document_type", std::string("demonstrações-financeiras")}})),
                ElementsAre("D4"));
    EXPECT_THAT(Ids(Documents({{"document_type", std::string("rel. rating")}})), ElementsAre("D7", "D8"));
    // Whole values only.
    EXPECT_TRUE(Ids(Documents({{"document_type", std::string("Fato")}})).empty());
}

TEST_F(ClassDocumentsTest, YearsFilterOnTheReferenceYear) {
    EXPECT_THAT(Ids(Documents({{"start_year", std::int64_t{2024}}})), ElementsAre("D3", "D2", "D1"));
    EXPECT_THAT(Ids(Documents({{"end_year", std::int64_t{2023}}})), ElementsAre("D7", "D8", "D4"));
    EXPECT_THAT(Ids(Documents({{"start_year", std::int64_t{2023}}, {"end_year", std::int64_t{2023}}})),
                ElementsAre("D7", "D8"));
    EXPECT_TRUE(Ids(Documents({{"start_year", std::int64_t{2030}}})).empty());
}

TEST_F(ClassDocumentsTest, AStartYearAfterTheEndYearIsABadRequestNamingBoth) {
    try {
        Documents({{"start_year", std::int64_t{2024}}, {"end_year", std::int64_t{2023}}});
        FAIL() << "expected BadRequest";
    } catch (const sdk::BadRequest& problem) {
        EXPECT_THAT(problem.what(), HasSubstr("start_year"));
        EXPECT_THAT(problem.what(), HasSubstr("end_year"));
        EXPECT_EQ(problem.Parameter(), "start_year");
    }
}

TEST_F(ClassDocumentsTest, OffsetAndLimitPageThroughEveryDocumentOnce) {
    std::vector<std::string> seen;
    for (std::int64_t offset = 0;; offset += 3) {
        const sdk::Result page = Documents({{"limit", std::int64_t{3}}, {"offset", offset}});
        const auto& pagination = page.meta.extra.at("pagination").as_object();
        EXPECT_EQ(pagination.at("limit").as_int64(), 3);
        EXPECT_EQ(pagination.at("offset").as_int64(), offset);
        for (const std::string& id : Ids(page)) {
            seen.push_back(id);
        }
        if (!pagination.at("has_more").as_bool()) {
            EXPECT_EQ(page.data.as_array().size(), 1u);
            break;
        }
        EXPECT_EQ(page.data.as_array().size(), 3u);
        ASSERT_LT(offset, 10);
    }
    EXPECT_THAT(seen, ElementsAre("D3", "D2", "D1", "D7", "D8", "D4", "D6"));

    const sdk::Result beyond = Documents({{"offset", std::int64_t{100}}});
    EXPECT_TRUE(beyond.data.as_array().empty());
    EXPECT_FALSE(beyond.meta.extra.at("pagination").at("has_more").as_bool());
}

TEST_F(ClassDocumentsTest, AnOnlyClassSharingItsFundCnpjListsItsFilingsAsClassDocuments) {
    Persist(Document("G1", "33333333000191", "Regulamento", "regulamento", "2024-01-01"));
    const sdk::Result result = Run(&HandleClassDocuments, {{"class_id", ClassIdFor("2003")}});
    ASSERT_EQ(result.data.as_array().size(), 2u);  // G1 and D5
    for (const auto& item : result.data.as_array()) {
        EXPECT_EQ(item.at("scope").as_string(), "class");
    }
}

TEST_F(ClassDocumentsTest, AClassWithoutDocumentsIsAnEmptyListAndAnUnknownClassIsNotFound) {
    EXPECT_TRUE(Run(&HandleClassDocuments, {{"class_id", ClassIdFor("2013")}}).data.as_array().empty());
    try {
        Run(&HandleClassDocuments, {{"class_id", ClassIdFor("424242")}});
        FAIL() << "expected NotFound";
    } catch (const sdk::NotFound& problem) {
        EXPECT_EQ(problem.Parameter(), "class_id");
    }
}

}  // namespace
}  // namespace lastro::funds::testing
