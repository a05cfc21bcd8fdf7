// The fields funds exports (<lastro/funds/fidc_fields.hpp>) against its layouts, and the
// funds.fidc_monthly_facts service handing them over as numbers: null stays null, never 0.
#include "domain/fidc/fidc_tables.hpp"
#include "fidc_report_fixture.hpp"
#include "layouts/inf_mensal_fidc.hpp"
#include "services/funds_services.hpp"

#include <lastro/funds/fidc_fields.hpp>

#include <gtest/gtest.h>
#include <odb/transaction.hxx>

#include <array>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::funds::testing {
namespace {

// The columns of the one-row tables that are text, not numbers: no field.
bool IsTextColumn(std::string_view column) {
    static const std::set<std::string_view> text = {"CLASSE_UNICA",
                                                    "CNPJ_ADMIN",
                                                    "ADMIN",
                                                    "CLASSE",
                                                    "CNPJ_CLASSE",
                                                    "CONDOM",
                                                    "FUNDO_EXCLUSIVO",
                                                    "COTST_INTERESSE",
                                                    "TP_PRAZO_CONVERSAO_COTA",
                                                    "TP_PRAZO_PAGTO_RESGATE"};
    return text.count(column) > 0 || column.find("_CPF_CNPJ_") != std::string_view::npos;
}

TEST(FidcFields, EveryNumericColumnOfTheOneRowTablesIsAFieldOfItsTable) {
    std::size_t numeric = 0;
    for (const FidcTableInfo& info : FidcTables()) {
        if (info.shape != FidcShape::kOneRow) {
            continue;
        }
        for (std::string_view column : FidcColumns(info.table)) {
            if (column == kFilerTypeColumn || column == kCnpjColumn || column == kNameColumn ||
                column == kDateColumn || IsTextColumn(column)) {
                EXPECT_FALSE(FieldNamed(column)) << column;
                continue;
            }
            ++numeric;
            const std::optional<FidcField> field = FieldNamed(column);
            ASSERT_TRUE(field) << info.name << ": " << column;
            EXPECT_EQ(LayoutOf(*field).table, info.name) << column;
            EXPECT_EQ(ColumnName(*field), column);
        }
    }
    EXPECT_EQ(numeric, kFidcFieldCount);
}

class FidcMonthlyFactsTest : public FidcReportTest {};

TEST_F(FidcMonthlyFactsTest, TheAskedFieldsComeAsNumbersInTheOrderAsked) {
    FidcReport report = MonthlyReport(kAlfaCnpj, "2026-08");
    report.published_json = R"({"I":{"TAB_I_VL_ATIVO":"1000.50","TAB_I2H_VL_COTA_FIDC":"0","ADMIN":"ADM",)"
                            R"("TAB_I2I_VL_COTA_FIDC_NP":"n/d"},"II":{"TAB_I1_VL_DISP":"5.00"},)"
                            R"("X_5":{"TAB_X_VL_LIQUIDEZ_0":"-12.25"},"VIII":[["1","300.00"],["2",null]]})";
    AddReport(report);
    AddReport(MonthlyReport(kGamaFundCnpj, "2026-08"));
    AddReport(MonthlyReport(kGamaFundCnpj, "2026-07"));

    using enum FidcField;
    const std::array fields = {TAB_X_VL_LIQUIDEZ_0,     TAB_I_VL_ATIVO, TAB_I2H_VL_COTA_FIDC,
                               TAB_I2I_VL_COTA_FIDC_NP, TAB_IV_A_VL_PL, TAB_I1_VL_DISP,
                               TAB_I_VL_ATIVO};
    std::vector<FidcReportDetail> details;
    odb::transaction transaction(Db().begin());
    FidcMonthlyFactsReader().ForEachReportDetail(
        Db(), "2026-08", fields, [&](const FidcReportDetail& detail) { details.push_back(detail); });
    transaction.commit();

    ASSERT_EQ(details.size(), 2u);
    EXPECT_EQ(details[0].fact.cnpj, kAlfaCnpj);
    const std::vector<std::optional<double>> expected = {
        -12.25,        // X_5
        1000.5,        // I
        0.0,           // a published zero is a value
        std::nullopt,  // not a plain decimal
        std::nullopt,  // the report has no table IV
        std::nullopt,  // filed under another table than its own
        1000.5,        // asked twice
    };
    EXPECT_EQ(details[0].fields, expected);
    EXPECT_EQ(details[0].largest_debtors, (std::vector<std::optional<double>>{300.0, std::nullopt}));
    // A report without published fields: every field null, one per field asked.
    EXPECT_EQ(details[1].fact.cnpj, kGamaFundCnpj);
    EXPECT_EQ(details[1].fields, std::vector<std::optional<double>>(fields.size()));
}

}  // namespace
}  // namespace lastro::funds::testing
