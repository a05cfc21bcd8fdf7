// The plans of every operation's reads on SQLite (sdk/testing/query_plans.hpp; docs/testing.md,
// "Query plans"): with the whole sample loaded, no whole table or index is read, whatever the
// filters, the page or the answer (a 404 included).
#include "loaded_sample.hpp"
#include "src/handlers.hpp"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/testing/query_plans.hpp>

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <string>

namespace lastro::companies {
namespace {

class CompaniesQueryPlans : public ::testing::Test {
protected:
    // Calls `handler` with `params`, then the next page when there is one, each read checked; a
    // 404 is an answer.
    void Walk(const sdk::Handler& handler, const sdk::Params& params) {
        const sdk::testing::QueryPlanCheck check;
        try {
            const sdk::Result first = sample_.Call(handler, params);
            if (first.meta.next_position) {
                sample_.Call(handler, params, first.meta.next_position);
            }
        } catch (const sdk::NotFound&) {
        }
    }
    // The first page of a list without filters reads the first `limit` + 1 entries of its key's
    // index, in order: a bounded read that a plan cannot tell from a whole one (SCAN ... USING
    // INDEX). Only the next page, which starts after a key (SEARCH), is checked.
    void WalkFromSecondPage(const sdk::Handler& handler, const sdk::Params& params) {
        const sdk::Result first = sample_.Call(handler, params);
        ASSERT_TRUE(first.meta.next_position);
        const sdk::testing::QueryPlanCheck check;
        sample_.Call(handler, params, first.meta.next_position);
    }
    LoadedSample sample_{sdk::testing::Backend::kSqlite};  // the plans are SQLite's
};

// The check sees the statements of sdk::SqlSession, which every handler here reads through.
TEST_F(CompaniesQueryPlans, ASqlSessionReadThatScansFailsTheTest) {
    const sdk::Handler scanning = [](const sdk::RequestContext& context) {
        sdk::SqlSession(context.db)
            .Query("SELECT cvm_code FROM companies_company WHERE legal_name = $1", {"x"});
        return sdk::Result{};
    };
    const sdk::testing::QueryPlanCheck check;
    EXPECT_NONFATAL_FAILURE(sample_.Call(scanning, sdk::Params()), "SCAN companies_company");
}

TEST_F(CompaniesQueryPlans, CompaniesDocumentsFreRowsAndIssuancesReadByIndex) {
    const std::string cnpj = sample_.Read([](odb::database& db) {
        return *sdk::SqlSession(db).Query(
            "SELECT cnpj FROM companies_document WHERE kind = 'fre' AND version = 3")[0][0];
    });
    const std::int64_t code = std::stoll(sample_.Read([](odb::database& db) {
        return *sdk::SqlSession(db).Query(
            "SELECT cvm_code FROM companies_document WHERE kind = 'fre' AND version = 3")[0][0];
    }));

    sdk::Params page;
    page.Set("limit", std::int64_t{2});
    WalkFromSecondPage(&HandleCompanies, page);
    sdk::Params search = page;
    search.Set("q", std::string("siderurgica"));
    search.Set("situation", std::string("ativo"));
    Walk(&HandleCompanies, search);
    sdk::Params by_cnpj;
    by_cnpj.Set("cnpj", cnpj);
    Walk(&HandleCompanies, by_cnpj);

    sdk::Params documents = page;
    documents.Set("cvm_code", code);
    Walk(&HandleCompanyDocuments, documents);
    documents.Set("kind", std::string("fre"));
    documents.Set("versions", std::string("all"));
    documents.Set("delivered_from", sdk::Date{2025, 1, 1});
    Walk(&HandleCompanyDocuments, documents);
    sdk::Params stranger;
    stranger.Set("cvm_code", std::int64_t{99999990});
    Walk(&HandleCompanyDocuments, stranger);

    sdk::Params rows = page;
    rows.Set("cnpj", cnpj);
    rows.Set("table", std::string("posicao_acionaria"));
    Walk(&HandleFreRows, rows);
    sdk::Params version = rows;
    version.Set("version", std::int64_t{2});
    Walk(&HandleFreRows, version);
    sdk::Params known = rows;
    known.Set("as_of", sdk::Date{2025, 8, 1});
    known.Set("reference_from", sdk::Date{2025, 1, 1});
    Walk(&HandleFreRows, known);
    sdk::Params unknown_table = rows;
    unknown_table.Set("table", std::string("direito_acao"));
    Walk(&HandleFreRows, unknown_table);
    sdk::Params unknown_company = rows;
    unknown_company.Set("cnpj", std::string("11222333000181"));
    Walk(&HandleFreRows, unknown_company);

    WalkFromSecondPage(&HandleIssuances, page);
    sdk::Params issuances = page;
    issuances.Set("tipo", std::string("CRI"));
    issuances.Set("month", sdk::Month{2026, 8});
    Walk(&HandleIssuances, issuances);
    sdk::Params named = page;
    named.Set("q", std::string("loteamento"));
    Walk(&HandleIssuances, named);
}

}  // namespace
}  // namespace lastro::companies
