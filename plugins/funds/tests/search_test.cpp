#include "src/search.hpp"
#include "class_data_fixture.hpp"
#include "domain/search/search_index.hpp"

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/trigram_search.hpp>

#include <gmock/gmock.h>

#include <gtest/gtest.h>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include "funds_model-odb.hxx"

#include <odb/exceptions.hxx>
#include <odb/schema-catalog.hxx>
#include <odb/transaction.hxx>

#include <lastro/sdk/schema_sql.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace lastro::funds::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

class SearchTest : public RegistryTest {
protected:
    sdk::Result Search(const sdk::Params& params,
                       const std::optional<boost::json::value>& position = std::nullopt) {
        return Call(&HandleSearch, Db(), params, position);
    }

    // CNPJs of the funds a search returns, in order.
    std::vector<std::string> Cnpjs(const sdk::Params& params) {
        std::vector<std::string> cnpjs;
        const sdk::Result result = Search(params);
        for (const auto& item : result.data.as_array()) {
            cnpjs.emplace_back(item.at("cnpj").as_string());
        }
        return cnpjs;
    }

    static sdk::Params NoFilters() {
        sdk::Params params;
        params.Set("limit", std::int64_t{25});
        return params;
    }

    static sdk::Params With(const std::string& name, const std::string& value) {
        sdk::Params params;
        params.Set(name, value);
        params.Set("limit", std::int64_t{25});
        return params;
    }

    const boost::json::object& Item(const sdk::Result& result, const std::string& cnpj) {
        for (const auto& item : result.data.as_array()) {
            if (item.at("cnpj").as_string() == cnpj) {
                return item.as_object();
            }
        }
        static const boost::json::object kNone;
        ADD_FAILURE() << "no item " << cnpj;
        return kNone;
    }
};

TEST_F(SearchTest, ListsOnlyTheFidcUniverse) {
    EXPECT_THAT(Cnpjs(NoFilters()),
                UnorderedElementsAre("12345678000195", "33333333000191", "44444444000191", "66666666000191"));
}

TEST_F(SearchTest, QueryIgnoresCaseAndAccents) {
    EXPECT_THAT(Cnpjs(With("q", "credito")), UnorderedElementsAre("12345678000195", "33333333000191"));
    EXPECT_THAT(Cnpjs(With("q", "CRÉDITO")), UnorderedElementsAre("12345678000195", "33333333000191"));
    EXPECT_THAT(Cnpjs(With("q", "  Crédito Consignado ")), ElementsAre("12345678000195"));
}

TEST_F(SearchTest, QueryMatchesCnpjManagerAndAdministrator) {
    EXPECT_THAT(Cnpjs(With("q", "12.345.678/0001-95")), ElementsAre("12345678000195"));
    EXPECT_THAT(Cnpjs(With("q", "4444")), ElementsAre("44444444000191"));
    EXPECT_THAT(Cnpjs(With("q", "ômega")), ElementsAre("33333333000191"));
    EXPECT_THAT(Cnpjs(With("q", "zeta")), ElementsAre("44444444000191"));
}

TEST_F(SearchTest, LikeWildcardsInTheQueryAreLiteral) {
    EXPECT_THAT(Cnpjs(With("q", "_")), ElementsAre("66666666000191"));  // GESTORA_UNDERSCORE only
    EXPECT_THAT(Cnpjs(With("q", "100%")), ElementsAre("66666666000191"));
    EXPECT_TRUE(Cnpjs(With("q", "%%")).empty());
    EXPECT_TRUE(Cnpjs(With("q", "\\")).empty());
}

TEST_F(SearchTest, CnpjIsAnExactMatchInsideTheUniverse) {
    EXPECT_THAT(Cnpjs(With("cnpj", "12345678000195")), ElementsAre("12345678000195"));
    EXPECT_TRUE(Cnpjs(With("cnpj", "55555555000191")).empty());  // an FI, not a FIDC
}

TEST_F(SearchTest, StatusIsCaseInsensitiveAndExact) {
    EXPECT_THAT(Cnpjs(With("status", "em funcionamento NORMAL")),
                UnorderedElementsAre("12345678000195", "33333333000191"));
    EXPECT_THAT(Cnpjs(With("status", "fase pre-operacional")), ElementsAre("66666666000191"));
    EXPECT_TRUE(Cnpjs(With("status", "funcionamento")).empty());
}

TEST_F(SearchTest, ManagerAndAdministratorArePartialFoldedMatches) {
    EXPECT_THAT(Cnpjs(With("manager", "acao")), ElementsAre("12345678000195"));
    EXPECT_THAT(Cnpjs(With("manager", "OMEGA")), ElementsAre("33333333000191"));
    EXPECT_THAT(Cnpjs(With("administrator", "beta")),
                UnorderedElementsAre("12345678000195", "33333333000191"));
    sdk::Params both = With("administrator", "beta");
    both.Set("manager", std::string("gestora a"));
    EXPECT_THAT(Cnpjs(both), ElementsAre("12345678000195"));
}

TEST_F(SearchTest, ItemsFollowTheContract) {
    const sdk::Result result = Search(NoFilters());
    const auto& alfa = Item(result, "12345678000195");
    EXPECT_EQ(alfa.at("fund_id").as_string(), FundIdFor("1001"));
    EXPECT_EQ(alfa.at("cvm_code").as_int64(), 5001);
    EXPECT_EQ(alfa.at("name").as_string(), "FIDC CRÉDITO CONSIGNADO ALFA");
    EXPECT_EQ(alfa.at("status").as_string(), "Em Funcionamento Normal");
    EXPECT_EQ(alfa.at("fund_type").as_string(), "FIDC");
    EXPECT_EQ(alfa.at("manager").as_string(), "GESTORA AÇÃO LTDA");
    EXPECT_EQ(alfa.at("administrator").as_string(), "ADMINISTRADORA BETA S.A.");
    EXPECT_EQ(alfa.at("registered_at").as_string(), "2020-01-10");
    EXPECT_EQ(alfa.at("started_at").as_string(), "2020-01-05");
    EXPECT_TRUE(alfa.at("cancelled_at").is_null());
    EXPECT_TRUE(alfa.at("ended_at").is_null());
    EXPECT_EQ(alfa.at("fiscal_year_end_at").as_string(), "2024-12-31");
    EXPECT_DOUBLE_EQ(alfa.at("registered_patrimony_brl").as_double(), 20471867.51);
    EXPECT_TRUE(alfa.at("active").as_bool());
    const auto& classes = alfa.at("classes").as_array();
    ASSERT_EQ(classes.size(), 2u);
    EXPECT_EQ(classes[0].at("class_id").as_string(), ClassIdFor("2001"));
    EXPECT_EQ(classes[0].at("cvm_code").as_int64(), 6001);
    EXPECT_EQ(classes[0].at("cnpj").as_string(), "12345678000195");
    EXPECT_EQ(classes[0].at("name").as_string(), "CLASSE ÚNICA SÊNIOR ALFA");
    EXPECT_EQ(classes[1].at("class_id").as_string(), ClassIdFor("2002"));

    const auto& delta = Item(result, "44444444000191");
    EXPECT_EQ(delta.at("cancelled_at").as_string(), "2022-08-31");
    EXPECT_EQ(delta.at("ended_at").as_string(), "2022-08-31");
    EXPECT_FALSE(delta.at("active").as_bool());

    const auto& gama = Item(result, "33333333000191");
    EXPECT_TRUE(gama.at("registered_patrimony_brl").is_null());
    EXPECT_TRUE(gama.at("started_at").is_null());

    const auto& no_code = Item(result, "66666666000191");
    EXPECT_TRUE(no_code.at("cvm_code").is_null());
    EXPECT_TRUE(no_code.at("classes").as_array().empty());
}

TEST_F(SearchTest, MetaNamesSourceReleaseUniverseAndFieldSources) {
    const sdk::Result result = Search(NoFilters());
    EXPECT_EQ(result.meta.data_release, "registro-2026-08-17");
    EXPECT_EQ(result.meta.as_of, "2026-08-17");
    ASSERT_EQ(result.meta.sources.size(), 1u);
    EXPECT_EQ(result.meta.sources[0].provider, "cvm");
    EXPECT_EQ(result.meta.sources[0].dataset, "registro_fundo_classe");
    EXPECT_EQ(result.meta.extra.at("universe_filter").at("fund_type").as_string(), "FIDC");
    EXPECT_EQ(result.meta.extra.at("universe_filter").at("fund_types").as_array().size(), 3u);
    EXPECT_EQ(DeclaredSources("funds.search").at("name"), "registro_fundo.Denominacao_Social");
    ExpectSourcesForEveryField("funds.search", result.data.as_array()[0].as_object(), result.meta);
    EXPECT_FALSE(result.meta.next_position.has_value());
}

TEST_F(SearchTest, WithoutARegistryReleaseTheReleaseIsNull) {
    const sdk::testing::FakeHost empty;
    const sdk::Result result = Call(&HandleSearch, Db(), NoFilters(), std::nullopt, empty);
    EXPECT_FALSE(result.meta.data_release.has_value());
    EXPECT_FALSE(result.meta.as_of.has_value());
    EXPECT_EQ(result.meta.sources.size(), 1u);
}

TEST_F(SearchTest, ACursorPositionFromElsewhereIsRefused) {
    EXPECT_THROW(Search(With("q", "x"), boost::json::value(boost::json::object{{"offset", 3}})),
                 sdk::BadRequest);
    EXPECT_THROW(Search(With("q", "x"), boost::json::value(boost::json::object{{"after", "nope"}})),
                 sdk::BadRequest);
}

TEST(SearchPatterns, NeedlesAreFoldedOrCnpjDigits) {
    EXPECT_EQ(SearchNeedle(" Crédito "), "credito");
    EXPECT_EQ(SearchNeedle("12.345.678/0001-95"), "12345678000195");
    EXPECT_EQ(SearchNeedle("fidc 2"), "fidc 2");
}

TEST(SearchPagination, KeysetPagesReturnEveryFidcExactlyOnce) {
    FundsDatabase database;
    Snapshot s = BaseSnapshot();
    for (int i = 0; i < 30; ++i) {
        s.Fund({{"ID_Registro_Fundo", std::to_string(3000 + i)},
                {"CNPJ_Fundo", "12345678000195"},
                {"Tipo_Fundo", i % 2 ? "FIDC" : "FIDC-NP"},
                {"Denominacao_Social", "FIDC PAGINADO " + std::to_string(i)}});
        s.Fund({{"ID_Registro_Fundo", std::to_string(4000 + i)},
                {"CNPJ_Fundo", "12345678000195"},
                {"Tipo_Fundo", "FIA"},
                {"Denominacao_Social", "OUTRO FUNDO " + std::to_string(i)}});
    }
    Ingest(database.Db(), WriteCsvs(database.Dir(), s));

    std::vector<std::string> seen;
    std::optional<boost::json::value> position;
    int pages = 0;
    do {
        sdk::Params params;
        params.Set("limit", std::int64_t{7});
        const sdk::Result page = Call(&HandleSearch, database.Db(), params, position);
        EXPECT_LE(page.data.as_array().size(), 7u);
        for (const auto& item : page.data.as_array()) {
            seen.emplace_back(item.at("fund_id").as_string());
        }
        position = page.meta.next_position;
        ++pages;
    } while (position && pages < 20);

    EXPECT_EQ(seen.size(), 34u);  // 30 generated + 4 FIDCs of the base snapshot
    EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()).size(), seen.size());
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
    EXPECT_EQ(pages, 5);
}

// docs/plugins.md quotes from here: unit-test
TEST(SearchPagination, AnExactlyFullLastPageHasNoNextPosition) {
    FundsDatabase database;
    Ingest(database.Db(), WriteCsvs(database.Dir(), BaseSnapshot()));
    sdk::Params params;
    params.Set("limit", std::int64_t{4});
    const sdk::Result page = Call(&HandleSearch, database.Db(), params);
    EXPECT_EQ(page.data.as_array().size(), 4u);
    EXPECT_FALSE(page.meta.next_position.has_value());

    params.Set("limit", std::int64_t{3});
    const sdk::Result first = Call(&HandleSearch, database.Db(), params);
    ASSERT_TRUE(first.meta.next_position.has_value());
    EXPECT_EQ(first.meta.next_position->at("after").as_string(),
              first.data.as_array().back().at("fund_id").as_string());
}
// docs/plugins.md quotes up to here

// The text index (domain/search/search_index.hpp) only finds candidates: every answer is the one
// the folded LIKE alone gives, for needles of every length (one and two characters have no
// trigram), wildcards, quotes, accents and CNPJ punctuation, alone and combined.
TEST_F(SearchTest, TheIndexAnswersWhatTheFoldedLikeAnswers) {
    auto by_like = [&](const std::string& column, const std::string& needle) {
        using Q = odb::query<Fund>;
        const std::string pattern = sdk::ContainsPattern(needle);
        const std::string escape(kLikeEscape);
        Q match = column == "q"         ? Q(Q::search_text.like(pattern, escape))
                  : column == "manager" ? Q(Q::manager_folded.like(pattern, escape))
                                        : Q(Q::administrator_folded.like(pattern, escape));
        std::vector<std::string> cnpjs;
        odb::transaction transaction(Db().begin());
        for (const Fund& fund :
             Db().query<Fund>((Q::fidc_universe == true && match) + "ORDER BY" + Q::fund_id)) {
            cnpjs.push_back(fund.cnpj);
        }
        transaction.commit();
        return cnpjs;
    };
    std::vector<std::string> needles = {"a",       "e",
                                        "9",       "x",
                                        " ",       "-",
                                        "_",       "%",
                                        "\\",      "\"",
                                        "'",       "fi",
                                        "id",      "a ",
                                        "zz",      "0%",
                                        "fidc",    "crédito",
                                        "CRÉD",    "ômega",
                                        "ação",    "acao",
                                        "açã",     "beta s.a.",
                                        "s.a",     "100%",
                                        "_un",     "nao padr",
                                        "12.345",  "345.678/0001",
                                        "0001-95", "33333333000191",
                                        "o\"neil", "o'neil",
                                        "gestora", "administradora beta",
                                        "zeta",    "alfa\nfidc"};
    for (const std::string column : {"q", "manager", "administrator"}) {
        for (const std::string& raw : needles) {
            const std::string needle = column == "q" ? SearchNeedle(raw) : FoldedText(raw);
            if (needle.empty()) {
                continue;
            }
            sdk::Params params = With(column, raw);
            params.Set("limit", std::int64_t{100});
            std::vector<std::string> expected = by_like(column, needle);
            EXPECT_EQ(Cnpjs(params), expected) << column << "=" << raw;
        }
    }
}

// Over enough funds that a page ends long before the matches do (a dense needle) and for a
// needle that matches few of them (a sparse one), with and without trigrams (needles of one or two
// characters walk the search rows) and with the other filters, every page together is every
// match, once, in fund_id order.
TEST(SearchIndexPaths, DenseAndSparseNeedlesPageThroughEveryMatch) {
    FundsDatabase database;
    Snapshot s = BaseSnapshot();
    for (int i = 0; i < 60; ++i) {
        s.Fund({{"ID_Registro_Fundo", std::to_string(5000 + i)},
                {"CNPJ_Fundo", "12345678000195"},
                {"Tipo_Fundo", "FIDC"},
                {"Denominacao_Social", "FIDC DENSO " + std::to_string(i) + (i % 20 == 0 ? " RARO" : "")},
                {"Situacao", i % 3 == 0 ? "Cancelado" : "Em Funcionamento Normal"},
                {"Gestor", i % 2 == 0 ? "Gestora Par Ltda" : "Gestora Ímpar Ltda"}});
    }
    Ingest(database.Db(), WriteCsvs(database.Dir(), s));
    auto pages = [&](sdk::Params params, std::int64_t limit) {
        std::vector<std::string> names;
        std::vector<std::string> ids;
        std::optional<boost::json::value> position;
        int guard = 0;
        params.Set("limit", limit);
        do {
            const sdk::Result page = Call(&HandleSearch, database.Db(), params, position);
            for (const auto& item : page.data.as_array()) {
                names.emplace_back(item.at("name").as_string());
                ids.emplace_back(item.at("fund_id").as_string());
            }
            position = page.meta.next_position;
        } while (position && ++guard < 100);
        EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
        EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), ids.size());
        return names;
    };
    auto q = [](const std::string& needle) {
        sdk::Params params;
        params.Set("q", needle);
        return params;
    };
    EXPECT_EQ(pages(q("denso"), 1).size(), 60u);
    EXPECT_EQ(pages(q("denso"), 7).size(), 60u);
    EXPECT_EQ(pages(q("denso"), 100).size(), 60u);
    EXPECT_EQ(pages(q("raro"), 1).size(), 3u);
    EXPECT_EQ(pages(q("o 4"), 2).size(), 11u);          // denso 4, denso 40 .. denso 49
    EXPECT_EQ(pages(q("59"), 4).size(), 1u);            // no trigram: the walk
    EXPECT_EQ(pages(q("ns"), 4), pages(q("ns"), 100));  // denso, consignado, ...
    EXPECT_TRUE(pages(q("nada disso"), 5).empty());
    sdk::Params odd = q("denso");
    odd.Set("manager", "impar");
    EXPECT_EQ(pages(odd, 4).size(), 30u);
    sdk::Params cancelled = q("denso");
    cancelled.Set("status", "cancelado");
    EXPECT_EQ(pages(cancelled, 3).size(), 20u);
    sdk::Params only_status;
    only_status.Set("status", "cancelado");
    EXPECT_EQ(pages(only_status, 6), pages(only_status, 100));
    EXPECT_GE(pages(only_status, 100).size(), 20u);
}

// Page keys grow with fund ids: each id's key is its first 63 bits, or one more than the key
// before when two ids share them, so keys stay unique and in id order.
TEST(SearchRows, PageKeysGrowWithFundIds) {
    EXPECT_EQ(PageKeyFloor("00000000-0000-0000-0000-000000000000"), 0);
    EXPECT_EQ(PageKeyFloor("00000000-0000-0002-ffff-ffffffffffff"), 1);
    EXPECT_EQ(PageKeyFloor("ffffffff-ffff-ffff-ffff-ffffffffffff"), std::numeric_limits<std::int64_t>::max());
    EXPECT_LT(PageKeyFloor("7c538941-4db0-5c3b-9ac3-41032960c359"),
              PageKeyFloor("7c538941-4db0-5c3c-0000-000000000000"));
    EXPECT_EQ(PageKeyFloor("7C538941-4db0-5c3b-9ac3-41032960c359"), std::nullopt);  // not lowercase
    EXPECT_EQ(PageKeyFloor("7c538941-4db0-5c3b"), std::nullopt);
    EXPECT_EQ(PageKeyFloor("7c5389414db05c3b9ac341032960c359"), std::nullopt);
    EXPECT_EQ(PageKeyFloor(""), std::nullopt);

    // Two ids with the same first 63 bits, then one whose floor is the key the second took.
    const std::vector<std::string> ids = {
        "00000000-0000-0004-0000-000000000001",  // floor 2
        "00000000-0000-0005-0000-000000000000",  // floor 2 as well
        "00000000-0000-0006-0000-000000000000",  // floor 3
        "00000000-0000-000a-0000-000000000000",  // floor 5
    };
    EXPECT_THAT(PageKeys(ids), ElementsAre(2, 3, 4, 5));
    EXPECT_TRUE(PageKeys({}).empty());
    EXPECT_THROW(PageKeys({ids[1], ids[0]}), std::invalid_argument);
    EXPECT_THROW(PageKeys({ids[0], ids[0]}), std::invalid_argument);
    EXPECT_THROW(PageKeys({"FFFFFFFF-0000-0000-0000-000000000000"}), std::invalid_argument);
    EXPECT_THROW(PageKeys({"ffffffff-ffff-fffe-0000-000000000000", "ffffffff-ffff-ffff-0000-000000000000",
                           "ffffffff-ffff-ffff-0000-000000000001"}),
                 std::invalid_argument);  // no key is left past the largest
}

// SQLite: the search rows are the FIDC universe's funds in fund_id order, each under its page key,
// and the trigram index's rowids are those keys; a re-ingest of the same registry writes none.
TEST(SearchRows, AreTheUniverseInPageOrder) {
    FundsDatabase database;
    if (database.Db().id() != odb::id_sqlite) {
        GTEST_SKIP() << "the search rows are SQLite's";
    }
    Ingest(database.Db(), WriteCsvs(database.Dir(), BaseSnapshot()));
    std::vector<std::string> ids;
    std::vector<std::int64_t> keys;
    for (const FundSearchRow& row : sdk::testing::AllRows<FundSearchRow>(database.Db())) {
        ids.push_back(row.fund_id);
        keys.push_back(row.page_key);
    }
    ASSERT_EQ(ids.size(), 4u);  // the four funds of the FIDC universe
    std::vector<std::pair<std::int64_t, std::string>> by_key;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        by_key.emplace_back(keys[i], ids[i]);
    }
    std::sort(by_key.begin(), by_key.end());
    std::vector<std::string> sorted_ids = ids;
    std::sort(sorted_ids.begin(), sorted_ids.end());
    std::vector<std::int64_t> sorted_keys;
    for (std::size_t i = 0; i < by_key.size(); ++i) {
        EXPECT_EQ(by_key[i].second, sorted_ids[i]);
        sorted_keys.push_back(by_key[i].first);
    }
    EXPECT_EQ(PageKeys(sorted_ids), sorted_keys);

    odb::transaction transaction(database.Db().begin());
    std::set<std::int64_t> indexed;
    for (const FundSearchMatch& match :
         database.Db().query<FundSearchMatch>("funds_fund_search MATCH 'search_text : \"000\"'")) {
        indexed.insert(match.page_key);
    }
    EXPECT_EQ(indexed, std::set<std::int64_t>(keys.begin(), keys.end()));
    EXPECT_EQ(RebuildSearchRows(database.Db()), 0u);
    transaction.commit();
}

// The fund_ids of the first page that searching `q` answers.
std::vector<std::string> FundIdsFound(odb::database& db, const std::string& q) {
    sdk::Params params;
    params.Set("q", q);
    params.Set("limit", std::int64_t{25});
    std::vector<std::string> ids;
    const sdk::Result result = Call(&HandleSearch, db, params);
    for (const auto& item : result.data.as_array()) {
        ids.emplace_back(item.at("fund_id").as_string());
    }
    return ids;
}

// A re-ingested registry replaces the funds in one transaction and the index with them: a renamed
// fund is found by its new name only (same fund_id), a removed one and one that left the FIDC
// universe are no longer found, a new one is.
TEST(SearchIndexPaths, TheIndexFollowsReingests) {
    FundsDatabase database;
    Ingest(database.Db(), WriteCsvs(database.Dir(), BaseSnapshot()));
    auto search = [&](const std::string& q) { return FundIdsFound(database.Db(), q); };
    const std::vector<std::string> alfa = search("consignado alfa");
    ASSERT_EQ(alfa.size(), 1u);
    ASSERT_EQ(search("delta").size(), 1u);
    ASSERT_EQ(search("gama").size(), 1u);

    Snapshot next = BaseSnapshot();
    for (std::string& line : next.funds) {
        for (auto [from, to] :
             {std::pair<std::string, std::string>{"FIDC CRÉDITO CONSIGNADO ALFA", "FIDC RENOMEADO"},
              {"FIC FIDC DELTA", "FI DELTA"}}) {
            if (auto at = line.find(from); at != std::string::npos) {
                line.replace(at, from.size(), to);
            }
        }
        if (line.find(";FIC-FIDC;") != std::string::npos) {
            line.replace(line.find(";FIC-FIDC;"), 10, ";FI;");  // DELTA leaves the universe
        }
    }
    next.Fund({{"ID_Registro_Fundo", "1099"},
               {"CNPJ_Fundo", "99999999000191"},
               {"Tipo_Fundo", "FIDC"},
               {"Denominacao_Social", "FIDC NOVO ALFA"}});
    Ingest(database.Db(), WriteCsvs(database.Subdir("next"), next));

    EXPECT_TRUE(search("consignado alfa").empty());
    EXPECT_EQ(search("renomeado"), alfa);
    EXPECT_TRUE(search("delta").empty());
    EXPECT_EQ(search("novo alfa").size(), 1u);
    EXPECT_EQ(search("gama").size(), 1u);
    if (database.Db().id() == odb::id_sqlite) {
        // FTS5 checks its index against the search rows (throws when they differ).
        odb::transaction transaction(database.Db().begin());
        database.Db().execute("INSERT INTO funds_fund_search(funds_fund_search) VALUES ('integrity-check')");
        transaction.commit();
    }
}

// funds 15 (SQLite): a database whose trigram table is keyed by registry id and kept by triggers
// on funds_fund (funds 4 to 14) migrates to search rows in page order with the index over them;
// the old triggers go, searches answer as before, and the index follows the next re-ingest.
TEST(SearchIndexPaths, MigratingFromSchema14IndexesTheSearchRows) {
    FundsDatabase database;
    if (database.Db().id() != odb::id_sqlite) {
        GTEST_SKIP() << "the trigram table is SQLite's";
    }
    Ingest(database.Db(), WriteCsvs(database.Dir(), BaseSnapshot()));
    auto search = [&](const std::string& q) { return FundIdsFound(database.Db(), q); };
    const std::vector<std::string> alfa = search("consignado alfa");
    ASSERT_EQ(alfa.size(), 1u);
    {
        // funds 14's schema, as versions 4 and 12 left it.
        odb::transaction transaction(database.Db().begin());
        database.Db().execute("DROP TABLE funds_fund_search");
        database.Db().execute("DROP TABLE funds_fund_search_row");
        database.Db().execute(
            "CREATE VIRTUAL TABLE funds_fund_search USING fts5(search_text, manager, administrator, "
            "tokenize = 'trigram', detail = column)");
        database.Db().execute(
            "INSERT INTO funds_fund_search(rowid, search_text, manager, administrator) SELECT registry_id, "
            "search_text, manager_folded, administrator_folded FROM funds_fund WHERE fidc_universe");
        database.Db().execute(
            "CREATE TRIGGER funds_fund_search_insert AFTER INSERT ON funds_fund WHEN new.fidc_universe BEGIN"
            " INSERT INTO funds_fund_search(rowid, search_text, manager, administrator)"
            " VALUES (new.registry_id, new.search_text, new.manager_folded, new.administrator_folded); END");
        database.Db().execute(
            "CREATE TRIGGER funds_fund_search_delete AFTER DELETE ON funds_fund WHEN old.fidc_universe BEGIN"
            " DELETE FROM funds_fund_search WHERE rowid = old.registry_id; END");
        database.Db().execute("UPDATE schema_version SET version = 14 WHERE name = 'funds'");
        transaction.commit();
    }
    database.Db().schema_version_migration(14, false, "funds");  // the ingest read (and kept) 15
    {
        odb::transaction transaction(database.Db().begin());
        odb::schema_catalog::migrate(database.Db(), 15, "funds");  // as lastro db migrate does
        EXPECT_GT(sdk::RunSchemaSql(database.Db(), "funds", 14, 15), 0u);
        EXPECT_EQ(database.Db().schema_version("funds"), 15u);
        transaction.commit();
    }
    EXPECT_EQ(sdk::testing::AllRows<FundSearchRow>(database.Db()).size(), 4u);
    EXPECT_EQ(search("consignado alfa"), alfa);
    EXPECT_EQ(search("delta").size(), 1u);
    EXPECT_EQ(search("gama").size(), 1u);

    // A new fund: the old triggers, had they stayed, would fail its insert (the index has no
    // column `manager` now).
    Snapshot next = BaseSnapshot();
    next.Fund({{"ID_Registro_Fundo", "1099"},
               {"CNPJ_Fundo", "99999999000191"},
               {"Tipo_Fundo", "FIDC"},
               {"Denominacao_Social", "FIDC NOVO ALFA"}});
    Ingest(database.Db(), WriteCsvs(database.Subdir("next"), next));
    EXPECT_EQ(search("novo alfa").size(), 1u);
    EXPECT_EQ(search("alfa").size(), 2u);
    // FTS5 checks its index against the search rows it was built from (throws when they differ).
    odb::transaction transaction(database.Db().begin());
    database.Db().execute("INSERT INTO funds_fund_search(funds_fund_search) VALUES ('integrity-check')");
    transaction.commit();
}

}  // namespace
}  // namespace lastro::funds::testing
