// funds 13: each FIDC fund's /v1/fundos item is stored by the registry ingest
// (domain/rows/fund_list_items.hpp). These tests check that the stored items follow the registry
// across re-ingests and that a database at funds 12 gets them when it migrates.
#include "domain/rows/fund_list_items.hpp"
#include "src/search.hpp"

#include "registry_fixture.hpp"

#include <gtest/gtest.h>

#include "funds_model-odb.hxx"

#include <odb/schema-catalog.hxx>
#include <odb/transaction.hxx>

#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace lastro::funds::testing {
namespace {

// The stored items, by registry id.
std::map<std::int64_t, std::string> StoredItems(odb::database& db) {
    std::map<std::int64_t, std::string> items;
    for (const FundListItem& item : sdk::testing::AllRows<FundListItem>(db)) {
        items.emplace(item.registry_id, item.json);
    }
    return items;
}

// The /v1/fundos items of a whole page, by CNPJ.
std::map<std::string, boost::json::object> ListedByCnpj(odb::database& db) {
    sdk::Params params;
    params.Set("limit", std::int64_t{100});
    std::map<std::string, boost::json::object> items;
    const sdk::Result result = Call(&HandleSearch, db, params);
    for (const auto& item : result.data.as_array()) {
        items.emplace(std::string(item.at("cnpj").as_string()), item.as_object());
    }
    return items;
}

void Replace(std::vector<std::string>& lines, const std::string& from, const std::string& to) {
    for (std::string& line : lines) {
        if (auto at = line.find(from); at != std::string::npos) {
            line.replace(at, from.size(), to);
        }
    }
}

TEST(FundListItems, FollowTheRegistryAcrossReingests) {
    FundsDatabase database;
    Ingest(database.Db(), WriteCsvs(database.Dir(), BaseSnapshot()));
    EXPECT_EQ(StoredItems(database.Db()).size(), 4u);  // the four funds of the FIDC universe
    std::map<std::string, boost::json::object> before = ListedByCnpj(database.Db());
    ASSERT_EQ(before.size(), 4u);
    EXPECT_EQ(before.at("12345678000195").at("classes").as_array()[0].at("name").as_string(),
              "CLASSE ÚNICA SÊNIOR ALFA");

    // A class renamed (its fund's item changes though the fund's row does not), a fund that
    // leaves the universe, a new one.
    Snapshot next = BaseSnapshot();
    Replace(next.classes, "CLASSE ÚNICA SÊNIOR ALFA", "CLASSE RENOMEADA");
    Replace(next.funds, ";FIC-FIDC;", ";FI;");  // 1003 (44444444000191)
    next.Fund({{"ID_Registro_Fundo", "1099"},
               {"CNPJ_Fundo", "99999999000191"},
               {"Tipo_Fundo", "FIDC"},
               {"Denominacao_Social", "FIDC NOVO"}});
    Ingest(database.Db(), WriteCsvs(database.Subdir("next"), next));

    const std::map<std::string, boost::json::object> after = ListedByCnpj(database.Db());
    EXPECT_EQ(StoredItems(database.Db()).size(), 4u);
    ASSERT_EQ(after.size(), 4u);
    EXPECT_EQ(after.count("44444444000191"), 0u);
    ASSERT_EQ(after.count("99999999000191"), 1u);
    EXPECT_EQ(after.at("99999999000191").at("name").as_string(), "FIDC NOVO");
    EXPECT_TRUE(after.at("99999999000191").at("classes").as_array().empty());
    EXPECT_EQ(after.at("12345678000195").at("classes").as_array()[0].at("name").as_string(),
              "CLASSE RENOMEADA");
    EXPECT_EQ(after.at("33333333000191"), before.at("33333333000191"));

    // Written again from the same registry, nothing differs.
    odb::transaction transaction(database.Db().begin());
    EXPECT_EQ(RebuildFundListItems(database.Db()), 0u);
    transaction.commit();
}

// A database at funds 12 (no stored items) gets every FIDC fund's on its way to 13, the text the
// ingest writes.
TEST(FundListItems, MigratingFromSchema12WritesEveryItem) {
    FundsDatabase database;
    Ingest(database.Db(), WriteCsvs(database.Dir(), BaseSnapshot()));
    const std::map<std::int64_t, std::string> ingested = StoredItems(database.Db());
    const std::map<std::string, boost::json::object> listed = ListedByCnpj(database.Db());
    ASSERT_EQ(ingested.size(), 4u);
    {
        odb::transaction transaction(database.Db().begin());
        database.Db().execute("DROP TABLE funds_fund_list_item");
        database.Db().execute("UPDATE schema_version SET version = 12 WHERE name = 'funds'");
        transaction.commit();
    }
    database.Db().schema_version_migration(12, false, "funds");  // the ingest read (and kept) 13
    {
        odb::transaction transaction(database.Db().begin());
        odb::schema_catalog::migrate(database.Db(), 13, "funds");  // as lastro db migrate does
        EXPECT_EQ(database.Db().schema_version("funds"), 13u);
        transaction.commit();
    }
    EXPECT_EQ(StoredItems(database.Db()), ingested);
    EXPECT_EQ(ListedByCnpj(database.Db()), listed);
}

}  // namespace
}  // namespace lastro::funds::testing
