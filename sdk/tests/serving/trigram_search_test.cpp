// The trigram search helpers (serving/trigram_search.hpp) that /v1/fundos and /v1/companhias use.
#include <lastro/sdk/serving/trigram_search.hpp>

#include <gtest/gtest.h>

namespace lastro::sdk {
namespace {

TEST(TrigramSearchTest, CoversTheNeedleWithTrigrams) {
    EXPECT_EQ(TrigramPhrase("search_text", "abc"), "search_text : (\"abc\")");
    EXPECT_EQ(TrigramPhrase("search_text", "abcd"), "search_text : (\"abc\" AND \"bcd\")");
    EXPECT_EQ(TrigramPhrase("manager", "credito"), "manager : (\"cre\" AND \"dit\" AND \"ito\")");
    EXPECT_EQ(TrigramPhrase("manager", "creditos"), "manager : (\"cre\" AND \"dit\" AND \"tos\")");
    EXPECT_EQ(TrigramPhrase("administrator", "ação x"),
              "administrator : (\"açã\" AND \"o x\")");  // characters, not bytes
    EXPECT_EQ(TrigramPhrase("search_text", "o\"neil"), "search_text : (\"o\"\"n\" AND \"eil\")");
    EXPECT_EQ(TrigramPhrase("search_text", "ab"), std::nullopt);
    EXPECT_EQ(TrigramPhrase("search_text", "çã"), std::nullopt);  // four bytes, two characters
    EXPECT_EQ(TrigramPhrase("search_text", std::string_view("a\0bc", 4)), std::nullopt);
}

TEST(TrigramSearchTest, EscapesLikeWildcards) {
    EXPECT_EQ(ContainsPattern("a%b_c\\d"), "%a\\%b\\_c\\\\d%");
    EXPECT_EQ(ContainsPattern(""), "%%");
}

}  // namespace
}  // namespace lastro::sdk
