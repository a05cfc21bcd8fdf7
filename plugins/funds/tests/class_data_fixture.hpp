// Test support for the class-level endpoints of documents, ANBIMA subclasses and the CDA
// portfolio: the registry (ingested from real-format files, registry_fixture.hpp) extended with
// funds that exercise every identity case, model rows persisted as the ingesters write them,
// a host with a release for every dataset, and a check of response shapes against the
// `response.fields` that manifest.yaml declares.
#pragma once

#include "domain/rows/positive_segments.hpp"
#include "registry_fixture.hpp"

#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/uuid.hpp>

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <map>
#include <set>
#include <string>
#include <type_traits>

namespace lastro::funds::testing {

// CNPJs (valid check digits) of the extra registry entries.
inline constexpr const char* kMultiFundCnpj = "11122233000183";      // fund 1010: classes 2010, 2011
inline constexpr const char* kSeniorClassCnpj = "22233344000183";    // class 2010
inline constexpr const char* kJuniorClassCnpj = "33344455000183";    // class 2011
inline constexpr const char* kNoCnpjFundCnpj = "44455566000183";     // fund 1011: only class 2012, no CNPJ
inline constexpr const char* kClasslessFundCnpj = "55566677000183";  // fund 1012: no class
inline constexpr const char* kTwinFundCnpj = "66677788000183";       // fund 1013: only class 2013
inline constexpr const char* kTwinClassCnpj = "77788899000183";      // class 2013
inline constexpr const char* kOutsideCnpj = "88899900000163";        // in no registry entry

// The base snapshot plus funds whose CNPJs map to the registry in every way an invested CNPJ
// can: one class, a fund of several classes, an only class without a CNPJ of its own, a fund
// without classes, and an only class with a CNPJ other than its fund's.
inline Snapshot ClassDataSnapshot() {
    Snapshot s = BaseSnapshot();
    s.Fund({{"ID_Registro_Fundo", "1010"},
            {"CNPJ_Fundo", kMultiFundCnpj},
            {"Tipo_Fundo", "FIDC"},
            {"Denominacao_Social", "FIDC MULTICLASSE"},
            {"Situacao", "Em Funcionamento Normal"},
            {"Administrador", "ADMINISTRADORA MULTI"},
            {"Gestor", "GESTORA MULTI"}});
    s.Class({{"ID_Registro_Fundo", "1010"},
             {"ID_Registro_Classe", "2010"},
             {"CNPJ_Classe", kSeniorClassCnpj},
             {"Denominacao_Social", "CLASSE SÊNIOR MULTI"},
             {"Situacao", "Em Funcionamento Normal"},
             {"Classificacao_Anbima", "FIDC Fomento Mercantil"}});
    s.Class({{"ID_Registro_Fundo", "1010"},
             {"ID_Registro_Classe", "2011"},
             {"CNPJ_Classe", kJuniorClassCnpj},
             {"Denominacao_Social", "CLASSE SUBORDINADA MULTI"},
             {"Situacao", "Em Funcionamento Normal"}});
    s.Fund({{"ID_Registro_Fundo", "1011"},
            {"CNPJ_Fundo", kNoCnpjFundCnpj},
            {"Tipo_Fundo", "FIDC"},
            {"Denominacao_Social", "FIDC AGRO"},
            {"Situacao", "Em Funcionamento Normal"},
            {"Administrador", "ADMINISTRADORA AGRO"},
            {"Gestor", "GESTORA AGRO"}});
    s.Class({{"ID_Registro_Fundo", "1011"},
             {"ID_Registro_Classe", "2012"},
             {"Denominacao_Social", "CLASSE ÚNICA AGRO"},
             {"Situacao", "Em Funcionamento Normal"},
             {"Classificacao_Anbima", "FIDC Agro"}});
    s.Fund({{"ID_Registro_Fundo", "1012"},
            {"CNPJ_Fundo", kClasslessFundCnpj},
            {"Tipo_Fundo", "FIDC"},
            {"Denominacao_Social", "FIDC SEM CLASSES"},
            {"Situacao", "Fase Pré-Operacional"},
            {"Gestor", "GESTORA SEM CLASSES"}});
    s.Fund({{"ID_Registro_Fundo", "1013"},
            {"CNPJ_Fundo", kTwinFundCnpj},
            {"Tipo_Fundo", "FIDC"},
            {"Denominacao_Social", "FIDC GÊMEO"}});
    s.Class({{"ID_Registro_Fundo", "1013"},
             {"ID_Registro_Classe", "2013"},
             {"CNPJ_Classe", kTwinClassCnpj},
             {"Denominacao_Social", "CLASSE GÊMEA"}});
    return s;
}

// A release of every dataset of the plugin, labelled "release-of-<dataset>".
inline sdk::testing::FakeHost ClassDataHost() {
    sdk::testing::FakeHost host;
    for (const char* dataset : {"cvm.registro_fundo_classe", "cvm.inf_mensal_fidc", "cvm.cda_fi",
                                "cvm.eventual_fi", "anbima.subclasses"}) {
        host.SetRelease(
            {dataset, "release-of-" + std::string(dataset), "2026-08-17", "2026-08-18T03:00:00Z"});
    }
    return host;
}

// The host's parameters as the tests write them.
struct Param {
    std::string name;
    sdk::ParamValue value;
};

inline sdk::Params ParamsOf(const std::vector<Param>& given) {
    sdk::Params params;
    for (const Param& p : given) {
        params.Set(p.name, p.value);
    }
    return params;
}

inline sdk::Month MonthOf(const std::string& text) {
    auto month = sdk::Month::Parse(text);
    EXPECT_TRUE(month.has_value()) << text;
    return month.value_or(sdk::Month{2000, 1});
}

// Model rows with only their keys set; each test fills what it checks.
inline CdaHolder Holder(const std::string& cnpj, const std::string& month, std::optional<double> nav) {
    CdaHolder holder;
    holder.cnpj = cnpj;
    holder.month = month;
    holder.filer_type = "CLASSES - FIF";
    holder.nav = nav;
    return holder;
}

inline CdaPosition Position(const std::string& cnpj, const std::string& month, std::int64_t ordinal,
                            const std::string& block) {
    CdaPosition position;
    position.cnpj = cnpj;
    position.month = month;
    position.ordinal = ordinal;
    position.block = block;
    position.details_json = "{}";
    return position;
}

// A BLC_2 position in `invested_cnpj` worth `market_value`.
inline CdaPosition FundPosition(const std::string& cnpj, const std::string& month, std::int64_t ordinal,
                                const std::string& invested_cnpj, std::optional<double> market_value) {
    CdaPosition position = Position(cnpj, month, ordinal, "BLC_2");
    position.invested_cnpj = invested_cnpj;
    position.market_value = market_value;
    return position;
}

inline FundDocument Document(const std::string& id, const std::string& cnpj, const std::string& type,
                             const std::string& slug, std::optional<std::string> date) {
    FundDocument document;
    document.document_id = id;
    document.cnpj = cnpj;
    document.document_type = type;
    document.document_type_slug = slug;
    document.category = "other";
    document.document_date = date;
    if (date) {
        document.reference_year = std::stoll(date->substr(0, 4));
    }
    document.source_year = 2024;
    return document;
}

inline AnbimaSubclass Anbima(const std::string& code, const std::string& class_cnpj,
                             const std::string& fund_cnpj) {
    AnbimaSubclass subclass;
    subclass.subclass_id = sdk::UuidV5(kFundsNamespace, "anbima:" + code);
    subclass.anbima_code = code;
    subclass.class_cnpj = class_cnpj;
    subclass.fund_cnpj = fund_cnpj;
    return subclass;
}

inline FidcReport Report(const std::string& cnpj, const std::string& month) {
    FidcReport report;
    report.cnpj = cnpj;
    report.month = month;
    report.reference_date = month + "-28";
    report.layout = "fundo_classe";
    report.published_json = "{}";
    return report;
}

// The operation `id` of the plugin's manifest.
inline YAML::Node ManifestOperation(const std::string& id) {
    static const YAML::Node manifest =
        YAML::LoadFile(std::string(LASTRO_SOURCE_DIR) + "/plugins/funds/manifest.yaml");
    for (const YAML::Node& operation : manifest["operations"]) {
        if (operation["id"].as<std::string>() == id) {
            return operation;
        }
    }
    ADD_FAILURE() << "manifest.yaml has no operation " << id;
    return YAML::Node();
}

inline bool HasDeclaredType(const std::string& type, const boost::json::value& value) {
    if (type == "string" || type == "timestamp") {
        return value.is_string();
    }
    if (type == "date") {
        return value.is_string() && sdk::Date::Parse(value.get_string()).has_value();
    }
    if (type == "month") {
        return value.is_string() && sdk::Month::Parse(value.get_string()).has_value();
    }
    if (type == "uuid") {
        return value.is_string() && sdk::IsUuid(value.get_string());
    }
    if (type == "integer") {
        return value.is_int64() || value.is_uint64();
    }
    if (type == "number") {
        return value.is_number();
    }
    if (type == "boolean") {
        return value.is_bool();
    }
    if (type == "object") {
        return value.is_object();
    }
    if (type == "array") {
        return value.is_array();
    }
    return false;
}

// Every declared field is present with its type (null only when nullable), and nothing
// undeclared is returned; nested fields of objects and arrays alike.
inline void ExpectDeclaredFields(const YAML::Node& fields, const boost::json::object& item,
                                 const std::string& where) {
    std::set<std::string> declared;
    for (const YAML::Node& field : fields) {
        const std::string name = field["name"].as<std::string>();
        const std::string type = field["type"].as<std::string>();
        const bool nullable = field["nullable"] && field["nullable"].as<bool>();
        declared.insert(name);
        const boost::json::value* value = item.if_contains(name);
        if (!value) {
            ADD_FAILURE() << where << ": declared field " << name << " is missing";
            continue;
        }
        if (value->is_null()) {
            EXPECT_TRUE(nullable) << where << ": " << name << " is null but not declared nullable";
            continue;
        }
        EXPECT_TRUE(HasDeclaredType(type, *value))
            << where << ": " << name << " is not a " << type << ": " << boost::json::serialize(*value);
        if (!field["fields"]) {
            continue;
        }
        if (value->is_object()) {
            ExpectDeclaredFields(field["fields"], value->get_object(), where + "." + name);
        } else if (value->is_array()) {
            for (const boost::json::value& element : value->get_array()) {
                ASSERT_TRUE(element.is_object()) << where << "." << name << " holds a non-object";
                ExpectDeclaredFields(field["fields"], element.get_object(), where + "." + name + "[]");
            }
        }
    }
    for (const auto& member : item) {
        EXPECT_TRUE(declared.count(std::string(member.key())))
            << where << ": field " << member.key() << " is not declared in manifest.yaml";
    }
}

// The `source` of each top-level response field of operation `id` in manifest.yaml: what the
// host answers as meta.field_sources (core/http/field_sources.hpp).
inline std::map<std::string, std::string> DeclaredSources(const std::string& id) {
    std::map<std::string, std::string> sources;
    const YAML::Node operation = ManifestOperation(id);
    if (!operation) {
        return sources;
    }
    for (const YAML::Node& field : operation["response"]["fields"]) {
        if (field["source"]) {
            sources[field["name"].as<std::string>()] = field["source"].as<std::string>();
        }
    }
    return sources;
}

// Every field of `item` has its source declared in the manifest, and nothing else has one; the
// handler leaves meta.field_sources to the host, which answers it from those declarations.
inline void ExpectSourcesForEveryField(const std::string& id, const boost::json::object& item,
                                       const sdk::Meta& meta) {
    const std::map<std::string, std::string> sources = DeclaredSources(id);
    for (const auto& member : item) {
        auto it = sources.find(std::string(member.key()));
        EXPECT_TRUE(it != sources.end() && !it->second.empty())
            << id << ": manifest.yaml declares no source for " << member.key();
    }
    EXPECT_EQ(sources.size(), item.size()) << id << ": a source for a field the answer does not have";
    EXPECT_FALSE(meta.extra.contains("field_sources")) << id << ": the handler sets meta.field_sources";
}

// `data` has the shape operation `id` declares.
inline void ExpectManifestShape(const std::string& id, const boost::json::value& data) {
    const YAML::Node operation = ManifestOperation(id);
    ASSERT_TRUE(operation) << id;
    const YAML::Node response = operation["response"];
    if (response["shape"].as<std::string>() == "array") {
        ASSERT_TRUE(data.is_array()) << id;
        for (const boost::json::value& item : data.get_array()) {
            ASSERT_TRUE(item.is_object()) << id;
            ExpectDeclaredFields(response["fields"], item.get_object(), id);
        }
    } else {
        ASSERT_TRUE(data.is_object()) << id;
        ExpectDeclaredFields(response["fields"], data.get_object(), id);
    }
}

// A database holding the extended registry; rows of the other datasets are persisted by each test.
class ClassDataTest : public ::testing::Test {
protected:
    void SetUp() override { Ingest(Db(), WriteCsvs(database_.Dir(), ClassDataSnapshot())); }
    odb::database& Db() { return database_.Db(); }

    template <typename T>
    void Persist(T row) {
        odb::transaction transaction(Db().begin());
        Db().persist(row);
        if constexpr (std::is_same_v<T, FidcReport>) {
            // The ingester writes a report's positive segments with it
            // (domain/rows/positive_segments.hpp).
            if (auto segments = PositiveSegmentsOf(row.id, row.segments_json)) {
                Db().persist(*segments);
            }
        }
        transaction.commit();
    }

    sdk::Result Run(const sdk::Handler& handler, const std::vector<Param>& params,
                    const std::optional<boost::json::value>& position = std::nullopt) {
        return Call(handler, Db(), ParamsOf(params), position, host_);
    }

    FundsDatabase database_;
    sdk::testing::FakeHost host_ = ClassDataHost();
};

}  // namespace lastro::funds::testing
