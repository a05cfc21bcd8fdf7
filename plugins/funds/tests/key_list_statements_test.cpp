// sdk::InKeys and sdk::Bound (<lastro/sdk/query_params.hpp>) on the real databases (SQLite, and
// PostgreSQL under LASTRO_TEST_BACKEND=postgres): a statement prepared once per list size reads
// the keys bound at each execution, padded lists match as the keys alone would, and a bound
// parameter inside native text decides per execution.
#include "fidc_report_fixture.hpp"
#include "funds_model-odb.hxx"

#include <lastro/sdk/cached_query.hpp>
#include <lastro/sdk/query_params.hpp>

#include <gtest/gtest.h>

#include <odb/transaction.hxx>

#include <algorithm>
#include <string>
#include <vector>

namespace lastro::funds::testing {
namespace {

using ClassQuery = odb::query<FundClass>;

struct OfCnpjs {
    sdk::KeyList<std::string, 8> cnpjs;
};

struct OfFunds {
    sdk::KeyList<std::string, 8> fund_ids;
    std::int64_t every = 0;
};

class KeyListStatementsTest : public FidcReportTest {
protected:
    // The registry ids of the classes whose CNPJ is one of `cnpjs`, by a key-list statement.
    std::vector<std::int64_t> ClassesOf(const std::vector<std::string>& cnpjs) {
        const std::size_t terms = sdk::KeyListTerms(cnpjs.size());
        auto q = sdk::CachedQuery<FundClass, OfCnpjs>(
            Db(), sdk::KeyListName("test.classes_of_cnpjs", terms),
            [terms](const OfCnpjs& p) { return sdk::InKeys(ClassQuery::cnpj, p.cnpjs, terms); });
        q.params.cnpjs.Assign(cnpjs.begin(), cnpjs.end(), terms);
        std::vector<std::int64_t> ids;
        for (const FundClass& fund_class : q.Execute()) {
            ids.push_back(fund_class.registry_id);
        }
        std::sort(ids.begin(), ids.end());
        return ids;
    }

    // The classes of `fund_ids`: all (`every`), or those with a CNPJ of their own.
    std::vector<std::int64_t> ClassesOfFunds(const std::vector<std::string>& fund_ids, bool every) {
        const std::size_t terms = sdk::KeyListTerms(fund_ids.size());
        auto q = sdk::CachedQuery<FundClass, OfFunds>(
            Db(), sdk::KeyListName("test.classes_of_funds", terms), [terms](const OfFunds& p) {
                return sdk::InKeys(ClassQuery::fund_id, p.fund_ids, terms) &&
                       ClassQuery("(" + sdk::Bound(ClassQuery::registry_id, p.every) + "<> 0 OR" +
                                  ClassQuery::cnpj + "IS NOT NULL)");
            });
        q.params.fund_ids.Assign(fund_ids.begin(), fund_ids.end(), terms);
        q.params.every = every ? 1 : 0;
        std::vector<std::int64_t> ids;
        for (const FundClass& fund_class : q.Execute()) {
            ids.push_back(fund_class.registry_id);
        }
        std::sort(ids.begin(), ids.end());
        return ids;
    }
};

TEST_F(KeyListStatementsTest, EachExecutionReadsTheKeysBoundAndPaddingMatchesNothingMore) {
    odb::transaction transaction(Db().begin());
    EXPECT_EQ(ClassesOf({kAlfaMezzCnpj}), (std::vector<std::int64_t>{2002}));
    // Three keys in a list of four (the last repeated): the same statement twice, other keys.
    EXPECT_EQ(ClassesOf({kAlfaCnpj, kGamaClassCnpj, kDeltaCnpj}),
              (std::vector<std::int64_t>{2001, 2003, 2004}));
    EXPECT_EQ(ClassesOf({kEpsilonCnpj, kMultiSeniorCnpj, kUnknownCnpj}),
              (std::vector<std::int64_t>{2005, 2006}));
    EXPECT_EQ(ClassesOf({kUnknownCnpj, kUnknownCnpj}), (std::vector<std::int64_t>{}));
    transaction.commit();
}

TEST_F(KeyListStatementsTest, ABoundParameterInNativeTextDecidesAtEachExecution) {
    odb::transaction transaction(Db().begin());
    const std::vector<std::string> multi{FundIdFor("1005")};  // classes 2006 and 2007 (no CNPJ)
    EXPECT_EQ(ClassesOfFunds(multi, true), (std::vector<std::int64_t>{2006, 2007}));
    EXPECT_EQ(ClassesOfFunds(multi, false), (std::vector<std::int64_t>{2006}));
    EXPECT_EQ(ClassesOfFunds({FundIdFor("1001"), FundIdFor("1005")}, false),
              (std::vector<std::int64_t>{2001, 2002, 2006}));
    transaction.commit();
}

}  // namespace
}  // namespace lastro::funds::testing
