#include "core/http/router.hpp"

#include <gtest/gtest.h>

namespace lastro::http {
namespace {

TEST(RouteTableTest, MatchesTemplatesAndPrefersLiterals) {
    plugins::OperationSpec classes, snapshot, literal;
    classes.id = "a";
    snapshot.id = "b";
    literal.id = "c";
    RouteTable table;
    table.Add({&classes, nullptr, RouteTable::Split("/v1/fundos/{fund_id}/classes"), "", ""});
    table.Add({&snapshot, nullptr, RouteTable::Split("/v1/classes/{class_id}/snapshot"), "", ""});
    table.Add({&literal, nullptr, RouteTable::Split("/v1/fundos/especial/classes"), "", ""});
    auto m = table.Match("/v1/fundos/123/classes");
    ASSERT_TRUE(m);
    EXPECT_EQ(m->route->operation->id, "a");
    EXPECT_EQ(m->path_params.at("fund_id"), "123");
    EXPECT_EQ(table.Match("/v1/fundos/especial/classes")->route->operation->id, "c");
    EXPECT_FALSE(table.Match("/v1/fundos//classes"));
    EXPECT_FALSE(table.Match("/v1/fundos/1/classes/"));
    EXPECT_FALSE(table.Match("/v1/fundos"));
}

}  // namespace
}  // namespace lastro::http
