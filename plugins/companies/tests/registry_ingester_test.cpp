// The registry's ingester and /v1/companhias on a plugin database (SQLite, or PostgreSQL with
// LASTRO_TEST_BACKEND), fed the sample's two snapshots: the diff counts, one row per CVM code,
// the situation history, the search and the filters, the pages, and the refusals that leave the
// database as it was.
#include "ingest/cad_cia_aberta/registry_ingester.hpp"
#include "domain/registry/registry_rules.hpp"
#include "sample/company_universe.hpp"
#include "sample/registry_writer.hpp"
#include "src/handlers.hpp"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/testing/fake_host.hpp>
#include <lastro/sdk/testing/plugin_calls.hpp>
#include <lastro/sdk/testing/plugin_database.hpp>
#include <lastro/sdk/text.hpp>

#include <gtest/gtest.h>
#include <boost/json.hpp>
#include <odb/transaction.hxx>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

namespace lastro::companies {
namespace {

namespace fs = std::filesystem;
using sdk::testing::CallHandler;
using sdk::testing::RunIngest;

constexpr std::time_t kFirstIngest = 1790000000;   // 2026-09-21
constexpr std::time_t kSecondIngest = 1790500000;  // 2026-09-27

class RegistryDatabase : public sdk::testing::PluginDatabase {
public:
    RegistryDatabase()
        : PluginDatabase("companies"),
          universe_(DrawCompanyUniverse(sdk::kDefaultSampleSeed, sdk::SampleScale::kSample)) {
        host_.SetRelease(std::string(kRegistryDataset), "cad-cia-aberta-1");
    }

    const CompanyUniverse& Universe() const { return universe_; }
    const CompanyCases& Cases() const { return universe_.cases; }

    fs::path File(const std::string& name, const std::string& bytes) {
        const fs::path path = Subdir("in") / name;
        std::ofstream(path, std::ios::binary) << bytes;
        return path;
    }
    fs::path Earlier() {
        return File("cad_cia_aberta_2026-07-31.csv", RegistryCsv(universe_.earlier, Cases().duplicated_code));
    }
    fs::path Current() {
        return File("cad_cia_aberta.csv", RegistryCsv(universe_.current, Cases().duplicated_code));
    }

    sdk::IngestSummary Ingest(const std::vector<fs::path>& files, std::time_t now = kFirstIngest) {
        RegistryIngester ingester;
        return RunIngest(ingester, Db(), std::string(kRegistryDataset), files, now);
    }
    std::string One(const std::string& query) {
        odb::transaction transaction(Db().begin());
        const sdk::SqlRows rows = sdk::SqlSession(Db()).Query(query);
        transaction.commit();
        return rows.at(0).at(0).value_or("NULL");
    }

    // /v1/companhias with `params` (already typed, as the host hands them over).
    sdk::Result Companies(const sdk::Params& params,
                          const std::optional<boost::json::value>& cursor = std::nullopt) {
        return CallHandler(&HandleCompanies, Db(), params, host_, cursor);
    }
    boost::json::object Company(std::int64_t cvm_code) {
        for (std::optional<boost::json::value> cursor;;) {
            sdk::Params params;
            params.Set("limit", std::int64_t{500});
            const sdk::Result page = Companies(params, cursor);
            for (const auto& item : page.data.as_array()) {
                if (item.at("cvm_code").as_int64() == cvm_code) {
                    return item.as_object();
                }
            }
            if (!page.meta.next_position) {
                ADD_FAILURE() << "no company " << cvm_code;
                return {};
            }
            cursor = page.meta.next_position;
        }
    }

private:
    CompanyUniverse universe_;
    sdk::testing::FakeHost host_;
};

std::vector<std::int64_t> Codes(const sdk::Result& result) {
    std::vector<std::int64_t> codes;
    for (const auto& item : result.data.as_array()) {
        codes.push_back(item.at("cvm_code").as_int64());
    }
    return codes;
}

TEST(RegistryIngesterTest, AppliesTwoSnapshotsOldestFirstKeepingTheSituationHistory) {
    RegistryDatabase db;
    const std::size_t earlier = db.Universe().earlier.size();
    const std::size_t current = db.Universe().current.size();
    // Given newest first: the dated earlier snapshot is applied first all the same.
    const sdk::IngestSummary summary = db.Ingest({db.Current(), db.Earlier()});
    EXPECT_EQ(summary.rows_read, earlier + 1 + current + 1);  // each lists one company twice
    EXPECT_EQ(summary.inserted, earlier + 1);                 // the earlier's, then the newcomer
    EXPECT_EQ(summary.updated, 2u);                           // cancelled, renamed
    EXPECT_EQ(summary.unchanged, current - 3);
    EXPECT_EQ(summary.removed, 0u);
    EXPECT_EQ(summary.rejected, 0u);
    EXPECT_EQ(summary.release_label, "cad-cia-aberta-2");
    // The repeated row is named, with the rule, once a snapshot.
    std::size_t named = 0;
    for (const std::string& message : summary.rejections) {
        named += message.find("CD_CVM " + std::to_string(db.Cases().duplicated_code) + " listed again") !=
                 std::string::npos;
    }
    EXPECT_EQ(named, 2u);
    EXPECT_EQ(db.One("SELECT count(*) FROM companies_company"), std::to_string(current));
    EXPECT_EQ(db.One("SELECT count(*) FROM companies_registry_snapshot"), "2");

    // The company the current snapshot cancels: both situations, in the registry's order.
    const boost::json::object cancelled = db.Company(db.Cases().cancelled_code);
    EXPECT_EQ(cancelled.at("situation").as_string(), "CANCELADA");
    EXPECT_EQ(cancelled.at("cancelled_at").as_string(), db.Cases().cancelled_on);
    const boost::json::array& history = cancelled.at("situation_history").as_array();
    ASSERT_EQ(history.size(), 2u) << boost::json::serialize(history);
    EXPECT_EQ(history[0].at("situation").as_string(), "ATIVO");
    EXPECT_EQ(history[1].at("situation").as_string(), "CANCELADA");
    EXPECT_EQ(history[1].at("since").as_string(), db.Cases().cancelled_on);

    const boost::json::object renamed = db.Company(db.Cases().renamed_code);
    EXPECT_EQ(renamed.at("trade_name").as_string(), "Marca Nova");
    EXPECT_EQ(renamed.at("situation_history").as_array().size(), 1u);

    // The CEP whose leading zero CVM lost.
    const boost::json::object paulista = db.Company(db.Cases().short_postal_code);
    EXPECT_EQ(paulista.at("address").at("postal_code").as_string(), "01310100");
    EXPECT_EQ(paulista.at("address").at("postal_code_published").as_string(), "1310100");

    // The same snapshot again changes nothing.
    const sdk::IngestSummary again = db.Ingest({db.Current()}, kSecondIngest);
    EXPECT_EQ(again.inserted + again.updated + again.removed, 0u);
    EXPECT_EQ(again.unchanged, current);
}

TEST(RegistryIngesterTest, ACompanyNoLongerListedIsRemovedAndItsHistoryKept) {
    RegistryDatabase db;
    db.Ingest({db.Current()});
    std::vector<SampleCompany> fewer = db.Universe().current;
    const std::int64_t gone = fewer.back().cvm_code;
    fewer.pop_back();
    const sdk::IngestSummary summary = db.Ingest(
        {db.File("cad_cia_aberta.csv", RegistryCsv(fewer, db.Cases().duplicated_code))}, kSecondIngest);
    EXPECT_EQ(summary.removed, 1u);
    EXPECT_EQ(db.One("SELECT count(*) FROM companies_company WHERE cvm_code = " + std::to_string(gone)), "0");
    EXPECT_EQ(db.One("SELECT count(*) FROM companies_situation WHERE cvm_code = " + std::to_string(gone)),
              "1");
}

TEST(RegistryIngesterTest, RefusesBadFilesLeavingTheDatabaseAsItWas) {
    RegistryDatabase db;
    db.Ingest({db.Current()});
    const std::string before = db.One("SELECT count(*) FROM companies_company");
    const std::string good = RegistryCsv(db.Universe().current, 0);

    auto refusal = [&](const std::vector<fs::path>& files) {
        try {
            db.Ingest(files, kSecondIngest);
        } catch (const sdk::IngestError& error) {
            return std::string(error.what());
        }
        return std::string("no error");
    };
    // Cut in the middle of the last line: fewer fields than the header, no line end.
    const std::string truncated = refusal({db.File("cad_cia_aberta.csv", good.substr(0, good.size() - 200))});
    EXPECT_NE(truncated.find("cad_cia_aberta.csv:"), std::string::npos) << truncated;
    std::string no_code = good;
    no_code.replace(no_code.find(";CD_CVM;"), 8, ";CODIGO;");
    EXPECT_NE(refusal({db.File("cad_cia_aberta.csv", no_code)}).find("missing column CD_CVM"),
              std::string::npos);
    EXPECT_NE(refusal({db.File("cad_cia_aberta_2026-07-31.csv", good),
                       db.File("cad_cia_aberta_2026-07-31b.csv", good)})
                  .find("same date"),
              std::string::npos);
    EXPECT_NE(refusal({db.File("cadastro.csv", good)}).find("cadastro.csv"), std::string::npos);
    EXPECT_EQ(db.One("SELECT count(*) FROM companies_company"), before);
    EXPECT_EQ(db.One("SELECT count(*) FROM companies_registry_snapshot"), "1");
}

TEST(CompaniesHandlerTest, SearchesFiltersAndPages) {
    RegistryDatabase db;
    db.Ingest({db.Earlier(), db.Current()});

    // q ignores case and accents, over legal and trade names.
    sdk::Params q;
    q.Set("q", std::string("SIDERURGICA acao"));
    const sdk::Result found = db.Companies(q);
    ASSERT_EQ(found.data.as_array().size(), 1u);
    EXPECT_EQ(found.data.as_array()[0].at("legal_name").as_string(), db.Cases().accented_name);
    sdk::Params two_letters;
    two_letters.Set("q", std::string("Aç"));  // under a trigram: no index, the same rule
    const sdk::Result short_needle = db.Companies(two_letters);
    EXPECT_FALSE(short_needle.data.as_array().empty());
    for (const auto& item : short_needle.data.as_array()) {
        const auto folded = [&](const char* key) {
            const boost::json::value& value = item.at(key);
            return value.is_null() ? std::string() : sdk::FoldForSearch(value.as_string());
        };
        EXPECT_NE((folded("legal_name") + "\n" + folded("trade_name")).find("ac"), std::string::npos)
            << boost::json::serialize(item);
    }
    sdk::Params wildcard;
    wildcard.Set("q", std::string("%"));
    EXPECT_TRUE(db.Companies(wildcard).data.as_array().empty());

    // One CNPJ, two CVM codes (re-registered after a cancellation).
    sdk::Params cnpj;
    std::string digits;
    for (char c : db.Cases().reregistered_cnpj) {
        if (c >= '0' && c <= '9') {
            digits.push_back(c);
        }
    }
    cnpj.Set("cnpj", digits);
    EXPECT_EQ(Codes(db.Companies(cnpj)), (std::vector<std::int64_t>{db.Cases().reregistered_old_code,
                                                                    db.Cases().reregistered_new_code}));

    // Situation, folded; dates.
    sdk::Params cancelled;
    cancelled.Set("situation", std::string("cancelada"));
    cancelled.Set("cancelled_from", sdk::Date{2026, 9, 1});
    EXPECT_EQ(Codes(db.Companies(cancelled)), std::vector<std::int64_t>{db.Cases().cancelled_code});
    sdk::Params recent;
    recent.Set("registered_from", sdk::Date{2026, 8, 1});
    EXPECT_EQ(Codes(db.Companies(recent)), std::vector<std::int64_t>{db.Cases().new_code});

    // Pages of 7 walk every company once, by CVM code.
    std::vector<std::int64_t> walked;
    std::optional<boost::json::value> cursor;
    do {
        sdk::Params page;
        page.Set("limit", std::int64_t{7});
        const sdk::Result result = db.Companies(page, cursor);
        EXPECT_LE(result.data.as_array().size(), 7u);
        for (std::int64_t code : Codes(result)) {
            walked.push_back(code);
        }
        cursor = result.meta.next_position;
    } while (cursor);
    std::set<std::int64_t> expected;
    for (const SampleCompany& company : db.Universe().current) {
        expected.insert(company.cvm_code);
    }
    EXPECT_EQ(walked, std::vector<std::int64_t>(expected.begin(), expected.end()));

    // A cursor of another operation is refused.
    EXPECT_THROW(db.Companies({}, boost::json::value(boost::json::object{{"offset", 3}})), sdk::BadRequest);
}

}  // namespace
}  // namespace lastro::companies
