#include "core/answering/csv_table.hpp"

#include <gtest/gtest.h>

#include <lastro/sdk/serving/json_text.hpp>

#include <boost/json/parse.hpp>

#include <string>

namespace lastro::answering {
namespace {

CsvTable Render(const std::string& json) {
    return RenderCsv(json);
}

TEST(CsvTableTest, NumbersKeepTheTextTheJsonHasThemIn) {
    // 17 significant digits, as a plugin's stored JSON may print them; a trailing zero; an exponent.
    const CsvTable csv =
        Render(R"([{"r":0.026058620407587354,"v":1.50,"e":1E-7,"list":[0.36548134289595813,"x"]}])");
    EXPECT_EQ(csv.text,
              "r,v,e,list\r\n0.026058620407587354,1.50,1E-7,\"[0.36548134289595813,\"\"x\"\"]\"\r\n");
}

TEST(CsvTableTest, TheRowsOfAnObjectAreTheMemberItNames) {
    const std::string data = R"({"indicator":"resumo","items":[{"month":"2026-08","n":3}],"warnings":[1]})";
    EXPECT_EQ(RenderCsv(data, "items").text, "month,n\r\n2026-08,3\r\n");
    EXPECT_THROW(RenderCsv(data, "coverage"), std::runtime_error);
    EXPECT_THROW(RenderCsv(data), std::runtime_error) << "an object is no rows";
    EXPECT_THROW(RenderCsv("[{\"a\":"), std::runtime_error) << "not JSON";
}

TEST(CsvTableTest, OneHeaderRowNamedAsTheFieldsThenOneRecordPerRow) {
    const CsvTable csv = Render(R"([{"cnpj":"00.000.000/0001-91","nome":"Fundo A","pl":1500.25},
                                    {"cnpj":"11.111.111/0001-11","nome":"Fundo B","pl":-3}])");
    EXPECT_EQ(csv.text,
              "cnpj,nome,pl\r\n"
              "00.000.000/0001-91,Fundo A,1500.25\r\n"
              "11.111.111/0001-11,Fundo B,-3\r\n");
    EXPECT_EQ(csv.rows, 2u);
}

TEST(CsvTableTest, NullIsAnEmptyFieldNeverZero) {
    const CsvTable csv = Render(R"([{"a":null,"b":0,"c":""}])");
    EXPECT_EQ(csv.text, "a,b,c\r\n,0,\r\n");
}

TEST(CsvTableTest, NestedObjectsAreFlattenedWithDotsAndArraysAreTheirJson) {
    const CsvTable csv =
        Render(R"([{"id":1,"gestor":{"cnpj":"x","endereco":{"uf":"SP"}},"tags":["a","b"],"vazio":{}}])");
    EXPECT_EQ(csv.text,
              "id,gestor.cnpj,gestor.endereco.uf,tags,vazio\r\n1,x,SP,\"[\"\"a\"\",\"\"b\"\"]\",{}\r\n");
}

TEST(CsvTableTest, ColumnsFollowTheOrderFieldsFirstAppearAndMissingOnesAreEmpty) {
    const CsvTable csv = Render(R"([{"a":1,"b":2},{"c":3,"a":4},{"b":5}])");
    EXPECT_EQ(csv.text, "a,b,c\r\n1,2,\r\n4,,3\r\n,5,\r\n");
}

TEST(CsvTableTest, FieldsWithCommasQuotesOrLineBreaksAreQuotedWithQuotesDoubled) {
    const CsvTable csv =
        Render(R"([{"nome":"Fundo \"A\", FIDC","obs":"linha 1\r\nlinha 2","ok":"sem aspas"}])");
    EXPECT_EQ(csv.text, "nome,obs,ok\r\n\"Fundo \"\"A\"\", FIDC\",\"linha 1\r\nlinha 2\",sem aspas\r\n");
}

TEST(CsvTableTest, NumbersAndBooleansAreAsTheJsonPrintsThemAndUtf8PassesThrough) {
    const CsvTable csv =
        Render(R"([{"taxa":0.000125,"grande":12345678901234,"ativo":true,"nome":"Crédito Ágil"}])");
    EXPECT_EQ(csv.text, "taxa,grande,ativo,nome\r\n0.000125,12345678901234,true,Crédito Ágil\r\n");
}

TEST(CsvTableTest, RowsThatAreNotObjectsFillOneValueColumn) {
    const CsvTable csv = Render(R"(["2024-01-31",null,3])");
    EXPECT_EQ(csv.text, "value\r\n2024-01-31\r\n\"\"\r\n3\r\n")
        << "a lone empty field is quoted, never a blank line";
    EXPECT_EQ(csv.rows, 3u);
}

TEST(CsvTableTest, NumbersReadBackAsTheAnswersJsonWroteThem) {
    // The answer's JSON is the SDK's writer's (docs/api.md, "Numbers"): its text parsed and
    // written again is the same text, so the CSV and the JSON of one answer print one number.
    boost::json::array rows;
    for (double number : {1156879.12, 1000000.0, 0.1, 1e-7, 2.5e16, -0.5}) {
        rows.push_back(boost::json::object{{"v", number}});
    }
    const std::string json = sdk::WriteJson(rows);
    const CsvTable csv = RenderCsv(json);
    ASSERT_EQ(csv.rows, rows.size());
    std::string records = csv.text.substr(csv.text.find("\r\n") + 2);
    for (std::size_t end; (end = records.find("\r\n")) != std::string::npos; records.erase(0, end + 2)) {
        const std::string field = records.substr(0, end);
        EXPECT_NE(json.find("{\"v\":" + field + "}"), std::string::npos) << field << " is not in " << json;
    }
    EXPECT_NE(csv.text.find("\r\n1156879.12\r\n1000000\r\n0.1\r\n"), std::string::npos) << csv.text;
}

TEST(CsvTableTest, NoRowsIsAnEmptyHeader) {
    const CsvTable csv = Render("[]");
    EXPECT_EQ(csv.text, "\r\n");
    EXPECT_EQ(csv.rows, 0u);
}

}  // namespace
}  // namespace lastro::answering
