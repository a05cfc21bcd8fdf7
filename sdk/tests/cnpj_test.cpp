#include <lastro/sdk/cnpj.hpp>

#include <gtest/gtest.h>

#include <stdexcept>

namespace lastro::sdk {
namespace {

void ExpectError(std::string_view text, CnpjError error) {
    const CnpjParse parse = ParseCnpj(text);
    EXPECT_FALSE(parse.digits.has_value()) << text;
    EXPECT_EQ(parse.error, error) << text;
}

TEST(ParseCnpj, RejectsCharactersOtherThanSeparators) {
    ExpectError("12.345.678/0001-9x", CnpjError::kBadCharacters);
    ExpectError("12,345,678/0001-95", CnpjError::kBadCharacters);
    ExpectError("12345678000195\n", CnpjError::kBadCharacters);
    ExpectError("\t12345678000195", CnpjError::kBadCharacters);
    ExpectError("12345678000195_", CnpjError::kBadCharacters);
    ExpectError("+12345678000195", CnpjError::kBadCharacters);
    ExpectError(
        "12\xC2\xA0"
        "345678000195",
        CnpjError::kBadCharacters);                                // no-break space
    ExpectError("AB.345.678/0001-95", CnpjError::kBadCharacters);  // alphanumeric CNPJs: not yet
}

TEST(ParseCnpj, RejectsWrongLengths) {
    ExpectError("", CnpjError::kWrongLength);
    ExpectError("...", CnpjError::kWrongLength);
    ExpectError("1234567800019", CnpjError::kWrongLength);
    ExpectError("123456780001950", CnpjError::kWrongLength);
    ExpectError("12.345.678/0001", CnpjError::kWrongLength);
    ExpectError("123.456.789-09", CnpjError::kWrongLength);  // a CPF
}

TEST(ParseCnpj, RejectsBadCheckDigits) {
    ExpectError("12345678000194", CnpjError::kBadCheckDigits);
    ExpectError("12345678000185", CnpjError::kBadCheckDigits);
    ExpectError("12.345.678/0001-59", CnpjError::kBadCheckDigits);
    ExpectError("21345678000195", CnpjError::kBadCheckDigits);  // transposed digits
}

TEST(ParseCnpj, RejectsThePlaceholderAndRepeatedDigits) {
    ExpectError("00000000000000", CnpjError::kBadCheckDigits);
    ExpectError("00.000.000/0000-00", CnpjError::kBadCheckDigits);
    ExpectError("11111111111111", CnpjError::kBadCheckDigits);
    ExpectError("99999999999999", CnpjError::kBadCheckDigits);
}

TEST(ParseCnpj, AcceptsBareAndPunctuatedForms) {
    for (const char* text : {"12345678000195", "12.345.678/0001-95", " 12.345.678/0001-95 ",
                             "12 345 678 0001 95", "12345678/0001-95"}) {
        const CnpjParse parse = ParseCnpj(text);
        EXPECT_EQ(parse.error, CnpjError::kNone) << text;
        EXPECT_EQ(parse.digits, "12345678000195") << text;
    }
    EXPECT_EQ(ParseCnpj("00.000.000/0001-91").digits, "00000000000191");
    EXPECT_EQ(ParseCnpj("33000167000101").digits, "33000167000101");
    EXPECT_EQ(ParseCnpj("00016999000167").digits, "00016999000167");
    EXPECT_EQ(ParseCnpj("11.222.333/0001-81").digits, "11222333000181");
}

TEST(CnpjWithCheckDigits, RejectsAnythingButTwelveDigits) {
    EXPECT_THROW(CnpjWithCheckDigits("12345678000"), std::invalid_argument);
    EXPECT_THROW(CnpjWithCheckDigits("1234567800019"), std::invalid_argument);
    EXPECT_THROW(CnpjWithCheckDigits("12345678000a"), std::invalid_argument);
}

TEST(CnpjWithCheckDigits, AppendsBothDigits) {
    EXPECT_EQ(CnpjWithCheckDigits("123456780001"), "12345678000195");
    EXPECT_EQ(CnpjWithCheckDigits("112223330001"), "11222333000181");
    EXPECT_EQ(CnpjWithCheckDigits("000000000001"), "00000000000191");
    EXPECT_EQ(CnpjWithCheckDigits("330001670001"), "33000167000101");
    for (const char* base : {"000000010001", "987654320001", "555555550002", "101010100001"}) {
        EXPECT_EQ(ParseCnpj(CnpjWithCheckDigits(base)).error, CnpjError::kNone) << base;
    }
}

TEST(FormatCnpj, Punctuates) {
    EXPECT_EQ(FormatCnpj("12345678000195"), "12.345.678/0001-95");
    EXPECT_EQ(FormatCnpj("00016999000167"), "00.016.999/0001-67");
    EXPECT_EQ(FormatCnpj("123"), "123");  // not 14 digits: unchanged
}

}  // namespace
}  // namespace lastro::sdk
