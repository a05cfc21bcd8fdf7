// GET /v1/fundos (contract 2.4, 4.2): field types, filters, cursor paging and hostile input.
#include "funds_fixture.hpp"

#include <algorithm>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

namespace lastro::funds::e2e {
namespace {

const std::set<std::string> kFidcFamily = {"FIDC", "FIDC-NP", "FIC-FIDC"};

bool IsStringOrNull(const boost::json::value& v) {
    return v.is_string() || v.is_null();
}
bool IsDateOrNull(const boost::json::value& v) {
    return v.is_null() || (v.is_string() && IsIsoDate(v.get_string()));
}

// Every field of contract 2.4 with its type ("A missing value is null", 2.1, for the dates,
// the patrimony and the institution names).
::testing::AssertionResult IsFundItem(const boost::json::object& item) {
    std::vector<std::string> problems;
    auto need = [&](const char* key, bool ok) {
        if (!item.contains(key)) {
            problems.push_back(std::string(key) + " is missing");
        } else if (!ok) {
            problems.push_back(std::string(key) + " has the wrong type or format");
        }
    };
    auto get = [&](const char* key) -> const boost::json::value& {
        static const boost::json::value kMissing;
        const boost::json::value* v = item.if_contains(key);
        return v ? *v : kMissing;
    };
    need("fund_id", get("fund_id").is_string() && IsUuid(get("fund_id").get_string()));
    need("cvm_code", get("cvm_code").is_int64());
    need("cnpj", get("cnpj").is_string() && IsCnpjDigits(get("cnpj").get_string()));
    need("name", get("name").is_string());
    need("status", get("status").is_string());
    need("fund_type",
         get("fund_type").is_string() && kFidcFamily.count(std::string(get("fund_type").get_string())));
    need("manager", IsStringOrNull(get("manager")));
    need("administrator", IsStringOrNull(get("administrator")));
    for (const char* date :
         {"registered_at", "started_at", "cancelled_at", "ended_at", "fiscal_year_end_at"}) {
        need(date, IsDateOrNull(get(date)));
    }
    need("registered_patrimony_brl",
         get("registered_patrimony_brl").is_number() || get("registered_patrimony_brl").is_null());
    need("active", get("active").is_bool());
    need("classes", get("classes").is_array());
    if (get("classes").is_array()) {
        for (const auto& c : get("classes").get_array()) {
            const boost::json::object* o = c.if_object();
            const bool ok = o && o->contains("class_id") && o->at("class_id").is_string() &&
                            IsUuid(o->at("class_id").get_string()) && o->contains("cvm_code") &&
                            o->at("cvm_code").is_int64() && o->contains("cnpj") &&
                            o->at("cnpj").is_string() && o->contains("name") && o->at("name").is_string() &&
                            o->contains("status") && o->at("status").is_string();
            if (!ok) {
                problems.push_back("class " + boost::json::serialize(c) +
                                   " is not {class_id, cvm_code, cnpj, "
                                   "name, status} with their types");
            }
        }
    }
    if (problems.empty()) {
        return ::testing::AssertionSuccess();
    }
    auto failure = ::testing::AssertionFailure() << boost::json::serialize(item);
    for (const auto& p : problems) {
        failure << "\n  " << p;
    }
    return failure;
}

// What a user means by a partial, accent- and case-insensitive match on these fields.
bool Matches(const boost::json::object& item, const std::string& folded_needle,
             std::initializer_list<const char*> keys) {
    for (const char* key : keys) {
        const boost::json::value* v = item.if_contains(key);
        if (v && v->is_string() && Fold(v->get_string()).find(folded_needle) != std::string::npos) {
            return true;
        }
    }
    return false;
}

std::set<std::string> IdsWhere(const std::vector<boost::json::object>& items,
                               const std::function<bool(const boost::json::object&)>& keep) {
    std::set<std::string> ids;
    for (const auto& item : items) {
        if (keep(item)) {
            ids.insert(Str(item, "fund_id"));
        }
    }
    return ids;
}

std::vector<std::string> SplitCsvLine(std::string line) {
    if (!line.empty() && line.back() == '\r') {
        line.pop_back();
    }
    std::vector<std::string> fields;
    std::stringstream split(line);
    std::string field;
    for (int i = 0; i < 200 && std::getline(split, field, ';'); ++i) {
        if (field.size() >= 2 && field.front() == '"' && field.back() == '"') {
            field = field.substr(1, field.size() - 2);
        }
        fields.push_back(field);
    }
    return fields;
}

// From the sample's own registro_fundo.csv: the CNPJ of each ID_Registro_Fundo whose row is
// of the FIDC family. The first row of an id is the registration in force (a later row of the
// same id repeats an older, cancelled one).
std::map<std::string, std::string> FidcRegistryRows(const std::filesystem::path& csv) {
    std::ifstream in(csv, std::ios::binary);
    std::string line;
    std::getline(in, line);
    const std::vector<std::string> header = SplitCsvLine(line);
    auto column = [&](const std::string& name) {
        const auto it = std::find(header.begin(), header.end(), name);
        if (it == header.end()) {
            throw std::runtime_error(csv.string() + " has no column " + name);
        }
        return static_cast<std::size_t>(it - header.begin());
    };
    const std::size_t id = column("ID_Registro_Fundo"), cnpj = column("CNPJ_Fundo"),
                      type = column("Tipo_Fundo");
    std::map<std::string, std::pair<std::string, std::string>> first;  // id -> (cnpj, type)
    for (int n = 0; n < 1000000 && std::getline(in, line); ++n) {
        const std::vector<std::string> fields = SplitCsvLine(line);
        if (fields.size() > std::max({id, cnpj, type})) {
            first.emplace(fields[id], std::pair(fields[cnpj], fields[type]));
        }
    }
    std::map<std::string, std::string> rows;
    for (const auto& [registry_id, row] : first) {
        if (kFidcFamily.count(row.second)) {
            rows.emplace(registry_id, row.first);
        }
    }
    return rows;
}

TEST_P(ApiTest, EveryFundItemHasTheContractTypes) {
    const auto all = D().AllItems("/v1/fundos");
    ASSERT_FALSE(all.empty());
    for (const auto& item : all) {
        EXPECT_TRUE(IsFundItem(item));
    }
}

TEST_P(ApiTest, PagingReturnsEveryFidcExactlyOnce) {
    const std::string key = D().RoomyKey();
    std::vector<std::string> paged;
    std::optional<std::string> cursor;
    int pages = 0;
    for (; pages < 1000; ++pages) {
        HttpResponse r = D().Get("/v1/fundos?limit=7" + (cursor ? "&cursor=" + UrlEncode(*cursor) : ""), key);
        ASSERT_TRUE(IsEnvelope(r)) << "page " << pages;
        const boost::json::object body = AsObject(r.Json());
        const boost::json::array& data = At(body, "data").as_array();
        const boost::json::object& pagination = AsObject(At(AsObject(At(body, "meta")), "pagination"));
        EXPECT_EQ(At(pagination, "limit").as_int64(), 7);
        for (const auto& item : data) {
            paged.push_back(Str(AsObject(item), "fund_id"));
        }
        if (!At(pagination, "has_more").as_bool()) {
            EXPECT_TRUE(At(pagination, "next_cursor").is_null()) << r.body;
            EXPECT_LE(data.size(), 7u);
            break;
        }
        EXPECT_EQ(data.size(), 7u) << "a page before the last one is full";
        ASSERT_TRUE(At(pagination, "next_cursor").is_string()) << r.body;
        cursor = std::string(At(pagination, "next_cursor").get_string());
        EXPECT_LE(cursor->size(), 512u) << "contract 8: a cursor has at most 512 characters";
    }
    ASSERT_LT(pages, 1000) << "paging did not end";

    const std::set<std::string> unique(paged.begin(), paged.end());
    EXPECT_EQ(unique.size(), paged.size()) << "a fund was returned twice";
    const auto all = D().AllItems("/v1/fundos");
    EXPECT_EQ(unique, IdSet(all)) << "pages of 7 and pages of 100 disagree";

    // And the sample's own files say which funds are FIDCs.
    const auto registry = FidcRegistryRows(D().SampleDir() / "registro_fundo.csv");
    ASSERT_FALSE(registry.empty());
    EXPECT_EQ(paged.size(), registry.size())
        << "one fund per FIDC-family ID_Registro_Fundo of registro_fundo.csv";
    std::set<std::string> expected_cnpjs, cnpjs;
    for (const auto& [id, cnpj] : registry) {
        expected_cnpjs.insert(cnpj);
    }
    for (const auto& item : all) {
        cnpjs.insert(Str(item, "cnpj"));
    }
    EXPECT_EQ(cnpjs, expected_cnpjs);
}

TEST_P(ApiTest, QueryIgnoresAccentsAndCase) {
    const auto all = D().AllItems("/v1/fundos");
    const auto expected = IdsWhere(all, [](const auto& item) {
        return Matches(item, "credito", {"name", "cnpj", "manager", "administrator"});
    });
    ASSERT_FALSE(expected.empty()) << "the sample has funds about crédito";

    const auto found = D().AllItems("/v1/fundos", "q=credito");
    EXPECT_EQ(IdSet(found), expected);
    bool accented_name = false;
    for (const auto& item : found) {
        EXPECT_TRUE(kFidcFamily.count(Str(item, "fund_type"))) << boost::json::serialize(item);
        const std::string name = Str(item, "name");
        accented_name = accented_name || name.find("CRÉDITO") != std::string::npos ||
                        name.find("Crédito") != std::string::npos;
    }
    EXPECT_TRUE(accented_name) << "q=credito finds names written CRÉDITO or Crédito";

    EXPECT_EQ(IdSet(D().AllItems("/v1/fundos", "q=" + UrlEncode("CRÉDITO"))), expected)
        << "q=CRÉDITO (UTF-8)";
    EXPECT_EQ(IdSet(D().AllItems("/v1/fundos", "q=Cr%C3%A9dito")), expected) << "q=Crédito";
    EXPECT_EQ(IdSet(D().AllItems("/v1/fundos", "q=CREDITO")), expected);
}

TEST_P(ApiTest, CnpjFilterAcceptsPunctuation) {
    const auto all = D().AllItems("/v1/fundos");
    ASSERT_FALSE(all.empty());
    const std::string cnpj = Str(all.front(), "cnpj");
    const auto bare = D().AllItems("/v1/fundos", "cnpj=" + cnpj);
    const auto punctuated = D().AllItems("/v1/fundos", "cnpj=" + UrlEncode(PunctuatedCnpj(cnpj)));
    EXPECT_EQ(IdSet(bare), IdSet(punctuated));
    EXPECT_TRUE(IdSet(bare).count(Str(all.front(), "fund_id")));
    for (const auto& item : bare) {
        EXPECT_EQ(Str(item, "cnpj"), cnpj);
    }
    // q also matches CNPJs, punctuated or not.
    EXPECT_TRUE(IdSet(D().AllItems("/v1/fundos", "q=" + UrlEncode(PunctuatedCnpj(cnpj))))
                    .count(Str(all.front(), "fund_id")));
}

TEST_P(ApiTest, StatusFilterIsCaseInsensitive) {
    const auto all = D().AllItems("/v1/fundos");
    const auto normal = IdsWhere(
        all, [](const auto& item) { return Fold(Str(item, "status")) == "em funcionamento normal"; });
    ASSERT_FALSE(normal.empty());
    ASSERT_LT(normal.size(), all.size()) << "the sample has funds in other situations";
    EXPECT_EQ(IdSet(D().AllItems("/v1/fundos", "status=" + UrlEncode("em funcionamento normal"))), normal);
    EXPECT_EQ(IdSet(D().AllItems("/v1/fundos", "status=" + UrlEncode("EM FUNCIONAMENTO NORMAL"))), normal);
    EXPECT_EQ(IdSet(D().AllItems("/v1/fundos", "status=" + UrlEncode("Em Funcionamento Normal"))), normal);
    for (const auto& item : D().AllItems("/v1/fundos", "status=" + UrlEncode("em funcionamento normal"))) {
        EXPECT_TRUE(At(item, "active").as_bool()) << boost::json::serialize(item);
    }
}

TEST_P(ApiTest, ManagerAndAdministratorMatchPartOfTheName) {
    const auto all = D().AllItems("/v1/fundos");
    for (const char* field : {"manager", "administrator"}) {
        SCOPED_TRACE(field);
        // A word of the first fund's institution, without its accents and in lower case.
        std::optional<std::string> needle;
        std::string fund_id;
        for (const auto& item : all) {
            const boost::json::value& v = At(item, field);
            if (!v.is_string()) {
                continue;
            }
            std::istringstream words{std::string(v.get_string())};
            std::string word;
            for (int i = 0; i < 20 && words >> word; ++i) {
                if (word.size() >= 6) {
                    needle = Fold(word);
                    break;
                }
            }
            if (needle) {
                fund_id = Str(item, "fund_id");
                break;
            }
        }
        ASSERT_TRUE(needle) << "no " << field << " with a word of six letters";
        const auto wanted = IdsWhere(all, [&](const auto& item) { return Matches(item, *needle, {field}); });
        const auto found = IdSet(D().AllItems("/v1/fundos", std::string(field) + "=" + UrlEncode(*needle)));
        EXPECT_EQ(found, wanted) << field << "=" << *needle;
        EXPECT_TRUE(found.count(fund_id));
    }
}

TEST_P(ApiTest, CursorIsOpaqueSignedAndBoundToItsFilters) {
    const std::string key = D().RoomyKey();
    HttpResponse first = D().Get("/v1/fundos?q=credito&limit=2", key);
    ASSERT_TRUE(IsEnvelope(first));
    const boost::json::object first_body = AsObject(first.Json());
    const boost::json::object& pagination = AsObject(At(AsObject(At(first_body, "meta")), "pagination"));
    ASSERT_TRUE(At(pagination, "has_more").as_bool()) << first.body;
    const std::string cursor(At(pagination, "next_cursor").as_string());

    HttpResponse next = D().Get("/v1/fundos?q=credito&limit=2&cursor=" + UrlEncode(cursor), key);
    ASSERT_TRUE(IsEnvelope(next));
    const std::set<std::string> first_ids = DataIds(first);
    for (const auto& id : DataIds(next)) {
        EXPECT_FALSE(first_ids.count(id)) << id << " on both pages";
    }

    // The page size is not a filter: another limit may continue.
    EXPECT_TRUE(IsEnvelope(D().Get("/v1/fundos?q=credito&limit=5&cursor=" + UrlEncode(cursor), key)));

    std::string tampered = cursor;
    char& c = tampered[tampered.size() / 2];
    c = c == 'A' ? 'B' : 'A';
    HttpResponse altered = D().Get("/v1/fundos?q=credito&limit=2&cursor=" + UrlEncode(tampered), key);
    EXPECT_TRUE(IsProblem(altered, 400, kBaseUrl, "/v1/fundos", "cursor"));
    EXPECT_EQ(altered.IntHeader("X-Credits-Charged"), 0) << altered.Describe();

    HttpResponse other_filters = D().Get("/v1/fundos?q=fidc&limit=2&cursor=" + UrlEncode(cursor), key);
    EXPECT_TRUE(IsProblem(other_filters, 400, kBaseUrl, "/v1/fundos", "cursor"));
    EXPECT_EQ(other_filters.IntHeader("X-Credits-Charged"), 0) << other_filters.Describe();
    HttpResponse dropped_filter = D().Get("/v1/fundos?limit=2&cursor=" + UrlEncode(cursor), key);
    EXPECT_TRUE(IsProblem(dropped_filter, 400, kBaseUrl, "/v1/fundos", "cursor"));

    HttpResponse garbage = D().Get("/v1/fundos?cursor=not-a-cursor", key);
    EXPECT_TRUE(IsProblem(garbage, 400, kBaseUrl, "/v1/fundos", "cursor"));

    HttpResponse overlong = D().Get("/v1/fundos?q=credito&limit=2&cursor=" + std::string(513, 'A'), key);
    EXPECT_TRUE(IsProblem(overlong, 422, kBaseUrl, "/v1/fundos", "cursor"));
    EXPECT_EQ(overlong.IntHeader("X-Credits-Charged"), 0) << overlong.Describe();
}

TEST_P(ApiTest, HostileQueryTextIsHandled) {
    const std::string key = D().RoomyKey();
    const auto all = D().AllItems("/v1/fundos");
    // SQL and LIKE metacharacters are text: they match only themselves.
    for (const std::string q : {"' OR 1=1 --", "%", "_", "\\", "a%b", "\"; DROP TABLE fund; --"}) {
        SCOPED_TRACE(q);
        HttpResponse r = D().Get("/v1/fundos?limit=100&q=" + UrlEncode(q), key);
        ASSERT_TRUE(IsEnvelope(r));
        const std::set<std::string> found = DataIds(r);
        const std::string needle = Fold(q);
        EXPECT_EQ(found, IdsWhere(all, [&](const auto& item) {
                      return Matches(item, needle, {"name", "cnpj", "manager", "administrator"});
                  }));
    }
    // Invalid UTF-8, control characters, bad escapes and overlong text are invalid parameters.
    for (const std::string raw : {"%C3%28", "%FF", "%00", "a%00b", "%0A", "%1B%5B2J", "%7F", "%ZZ", "%"}) {
        SCOPED_TRACE(raw);
        HttpResponse r = D().Get("/v1/fundos?q=" + raw, key);
        EXPECT_TRUE(IsProblem(r, 422, kBaseUrl, "/v1/fundos", "q"));
        EXPECT_EQ(r.IntHeader("X-Credits-Charged"), 0) << r.Describe();
    }
    EXPECT_TRUE(
        IsProblem(D().Get("/v1/fundos?q=" + std::string(101, 'x'), key), 422, kBaseUrl, "/v1/fundos", "q"));
    // The limit counts characters, not bytes.
    EXPECT_TRUE(IsEnvelope(D().Get("/v1/fundos?q=" + std::string(100, 'x'), key)));
    std::string accents;
    for (int i = 0; i < 100; ++i) {
        accents += "%C3%A9";
    }
    EXPECT_TRUE(IsEnvelope(D().Get("/v1/fundos?q=" + accents, key))) << "100 characters in 200 bytes";
    EXPECT_TRUE(
        IsProblem(D().Get("/v1/fundos?q=" + accents + "%C3%A9", key), 422, kBaseUrl, "/v1/fundos", "q"));

    // A hostile path segment is only an invalid fund_id.
    const std::string traversal = "/v1/fundos/..%2F..%2Fetc%2Fpasswd/classes";
    HttpResponse r = D().Get(traversal, key);
    EXPECT_GE(r.status, 400) << r.Describe();
    EXPECT_LT(r.status, 500) << r.Describe();
    EXPECT_EQ(D().Get("/health").status, 200);
}

}  // namespace
}  // namespace lastro::funds::e2e
