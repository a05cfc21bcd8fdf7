#include "src/search.hpp"
#include "class_data_fixture.hpp"
#include "src/search_index.hpp"

#include <lastro/sdk/problem.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include "funds_model-odb.hxx"

#include <odb/exceptions.hxx>
#include <odb/schema-catalog.hxx>
#include <odb/transaction.hxx>

#include <lastro/sdk/schema_sql.hpp>

#include <set>
#include <utility>

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

TEST(SearchPatterns, EscapeLikeWildcards) {
    EXPECT_EQ(ContainsPattern("a%b_c\\d"), "%a\\%b\\_c\\\\d%");
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

// The text index (src/search_index.hpp) only finds candidates: every answer is the one the
// folded LIKE alone gives, for needles of every length (one and two characters have no trigram),
// wildcards, quotes, accents and CNPJ punctuation, alone and combined.
TEST_F(SearchTest, TheIndexAnswersWhatTheFoldedLikeAnswers) {
    auto by_like = [&](const std::string& column, const std::string& needle) {
        using Q = odb::query<Fund>;
        const std::string pattern = ContainsPattern(needle);
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

// Over enough funds that the trigram candidates outnumber what a page's walk reads (the walk in
// fund_id order then answers) and for a needle that matches few of them (the candidates answer),
// every page together is every match, once, in fund_id order.
TEST(SearchIndexPaths, DenseAndSparseNeedlesPageThroughEveryMatch) {
    FundsDatabase database;
    Snapshot s = BaseSnapshot();
    for (int i = 0; i < 60; ++i) {
        s.Fund({{"ID_Registro_Fundo", std::to_string(5000 + i)},
                {"CNPJ_Fundo", "12345678000195"},
                {"Tipo_Fundo", "FIDC"},
                {"Denominacao_Social", "FIDC DENSO " + std::to_string(i) + (i % 20 == 0 ? " RARO" : "")}});
    }
    Ingest(database.Db(), WriteCsvs(database.Dir(), s));
    auto pages = [&](const std::string& q, std::int64_t limit) {
        std::vector<std::string> seen;
        std::optional<boost::json::value> position;
        int guard = 0;
        do {
            sdk::Params params;
            params.Set("q", q);
            params.Set("limit", limit);
            const sdk::Result page = Call(&HandleSearch, database.Db(), params, position);
            for (const auto& item : page.data.as_array()) {
                seen.emplace_back(item.at("name").as_string());
            }
            position = page.meta.next_position;
        } while (position && ++guard < 100);
        return seen;
    };
    // limit 1: at most 8 candidates are read by registry id; 60 "denso" funds are more.
    EXPECT_EQ(pages("denso", 1).size(), 60u);
    EXPECT_EQ(pages("denso", 100).size(), 60u);
    EXPECT_EQ(pages("raro", 1).size(), 3u);
    EXPECT_EQ(pages("o 4", 2).size(), 11u);  // denso 4, denso 40 .. denso 49
    EXPECT_TRUE(pages("nada disso", 5).empty());
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
}

// A needle is looked up as the trigrams starting at every third character and the last one, each
// quoted (characters, not bytes; double quotes doubled); too short a needle, or one with a NUL,
// has none.
TEST(SearchIndexExpression, TheTrigramsThatCoverTheNeedle) {
    EXPECT_EQ(TrigramPhrase("search_text", "abc"), "search_text : (\"abc\")");
    EXPECT_EQ(TrigramPhrase("search_text", "abcd"), "search_text : (\"abc\" AND \"bcd\")");
    EXPECT_EQ(TrigramPhrase("manager", "credito"), "manager : (\"cre\" AND \"dit\" AND \"ito\")");
    EXPECT_EQ(TrigramPhrase("manager", "creditos"), "manager : (\"cre\" AND \"dit\" AND \"tos\")");
    EXPECT_EQ(TrigramPhrase("administrator", "ação x"),
              "administrator : (\"açã\" AND \"o x\")");  // six characters, eight bytes
    EXPECT_EQ(TrigramPhrase("search_text", "o\"neil"), "search_text : (\"o\"\"n\" AND \"eil\")");
    EXPECT_EQ(TrigramPhrase("search_text", "ab"), std::nullopt);
    EXPECT_EQ(TrigramPhrase("search_text", "çã"), std::nullopt);  // four bytes, two characters
    EXPECT_EQ(TrigramPhrase("search_text", std::string("ab\0cd", 5)), std::nullopt);
}

// funds 12 (SQLite): a database whose trigram table keeps positions (funds 4 to 11) migrates to one
// without them (detail=column), filled from the registry it holds, and searches answer as before;
// the migration also creates the screening ranking's index and table.
TEST(SearchIndexPaths, MigratingFromSchema11RebuildsTheIndexWithoutPositions) {
    FundsDatabase database;
    if (database.Db().id() != odb::id_sqlite) {
        GTEST_SKIP() << "the trigram table is SQLite's";
    }
    Ingest(database.Db(), WriteCsvs(database.Dir(), BaseSnapshot()));
    auto search = [&](const std::string& q) { return FundIdsFound(database.Db(), q); };
    const std::vector<std::string> alfa = search("consignado alfa");
    ASSERT_EQ(alfa.size(), 1u);
    // A phrase needs the trigrams' positions: a table without them refuses it.
    auto keeps_positions = [&] {
        odb::transaction transaction(database.Db().begin());
        bool answered = true;
        try {
            for (const FundSearchMatch& match :
                 database.Db().query<FundSearchMatch>("funds_fund_search MATCH 'search_text : \"alfa\"'")) {
                static_cast<void>(match);
            }
        } catch (const odb::database_exception&) {
            answered = false;
        }
        transaction.rollback();
        return answered;
    };
    EXPECT_FALSE(keeps_positions());
    {
        odb::transaction transaction(database.Db().begin());
        database.Db().execute("DROP TABLE funds_fund_search");
        database.Db().execute(
            "CREATE VIRTUAL TABLE funds_fund_search USING fts5(search_text, manager, administrator, "
            "tokenize = 'trigram')");
        database.Db().execute(
            "INSERT INTO funds_fund_search(rowid, search_text, manager, administrator) SELECT registry_id, "
            "search_text, manager_folded, administrator_folded FROM funds_fund WHERE fidc_universe");
        database.Db().execute("DROP INDEX funds_screening_row_rank_i");  // funds 12's other changes
        database.Db().execute("DROP TABLE funds_screening_ranking");
        database.Db().execute("UPDATE schema_version SET version = 11 WHERE name = 'funds'");
        transaction.commit();
    }
    ASSERT_TRUE(keeps_positions());
    database.Db().schema_version_migration(11, false, "funds");  // the ingest read (and kept) 12
    {
        odb::transaction transaction(database.Db().begin());
        odb::schema_catalog::migrate(database.Db(), 12, "funds");  // as lastro db migrate does
        EXPECT_GT(sdk::RunSchemaSql(database.Db(), "funds", 11, 12), 0u);
        EXPECT_EQ(database.Db().schema_version("funds"), 12u);
        transaction.commit();
    }
    EXPECT_FALSE(keeps_positions());
    EXPECT_EQ(search("consignado alfa"), alfa);
    EXPECT_EQ(search("delta").size(), 1u);
    EXPECT_EQ(search("gama").size(), 1u);
}

}  // namespace
}  // namespace lastro::funds::testing
