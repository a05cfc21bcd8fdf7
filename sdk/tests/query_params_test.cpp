// The key lists of cached queries (<lastro/sdk/query_params.hpp>) without a database: list sizes,
// padding and statement names. The statements themselves run on SQLite and PostgreSQL in the
// funds plugin's tests (plugins/funds/tests/key_list_statements_test.cpp), which has a model.
#include <lastro/sdk/query_params.hpp>

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace lastro::sdk {
namespace {

TEST(KeyListTerms, IsTheSmallestPowerOfTwoThatHoldsTheKeys) {
    EXPECT_EQ(KeyListTerms(0), 1u);
    EXPECT_EQ(KeyListTerms(1), 1u);
    EXPECT_EQ(KeyListTerms(2), 2u);
    EXPECT_EQ(KeyListTerms(3), 4u);
    EXPECT_EQ(KeyListTerms(64), 64u);
    EXPECT_EQ(KeyListTerms(65), 128u);
}

TEST(KeyList, PadsWithItsLastKeyUpToTheListSize) {
    KeyList<std::string, 8> list;
    const std::vector<std::string> keys{"a", "b", "c"};
    list.Assign(keys.begin(), keys.end(), KeyListTerms(keys.size()));
    EXPECT_EQ(list.keys[0], "a");
    EXPECT_EQ(list.keys[1], "b");
    EXPECT_EQ(list.keys[2], "c");
    EXPECT_EQ(list.keys[3], "c");
    EXPECT_EQ(list.keys[4], "");  // past the list's size: never bound
}

TEST(KeyList, RefusesNoKeysAndMoreThanItHolds) {
    KeyList<int, 4> list;
    const std::vector<int> none;
    const std::vector<int> five{1, 2, 3, 4, 5};
    EXPECT_THROW(list.Assign(none.begin(), none.end(), 1), std::length_error);
    EXPECT_THROW(list.Assign(five.begin(), five.end(), 8), std::length_error);
    EXPECT_THROW(list.Assign(five.begin(), five.begin() + 3, 2), std::length_error);  // 3 keys, size 2
}

TEST(KeyListName, NamesEachSizeOnceForTheLifeOfTheProcess) {
    const char* four = KeyListName("plugin.statement", 4);
    EXPECT_STREQ(four, "plugin.statement_4");
    EXPECT_EQ(KeyListName("plugin.statement", 4), four);  // the same pointer: ODB keeps it
    EXPECT_STREQ(KeyListName("plugin.statement", 8), "plugin.statement_8");
    EXPECT_STREQ(KeyListName(KeyListName("plugin.pair", 2), 16), "plugin.pair_2_16");
}

}  // namespace
}  // namespace lastro::sdk
