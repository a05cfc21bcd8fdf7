#include <lastro/sdk/text.hpp>

#include <gtest/gtest.h>

#include <string>

namespace lastro::sdk {
namespace {

using namespace std::string_literals;

TEST(IsValidUtf8, RejectsMalformedSequences) {
    const std::string cases[] = {
        "\x80",                  // stray continuation byte
        "\xBF",                  // stray continuation byte
        "\xC3",                  // truncated 2-byte sequence
        "a\xC3",                 // truncated at the end
        "\xC3\x28",              // bad continuation
        "\xC0\x80",              // overlong NUL
        "\xC1\xBF",              // overlong U+007F
        "\xE0\x80\xAF",          // overlong '/'
        "\xE0\x9F\xBF",          // overlong U+07FF
        "\xE2\x82",              // truncated 3-byte sequence
        "\xED\xA0\x80",          // surrogate U+D800
        "\xED\xBF\xBF",          // surrogate U+DFFF
        "\xF0\x80\x80\xAF",      // overlong 4-byte
        "\xF0\x8F\xBF\xBF",      // overlong U+FFFF
        "\xF4\x90\x80\x80",      // U+110000
        "\xF5\x80\x80\x80",      // lead byte beyond the range
        "\xF0\x9F\x98",          // truncated 4-byte sequence
        "\xF8\x88\x80\x80\x80",  // 5-byte form
        "\xFE",
        "\xFF",
        "Cr\xE9"
        "dito",  // Latin-1 é
    };
    for (const auto& text : cases) {
        EXPECT_FALSE(IsValidUtf8(text)) << testing::PrintToString(text);
    }
}

TEST(IsValidUtf8, AcceptsWellFormedText) {
    EXPECT_TRUE(IsValidUtf8(""));
    EXPECT_TRUE(IsValidUtf8("plain ASCII; with \t tab"));
    EXPECT_TRUE(IsValidUtf8("\0"s));
    EXPECT_TRUE(IsValidUtf8("Crédito Imobiliário Ação"));
    EXPECT_TRUE(IsValidUtf8("\xC2\x80"));          // U+0080
    EXPECT_TRUE(IsValidUtf8("\xDF\xBF"));          // U+07FF
    EXPECT_TRUE(IsValidUtf8("\xE0\xA0\x80"));      // U+0800
    EXPECT_TRUE(IsValidUtf8("\xED\x9F\xBF"));      // U+D7FF, just below the surrogates
    EXPECT_TRUE(IsValidUtf8("\xEE\x80\x80"));      // U+E000, just above
    EXPECT_TRUE(IsValidUtf8("\xEF\xBF\xBF"));      // U+FFFF
    EXPECT_TRUE(IsValidUtf8("\xF0\x90\x80\x80"));  // U+10000
    EXPECT_TRUE(IsValidUtf8("\xF4\x8F\xBF\xBF"));  // U+10FFFF
    EXPECT_TRUE(IsValidUtf8("€ “quoted” 😀"));
}

TEST(Latin1ToUtf8, MapsEveryByteToTheSameCodePoint) {
    EXPECT_EQ(Latin1ToUtf8("Cr\xE9"
                           "dito Imobili\xE1rio A\xE7\xE3o"),
              "Crédito Imobiliário Ação");
    EXPECT_EQ(Latin1ToUtf8("\xC7\xD3\xFF"), "ÇÓÿ");
    EXPECT_EQ(Latin1ToUtf8("\x80\x93"), "\xC2\x80\xC2\x93");  // C1 range: same code points, not cp1252
    EXPECT_EQ(Latin1ToUtf8(""), "");
    std::string all;
    for (int byte = 0; byte < 256; ++byte) {
        all.push_back(static_cast<char>(byte));
    }
    const std::string utf8 = Latin1ToUtf8(all);
    EXPECT_TRUE(IsValidUtf8(utf8));
    EXPECT_EQ(utf8.size(), 128u + 2 * 128u);
    EXPECT_EQ(Utf8ToLatin1(utf8).substr(0, 128), all.substr(0, 128));
    EXPECT_EQ(Utf8ToLatin1(utf8).substr(160), all.substr(160));
}

TEST(AppendLatin1AsUtf8, Appends) {
    std::string out = "x=";
    AppendLatin1AsUtf8("\xE9", out);
    EXPECT_EQ(out, "x=é");
}

TEST(Utf8ToLatin1, ReplacesWhatLatin1CannotHoldWithQuestionMarks) {
    EXPECT_EQ(Utf8ToLatin1("Ação"), "A\xE7\xE3o");
    EXPECT_EQ(Utf8ToLatin1("😀 ✓"), "? ?");
    EXPECT_EQ(Utf8ToLatin1("\xC3"), "?");      // malformed input
    EXPECT_EQ(Utf8ToLatin1("\xC2\x81"), "?");  // C1 control U+0081
}

TEST(Utf8ToLatin1, WritesWindows1252CharactersAsTheirBytes) {
    EXPECT_EQ(Utf8ToLatin1("“€”"), "\x93\x80\x94");
    EXPECT_EQ(Utf8ToLatin1("Œ—Ÿ"), "\x8C\x97\x9F");
}

TEST(FoldForSearch, StripsAccentsAndLowerCases) {
    EXPECT_EQ(FoldForSearch("Crédito Imobiliário Ação"), "credito imobiliario acao");
    EXPECT_EQ(FoldForSearch("ÁÀÂÃÄ áàâãä ÉÊÈË éêèë ÍÌÎÏ íìîï"), "aaaaa aaaaa eeee eeee iiii iiii");
    EXPECT_EQ(FoldForSearch("ÓÒÔÕÖ óòôõö ÚÙÛÜ úùûü Çç Ññ Ýý ÿŸ"), "ooooo ooooo uuuu uuuu cc nn yy yy");
    EXPECT_EQ(FoldForSearch("FUNDO DE INVESTIMENTO EM DIREITOS CREDITÓRIOS"),
              "fundo de investimento em direitos creditorios");
}

TEST(FoldForSearch, KeepsOtherCharacters) {
    EXPECT_EQ(FoldForSearch("Nº 1 – “ABC” ×÷ 😀 Ж"), "nº 1 – “abc” ×÷ 😀 Ж");
    EXPECT_EQ(FoldForSearch("ÆØÞ"), "æøþ");  // lower-cased; no accent to strip
    EXPECT_EQ(FoldForSearch("a;b\"c'"), "a;b\"c'");
    EXPECT_EQ(FoldForSearch(""), "");
    EXPECT_EQ(FoldForSearch("\xC3"), "\xC3");  // malformed input passes through
}

TEST(DigitsOnly, KeepsAsciiDigits) {
    EXPECT_EQ(DigitsOnly("12.345.678/0001-95"), "12345678000195");
    EXPECT_EQ(DigitsOnly("abc"), "");
    EXPECT_EQ(DigitsOnly("١٢3"), "3");  // Arabic-Indic digits are not ASCII digits
}

}  // namespace
}  // namespace lastro::sdk

namespace lastro::sdk {
namespace {

TEST(NormalizeNfc, ComposesCombiningMarks) {
    EXPECT_EQ(NormalizeNfc("CRE\xCC\x81"
                           "DITO"),
              "CR\xC3\x89"
              "DITO");  // E + U+0301 -> É
    EXPECT_EQ(NormalizeNfc("c\xCC\xA7"
                           "a\xCC\x83"
                           "o"),
              "\xC3\xA7\xC3\xA3o");  // ç ã
    EXPECT_EQ(FoldForSearch(NormalizeNfc("CRE\xCC\x81"
                                         "DITO")),
              "credito");
    EXPECT_EQ(NormalizeNfc("CR\xC3\x89"
                           "DITO"),
              "CR\xC3\x89"
              "DITO");  // already composed
    EXPECT_EQ(NormalizeNfc("plain ascii"), "plain ascii");
    EXPECT_EQ(NormalizeNfc(""), "");
    EXPECT_EQ(NormalizeNfc("\xC3"), "\xC3");  // malformed input comes back as it was
}

TEST(IsBlank, OnlyInvisibleCharactersAreBlank) {
    EXPECT_TRUE(IsBlank(""));
    EXPECT_TRUE(IsBlank(" "));
    EXPECT_TRUE(IsBlank(" \t\r\n"));
    EXPECT_TRUE(IsBlank("\xC2\xA0"));                  // no-break space
    EXPECT_TRUE(IsBlank("\xE2\x80\x8B\xE3\x80\x80"));  // zero-width space, ideographic space
    EXPECT_TRUE(IsBlank("\xEF\xBB\xBF"));              // byte order mark
    EXPECT_FALSE(IsBlank(" a "));
    EXPECT_FALSE(IsBlank("\xCC\x81"));  // a combining mark alone is not blank
    EXPECT_FALSE(IsBlank("\xC3"));      // malformed
}

}  // namespace
}  // namespace lastro::sdk
