// What a CNPJ cell holds (document_id.hpp), on the values seen in CVM's real files: CNPJs masked
// or bare, CPFs, zeros of any length, a lone '0' or ',', two ids in one cell, typos.
#include <lastro/sdk/document_id.hpp>

#include <gtest/gtest.h>

namespace lastro::sdk {
namespace {

TEST(DocumentIdTest, ClassifiesTheCellsOfRealFiles) {
    const DocumentCell masked = ClassifyDocument(" 08.773.135/0001-00 ");
    EXPECT_EQ(masked.kind, DocumentKind::kCnpj);
    EXPECT_EQ(masked.cnpj, "08773135000100");
    EXPECT_EQ(masked.published, "08.773.135/0001-00");
    EXPECT_EQ(ClassifyDocument("61366936000125").cnpj, "61366936000125");

    // A CPF (a person) is never a company's number.
    const DocumentCell cpf = ClassifyDocument("529.982.247-25");
    EXPECT_EQ(cpf.kind, DocumentKind::kCpf);
    EXPECT_EQ(cpf.cnpj, std::nullopt);
    EXPECT_EQ(ClassifyDocument("52998224725").kind, DocumentKind::kCpf);

    for (const char* zeros : {"00.000.000/0000-00", "00000000000000", "0000000000000", "0"}) {
        EXPECT_EQ(ClassifyDocument(zeros).kind, DocumentKind::kPlaceholder) << zeros;
        EXPECT_EQ(ClassifyDocument(zeros).cnpj, std::nullopt) << zeros;
    }
    EXPECT_EQ(ClassifyDocument("08.773.135/0001-00 / 61.366.936/0001-25").kind, DocumentKind::kTwoIds);
    EXPECT_EQ(ClassifyDocument("08773135000100;61366936000125").kind, DocumentKind::kTwoIds);
    EXPECT_EQ(ClassifyDocument("0877313500010061366936000125").kind, DocumentKind::kTwoIds);
    EXPECT_EQ(ClassifyDocument("08.773.135/0001-01").kind, DocumentKind::kInvalid);  // check digit
    EXPECT_EQ(ClassifyDocument("087731350001001").kind, DocumentKind::kInvalid);     // 15 digits
    EXPECT_EQ(ClassifyDocument(",").kind, DocumentKind::kInvalid);
    EXPECT_EQ(ClassifyDocument("ISENTO").kind, DocumentKind::kInvalid);
    EXPECT_EQ(ClassifyDocument("11111111111").kind, DocumentKind::kInvalid);  // repeated digits
    EXPECT_EQ(ClassifyDocument("   ").kind, DocumentKind::kBlank);
    EXPECT_EQ(ClassifyDocument("").published, "");

    EXPECT_EQ(DocumentKindName(DocumentKind::kTwoIds), "two_ids");
    EXPECT_EQ(DocumentKindName(DocumentKind::kPlaceholder), "placeholder");
}

TEST(DocumentIdTest, ChecksCpfDigits) {
    EXPECT_TRUE(IsValidCpf("52998224725"));
    EXPECT_FALSE(IsValidCpf("52998224724"));
    EXPECT_FALSE(IsValidCpf("00000000000"));
    EXPECT_FALSE(IsValidCpf("5299822472"));
    EXPECT_FALSE(IsValidCpf("5299822472x"));
}

}  // namespace
}  // namespace lastro::sdk
