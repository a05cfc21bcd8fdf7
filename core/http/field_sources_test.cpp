#include "core/http/field_sources.hpp"

#include <gtest/gtest.h>

namespace lastro::http {
namespace {

plugins::FieldSpec Field(const std::string& name, std::optional<std::string> source) {
    plugins::FieldSpec field;
    field.name = name;
    field.type = "string";
    field.source = std::move(source);
    return field;
}

TEST(FieldSourcesMember, NamesEveryFieldInManifestOrder) {
    plugins::OperationSpec op;
    op.response.fields = {Field("fund_id", "derived: UUIDv5 of registro_fundo.ID_Registro_Fundo"),
                          Field("cnpj", "registro_fundo.CNPJ_Fundo"),
                          Field("active", "derived: registro_fundo.Situacao = \"Em Funcionamento Normal\"")};
    op.response.fields[1].fields = {Field("nested", std::nullopt)};
    EXPECT_EQ(FieldSourcesMember(op),
              R"(,"field_sources":{"fund_id":"derived: UUIDv5 of registro_fundo.ID_Registro_Fundo",)"
              R"("cnpj":"registro_fundo.CNPJ_Fundo",)"
              R"("active":"derived: registro_fundo.Situacao = \"Em Funcionamento Normal\""})");
}

TEST(FieldSourcesMember, IsNothingWhenTheManifestDeclaresNoSource) {
    plugins::OperationSpec op;
    op.response.fields = {Field("query", std::nullopt), Field("funds", std::nullopt)};
    EXPECT_EQ(FieldSourcesMember(op), "");
    EXPECT_EQ(FieldSourcesMember(plugins::OperationSpec{}), "");
}

TEST(FieldSourcesMember, KeepsTextAsWritten) {
    plugins::OperationSpec op;
    op.response.fields = {Field("block_name", "derived: the CDA layout's name (Títulos Públicos)")};
    EXPECT_EQ(FieldSourcesMember(op),
              ",\"field_sources\":{\"block_name\":\"derived: the CDA layout's name (Títulos Públicos)\"}");
}

}  // namespace
}  // namespace lastro::http
