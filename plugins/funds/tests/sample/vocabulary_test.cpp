#include "sample/vocabulary.hpp"

#include <gtest/gtest.h>

namespace lastro::funds::sample {
namespace {

TEST(VocabularyTest, UpperCaseHandlesLatin1Letters) {
    EXPECT_EQ(UpperCase("crédito consignado público"), "CRÉDITO CONSIGNADO PÚBLICO");
    EXPECT_EQ(UpperCase("ações e participações ç ã õ â ê ô à ü"), "AÇÕES E PARTICIPAÇÕES Ç Ã Õ Â Ê Ô À Ü");
    EXPECT_EQ(UpperCase("1ª série ÷"), "1ª SÉRIE ÷");
}

TEST(VocabularyTest, TitleCaseKeepsAcronymsAndLowersParticles) {
    EXPECT_EQ(TitleCase("FUNDO DE INVESTIMENTO EM DIREITOS CREDITÓRIOS ÁGATA"),
              "Fundo de Investimento em Direitos Creditórios Ágata");
    EXPECT_EQ(TitleCase("ARAUCÁRIA CRÉDITO CONSIGNADO FIDC NP II"),
              "Araucária Crédito Consignado FIDC NP II");
    EXPECT_EQ(TitleCase("DE SOUZA"), "De Souza");
}

TEST(VocabularyTest, ExpandPattern) {
    EXPECT_EQ(ExpandPattern("{B} {T} FIDC", "IPÊ", "CRÉDITO PESSOAL"), "IPÊ CRÉDITO PESSOAL FIDC");
}

TEST(VocabularyTest, EveryTypeHasThemesAndBothKindsOfNamePattern) {
    for (FundType type : {FundType::kFidc, FundType::kFidcNp, FundType::kFicFidc, FundType::kFi,
                          FundType::kFii, FundType::kFip, FundType::kFiagro}) {
        EXPECT_FALSE(Themes(type).empty());
        bool legacy = false;
        bool adapted = false;
        for (const NamePattern& pattern : NamePatterns(type)) {
            (pattern.rcvm175 ? adapted : legacy) = true;
        }
        EXPECT_TRUE(legacy && adapted) << FundTypeCode(type);
    }
}

}  // namespace
}  // namespace lastro::funds::sample
