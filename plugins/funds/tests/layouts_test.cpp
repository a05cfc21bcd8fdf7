// The published column lists (layouts/) against what the ingesters read: every column the FIDC
// ingester types is one of its table's published columns, and every member starts with its keys.
#include "domain/fidc/fidc_tables.hpp"
#include "layouts/anbima_subclasses.hpp"
#include "layouts/cda_fi.hpp"
#include "layouts/inf_mensal_fidc.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <string_view>

namespace lastro::funds {
namespace {

bool Has(std::span<const std::string_view> columns, std::string_view name) {
    return std::find(columns.begin(), columns.end(), name) != columns.end();
}

TEST(Layouts, EveryTypedFidcColumnIsPublished) {
    for (const FidcTableInfo& info : FidcTables()) {
        const auto published = FidcColumns(info.name);
        ASSERT_FALSE(published.empty()) << info.name;
        for (std::string_view key : {kFilerTypeColumn, kCnpjColumn, kNameColumn, kDateColumn}) {
            EXPECT_TRUE(Has(published, key)) << info.name << ": " << key;
        }
        for (const FidcColumn& column : TypedColumnsOf(info.table)) {
            EXPECT_TRUE(Has(published, column.name)) << info.name << ": " << column.name;
        }
        EXPECT_EQ(std::set<std::string_view>(published.begin(), published.end()).size(), published.size())
            << info.name << " repeats a column";
    }
    EXPECT_TRUE(FidcColumns("XI").empty());
}

TEST(Layouts, CdaMembersStartWithTheirKeys) {
    for (const char* member :
         {"PL", "BLC_1", "BLC_2", "BLC_3", "BLC_4", "BLC_5", "BLC_6", "BLC_7", "BLC_8", "fie", "CONFID"}) {
        const auto columns = CdaColumns(member);
        ASSERT_GE(columns.size(), kCdaKeyColumns.size()) << member;
        EXPECT_TRUE(std::equal(kCdaKeyColumns.begin(), kCdaKeyColumns.end(), columns.begin())) << member;
    }
    EXPECT_EQ(CdaColumns("BLC_6").size(), 29u);
    EXPECT_THROW(CdaColumns("BLC_9"), std::invalid_argument);
}

TEST(Layouts, ColumnLookupsAndHeaders) {
    static_assert(ColumnIndex(kAnbimaColumns, "redemption_payment_days") ==
                  anbima_column::kRedemptionPaymentDays);
    static_assert(ColumnOf(kCdaKeyColumns, "DT_COMPTC") == "DT_COMPTC");
    EXPECT_EQ(JoinColumns(kCdaKeyColumns), "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;DENOM_SOCIAL;DT_COMPTC");
}

}  // namespace
}  // namespace lastro::funds
