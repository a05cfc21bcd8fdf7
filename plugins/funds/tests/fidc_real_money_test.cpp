// Issue 17, points 3 and 6, on real FIDC rows: ../shared/datasets/real/fidc_inf_mensal_derived/
// (tables I, IV and X_2 of 2023-12, re-serialized by a third party; SOURCES.md there) written
// back in CVM's layout (`;`, ISO-8859-1, CVM column names, the monthly zip with every other table
// header-only) and ingested. Their sums are exact to the cent although the float sums of the
// same values are not, and their empty components make the sums null, with the partial sums
// naming what they leave out.
#include "domain/fidc/fidc_values.hpp"
#include "fidc_real_files.hpp"
#include "fidc_test_files.hpp"

#include <lastro/sdk/serving/money.hpp>

#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

namespace lastro::funds::testing {
namespace {

// A row in CVM's names with its empty fields left out (the line writer leaves them empty).
Fields AsPublished(const Fields& row) {
    Fields fields;
    for (const auto& [column, value] : row) {
        if (!value.empty() || column == "TP_FUNDO_CLASSE") {
            fields[column] = value;
        }
    }
    return fields;
}

std::string Digits(const std::string& text) {
    std::string digits;
    for (char c : text) {
        if (c >= '0' && c <= '9') {
            digits += c;
        }
    }
    return digits;
}

// Cents of a published amount, from its text ("7020224.78", "0.0", "-12.5").
std::int64_t TextCents(const std::string& text) {
    const bool negative = !text.empty() && text[0] == '-';
    const std::string body = negative ? text.substr(1) : text;
    const std::size_t point = body.find('.');
    std::string decimals = point == std::string::npos ? "" : body.substr(point + 1);
    EXPECT_LE(decimals.size(), 2u) << text;
    decimals.resize(2, '0');
    const std::int64_t cents = std::stoll(body.substr(0, point)) * 100 + std::stoll(decimals);
    return negative ? -cents : cents;
}

// What the host's JSON writer prints for an amount has at most two decimals.
bool PrintsAsCents(double value) {
    char text[64];
    const auto written = std::to_chars(text, text + sizeof text, value, std::chars_format::fixed);
    const std::string printed(text, written.ptr);
    const std::size_t point = printed.find('.');
    return point == std::string::npos || printed.size() - point - 1 <= 2;
}

class FidcRealMoneyTest : public ::testing::Test {
protected:
    void SetUp() override {
        if (!fs::exists(kDerivedDir / kDerivedFiles.at("I"))) {
            GTEST_SKIP() << "real rows not present: " << kDerivedDir;
        }
        FidcMonth month("202312", FidcEra::kFundoClasse);
        const auto add = [&](const std::string& table) {
            for (const Fields& row : ReadDerived(table)) {
                if (row.at("DT_COMPTC") == "2023-12-31") {
                    month.Row(table, AsPublished(row));
                    // Of a repeated key the last line is kept (docs/datasets/inf_mensal_fidc.md).
                    if (table == "I") {
                        kept_i_[Digits(row.at("CNPJ_FUNDO_CLASSE"))] = row;
                    }
                }
            }
        };
        add("I");
        add("IV");
        add("X_2");
        IngestFidc(Db(), {WriteFidcMonthlyZip(database_.Subdir("202312"), month)});
    }

    odb::database& Db() { return database_.Db(); }

    // The reports of 2023-12 with the table I row the ingest kept for them.
    std::vector<std::pair<FidcReport, Fields>> ReportsWithTableI() {
        std::vector<std::pair<FidcReport, Fields>> found;
        for (FidcReport& report : AllReportsWithJson(Db())) {
            if (const auto kept = kept_i_.find(report.cnpj); kept != kept_i_.end()) {
                found.emplace_back(std::move(report), kept->second);
            }
        }
        return found;
    }

    FundsDatabase database_;
    std::map<std::string, Fields> kept_i_;  // CNPJ -> the kept table I row
};

TEST_F(FidcRealMoneyTest, SumsOfRealAmountsAreExactToTheCent) {
    std::size_t compared = 0;
    std::size_t noisy_as_floats = 0;
    for (const auto& [report, i] : ReportsWithTableI()) {
        SCOPED_TRACE(report.cnpj);
        const std::int64_t net =
            TextCents(i.at("TAB_I2A_VL_DIRCRED_RISCO")) + TextCents(i.at("TAB_I2B_VL_DIRCRED_SEM_RISCO"));
        const std::int64_t pdd = std::llabs(TextCents(i.at("TAB_I2A11_VL_REDUCAO_RECUP"))) +
                                 std::llabs(TextCents(i.at("TAB_I2B11_VL_REDUCAO_RECUP")));
        EXPECT_EQ(report.receivables_net, sdk::FromCents(net));
        EXPECT_EQ(report.pdd, sdk::FromCents(pdd));
        EXPECT_EQ(report.receivables_gross, sdk::FromCents(net + pdd));
        for (const auto& amount : {report.receivables_net, report.pdd, report.receivables_gross}) {
            ASSERT_TRUE(amount);
            EXPECT_TRUE(PrintsAsCents(*amount)) << *amount;
        }
        // The same parts added as doubles: the noise the money rule removes.
        const double float_pdd = std::fabs(std::stod(i.at("TAB_I2A11_VL_REDUCAO_RECUP"))) +
                                 std::fabs(std::stod(i.at("TAB_I2B11_VL_REDUCAO_RECUP")));
        const double float_net =
            std::stod(i.at("TAB_I2A_VL_DIRCRED_RISCO")) + std::stod(i.at("TAB_I2B_VL_DIRCRED_SEM_RISCO"));
        noisy_as_floats +=
            !PrintsAsCents(float_pdd) || !PrintsAsCents(float_net) || !PrintsAsCents(float_net + float_pdd);
        ++compared;
    }
    EXPECT_EQ(compared, 6u);  // the six CNPJs of 2023-12
    EXPECT_GT(noisy_as_floats, 0u) << "the real rows no longer show what the money rule is for";
}

// The real 2023-12 rows leave TAB_I2A10_VL_CRED_DIVERSO and TAB_I2B10_VL_CRED_DIVERSO empty (the
// other components publish 0.0): the components' sum is null, the partial sum covers the rest.
TEST_F(FidcRealMoneyTest, EmptyRealComponentsMakeTheSumNullAndThePartialSumNamesThem) {
    std::size_t with_empty_components = 0;
    for (const auto& [report, i] : ReportsWithTableI()) {
        SCOPED_TRACE(report.cnpj);
        std::int64_t present = 0;
        std::set<std::string> empty;
        for (const NamedAmount& component : ReceivableComponents(report.published_json)) {
            const std::string& text = i.at(component.column);
            if (text.empty()) {
                empty.insert(component.column);
            } else {
                present += TextCents(text);
            }
        }
        const PartialSum sum = SumOfComponents(ReceivableComponents(report.published_json));
        EXPECT_EQ(sum.missing.size(), empty.size());
        EXPECT_EQ(sum.partial, sdk::FromCents(present));
        if (empty.empty()) {
            EXPECT_EQ(report.receivables_components, sdk::FromCents(present));
            continue;
        }
        ++with_empty_components;
        EXPECT_EQ(empty, (std::set<std::string>{"TAB_I2A10_VL_CRED_DIVERSO", "TAB_I2B10_VL_CRED_DIVERSO"}));
        EXPECT_FALSE(report.receivables_components);  // not the sum of the other 18
    }
    EXPECT_GT(with_empty_components, 0u);
}

// Table X_2 alone (the real files at hand have no X_1): every series lacks its investor count,
// so no report has an investor_count, and the series NAV totals are exact sums of the series'
// NAVs rounded to the cent.
TEST_F(FidcRealMoneyTest, SeriesTotalsAreExactAndCountsWithoutX1AreNull) {
    std::size_t with_series = 0;
    std::map<std::int64_t, std::vector<FidcSeries>> series_of;
    for (FidcSeries& series : AllRows<FidcSeries>(Db())) {
        series_of[series.report_id].push_back(std::move(series));
    }
    for (const FidcReport& report : AllRows<FidcReport>(Db())) {
        const auto it = series_of.find(report.id);
        if (it == series_of.end()) {
            continue;
        }
        SCOPED_TRACE(report.cnpj);
        ++with_series;
        EXPECT_FALSE(report.investor_count);
        std::int64_t total = 0;
        bool complete = true;
        for (const FidcSeries& series : it->second) {
            EXPECT_FALSE(series.investor_count);
            if (!series.quota_count || !series.quota_value) {
                complete = false;
                continue;
            }
            total += sdk::ToCents(*series.quota_count * *series.quota_value);
        }
        if (!complete) {
            EXPECT_FALSE(report.series_nav_total);
            continue;
        }
        ASSERT_TRUE(report.series_nav_total);
        EXPECT_EQ(*report.series_nav_total, sdk::FromCents(total));
        EXPECT_TRUE(PrintsAsCents(*report.series_nav_total)) << *report.series_nav_total;
    }
    EXPECT_GT(with_series, 10u);
}

}  // namespace
}  // namespace lastro::funds::testing
