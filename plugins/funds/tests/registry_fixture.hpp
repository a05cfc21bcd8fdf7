// Test support for the funds plugin: registry files written in CVM's real format (ISO-8859-1,
// ';', real headers), a real database with the funds schema (the SDK test kit's plugin
// database), and the one fake the tests allow: a host whose latest release is fixed.
#pragma once

#include "domain/registry/registry_rules.hpp"
#include "funds_model-odb.hxx"
#include "funds_model.hxx"
#include "ingest/registro_fundo_classe/registry_ingester.hpp"
#include "layouts/registro_fundo_classe.hpp"

#include <lastro/sdk/plugin.hpp>
#include <lastro/sdk/testing/fake_host.hpp>
#include <lastro/sdk/testing/plugin_calls.hpp>
#include <lastro/sdk/testing/plugin_database.hpp>
#include <lastro/sdk/text.hpp>
#include <lastro/sdk/zip_archive.hpp>

#include <gtest/gtest.h>
#include <boost/json/value.hpp>
#include <odb/database.hxx>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lastro::funds::testing {

namespace fs = std::filesystem;

// The published headers (layouts/registro_fundo_classe.hpp).
inline const std::vector<std::string> kFundHeader(kFundColumns.begin(), kFundColumns.end());
inline const std::vector<std::string> kClassHeader(kClassColumns.begin(), kClassColumns.end());
inline const std::vector<std::string> kSubclassHeader(kSubclassColumns.begin(), kSubclassColumns.end());

using Fields = std::map<std::string, std::string>;

// One CSV line (UTF-8) in `header` order; columns not given are empty.
inline std::string Line(const std::vector<std::string>& header, const Fields& fields) {
    std::string line;
    std::size_t used = 0;
    for (std::size_t i = 0; i < header.size(); ++i) {
        if (i > 0) {
            line += ';';
        }
        if (auto it = fields.find(header[i]); it != fields.end()) {
            line += it->second;
            ++used;
        }
    }
    EXPECT_EQ(used, fields.size()) << "a field name is not in the header: " << line;
    return line;
}

inline std::string Join(const std::vector<std::string>& header) {
    std::string line;
    for (const std::string& column : header) {
        line += (line.empty() ? "" : ";") + column;
    }
    return line;
}

// A registry snapshot as text lines (UTF-8); written as ISO-8859-1 with CRLF, like CVM.
struct Snapshot {
    std::vector<std::string> funds{Join(kFundHeader)};
    std::vector<std::string> classes{Join(kClassHeader)};
    std::vector<std::string> subclasses{Join(kSubclassHeader)};

    void Fund(const Fields& fields) { funds.push_back(Line(kFundHeader, fields)); }
    void Class(const Fields& fields) { classes.push_back(Line(kClassHeader, fields)); }
    void Subclass(const Fields& fields) { subclasses.push_back(Line(kSubclassHeader, fields)); }

    static std::string Bytes(const std::vector<std::string>& lines) {
        std::string text;
        for (const std::string& line : lines) {
            text += line + "\r\n";
        }
        return sdk::Utf8ToLatin1(text);
    }
};

// The fixture registry (line numbers matter to the duplicate and rejection tests):
//   funds  line 2  1001 FIDC, two classes, accents, Em Funcionamento Normal
//          line 3  1002 FIDC-NP, empty Patrimonio_Liquido and dates
//          line 4  1003 FIC-FIDC, cancelled
//          line 5  1004 FI (outside the FIDC universe), "CRÉDITO PRIVADO" in its name
//          line 6  1002 again, cancelled and older: loses to line 3
//          line 7  1005 invalid CNPJ (rejected)
//          line 8  1006 "FIC FIDC" spelling, no Codigo_CVM, pre-operational
//          line 9  1007 bad date (rejected)
//          line 10 1008 non-numeric Patrimonio_Liquido (rejected)
//          line 11 1009 wrong field count (rejected)
//   classes 2001 (CNPJ = fund 1001's), 2002 (own CNPJ), 2003, 2004 (cancelled), 2005, 2006 (fund
//           1004, CNPJ of fund 1006: an ambiguous locator), unknown fund 9999 (rejected), class of
//           the rejected fund 1005 (rejected)
//   subclasses SUB001 and SUB002 of 2001, one of unknown class 9998 (rejected)
inline Snapshot BaseSnapshot() {
    Snapshot s;
    s.Fund({{"ID_Registro_Fundo", "1001"},
            {"CNPJ_Fundo", "12345678000195"},
            {"Codigo_CVM", "5001"},
            {"Data_Registro", "2020-01-10"},
            {"Data_Constituicao", "2020-01-05"},
            {"Tipo_Fundo", "FIDC"},
            {"Denominacao_Social", "FIDC CRÉDITO CONSIGNADO ALFA"},
            {"Situacao", "Em Funcionamento Normal"},
            {"Data_Inicio_Situacao", "2020-01-10"},
            {"Data_Adaptacao_RCVM175", "2023-11-01"},
            {"Data_Inicio_Exercicio_Social", "2024-01-01"},
            {"Data_Fim_Exercicio_Social", "2024-12-31"},
            {"Patrimonio_Liquido", "20471867.51"},
            {"Data_Patrimonio_Liquido", "2024-06-30"},
            {"Diretor", "João da Silva"},
            {"CNPJ_Administrador", "11111111000191"},
            {"Administrador", "ADMINISTRADORA BETA S.A."},
            {"Tipo_Pessoa_Gestor", "PJ"},
            {"CPF_CNPJ_Gestor", "22222222000191"},
            {"Gestor", "GESTORA AÇÃO LTDA"}});
    s.Fund({{"ID_Registro_Fundo", "1002"},
            {"CNPJ_Fundo", "33333333000191"},
            {"Codigo_CVM", "5002"},
            {"Data_Registro", "2019-05-01"},
            {"Tipo_Fundo", "FIDC-NP"},
            {"Denominacao_Social", "FUNDO DE INVESTIMENTO EM DIREITOS CREDITÓRIOS NÃO PADRONIZADOS GAMA"},
            {"Situacao", "Em Funcionamento Normal"},
            {"Administrador", "ADMINISTRADORA BETA S.A."},
            {"Tipo_Pessoa_Gestor", "PF"},
            {"CPF_CNPJ_Gestor", "12345678909"},
            {"Gestor", "Gestora Ômega"}});
    s.Fund({{"ID_Registro_Fundo", "1003"},
            {"CNPJ_Fundo", "44444444000191"},
            {"Codigo_CVM", "5003"},
            {"Data_Registro", "2015-03-01"},
            {"Data_Constituicao", "2015-02-01"},
            {"Tipo_Fundo", "FIC-FIDC"},
            {"Denominacao_Social", "FIC FIDC DELTA"},
            {"Data_Cancelamento", "2022-08-31"},
            {"Situacao", "Cancelado"},
            {"Data_Inicio_Situacao", "2022-08-31"},
            {"Administrador", "ADMINISTRADORA ZETA"},
            {"Gestor", "GESTORA ZETA"}});
    s.Fund({{"ID_Registro_Fundo", "1004"},
            {"CNPJ_Fundo", "55555555000191"},
            {"Codigo_CVM", "5004"},
            {"Data_Registro", "2018-01-01"},
            {"Tipo_Fundo", "FI"},
            {"Denominacao_Social", "FI RENDA FIXA CRÉDITO PRIVADO EPSILON"},
            {"Situacao", "Em Funcionamento Normal"},
            {"Administrador", "ADMINISTRADORA BETA S.A."},
            {"Gestor", "GESTORA AÇÃO LTDA"}});
    s.Fund({{"ID_Registro_Fundo", "1002"},
            {"CNPJ_Fundo", "33333333000191"},
            {"Codigo_CVM", "4002"},
            {"Data_Registro", "2010-01-01"},
            {"Tipo_Fundo", "FIDC-NP"},
            {"Denominacao_Social", "FIDC NP GAMA (REGISTRO ANTIGO)"},
            {"Data_Cancelamento", "2019-04-30"},
            {"Situacao", "Cancelado"}});
    s.Fund({{"ID_Registro_Fundo", "1005"},
            {"CNPJ_Fundo", "12345678000100"},
            {"Tipo_Fundo", "FIDC"},
            {"Denominacao_Social", "FIDC CNPJ ERRADO"}});
    s.Fund({{"ID_Registro_Fundo", "1006"},
            {"CNPJ_Fundo", "66666666000191"},
            {"Data_Registro", "2024-02-01"},
            {"Tipo_Fundo", "FIC FIDC"},
            {"Denominacao_Social", "FIC DE FIDC SEM CÓDIGO"},
            {"Situacao", "Fase Pré-Operacional"},
            {"Administrador", "Administradora 100% Digital"},
            {"Gestor", "GESTORA_UNDERSCORE"}});
    s.Fund({{"ID_Registro_Fundo", "1007"},
            {"CNPJ_Fundo", "77777777000191"},
            {"Data_Registro", "2020/01/01"},
            {"Tipo_Fundo", "FIDC"}});
    s.Fund({{"ID_Registro_Fundo", "1008"},
            {"CNPJ_Fundo", "88888888000191"},
            {"Tipo_Fundo", "FIDC"},
            {"Patrimonio_Liquido", "1.234,56"}});
    s.funds.push_back("1009;99999999000191;5009;2020-01-01;2020-01-01;FIDC;CURTA");

    Fields class_2001{{"ID_Registro_Fundo", "1001"},
                      {"ID_Registro_Classe", "2001"},
                      {"CNPJ_Classe", "12345678000195"},
                      {"Codigo_CVM", "6001"},
                      {"Data_Registro", "2023-11-01"},
                      {"Data_Constituicao", "2020-01-05"},
                      {"Data_Inicio", "2020-02-01"},
                      {"Tipo_Classe", "Classes de Cotas de Fundos FIDC"},
                      {"Denominacao_Social", "CLASSE ÚNICA SÊNIOR ALFA"},
                      {"Situacao", "Em Funcionamento Normal"},
                      {"Data_Inicio_Situacao", "2023-11-01"},
                      {"Classificacao", "Multicarteira"},
                      {"Classe_Cotas", "N"},
                      {"Forma_Condominio", "Fechado"},
                      {"Exclusivo", "N"},
                      {"Publico_Alvo", "Profissional"},
                      {"Patrimonio_Liquido", "15000000.25"},
                      {"Data_Patrimonio_Liquido", "2024-06-30"},
                      {"CNPJ_Auditor", "13131313000120"},
                      {"Auditor", "AUDITORIA ÉPSILON"},
                      {"CNPJ_Custodiante", "12.121.212/0001-06"},
                      {"Custodiante", "CUSTÓDIA SA"}};
    s.Class(class_2001);
    s.Class({{"ID_Registro_Fundo", "1001"},
             {"ID_Registro_Classe", "2002"},
             {"CNPJ_Classe", "77777777000191"},
             {"Codigo_CVM", "6002"},
             {"Data_Registro", "2023-12-01"},
             {"Denominacao_Social", "CLASSE MEZANINO ALFA"},
             {"Situacao", "Em Funcionamento Normal"}});
    s.Class({{"ID_Registro_Fundo", "1002"},
             {"ID_Registro_Classe", "2003"},
             {"CNPJ_Classe", "33333333000191"},
             {"Codigo_CVM", "6003"},
             {"Denominacao_Social", "CLASSE GAMA"},
             {"Situacao", "Em Funcionamento Normal"}});
    s.Class({{"ID_Registro_Fundo", "1003"},
             {"ID_Registro_Classe", "2004"},
             {"CNPJ_Classe", "44444444000191"},
             {"Codigo_CVM", "6004"},
             {"Data_Registro", "2015-03-01"},
             {"Denominacao_Social", "CLASSE DELTA"},
             {"Situacao", "Cancelada"},
             {"Data_Inicio_Situacao", "2022-08-31"}});
    s.Class({{"ID_Registro_Fundo", "1004"},
             {"ID_Registro_Classe", "2005"},
             {"CNPJ_Classe", "55555555000191"},
             {"Codigo_CVM", "6005"},
             {"Denominacao_Social", "CLASSE EPSILON"},
             {"Situacao", "Em Funcionamento Normal"}});
    s.Class({{"ID_Registro_Fundo", "1004"},
             {"ID_Registro_Classe", "2006"},
             {"CNPJ_Classe", "66666666000191"},
             {"Codigo_CVM", "6006"},
             {"Denominacao_Social", "CLASSE EPSILON II"},
             {"Situacao", "Em Funcionamento Normal"}});
    s.Class(
        {{"ID_Registro_Fundo", "9999"}, {"ID_Registro_Classe", "2007"}, {"CNPJ_Classe", "10101010000177"}});
    s.Class(
        {{"ID_Registro_Fundo", "1005"}, {"ID_Registro_Classe", "2008"}, {"CNPJ_Classe", "20202020000152"}});

    s.Subclass({{"ID_Registro_Classe", "2001"},
                {"ID_Subclasse", "SUB001"},
                {"Codigo_CVM", "7001"},
                {"Data_Constituicao", "2020-01-05"},
                {"Denominacao_Social", "SUBCLASSE SÊNIOR 1"},
                {"Situacao", "Em Funcionamento Normal"},
                {"Previdenciario", "N"}});
    s.Subclass({{"ID_Registro_Classe", "2001"},
                {"ID_Subclasse", "SUB002"},
                {"Codigo_CVM", "7002"},
                {"Denominacao_Social", "SUBCLASSE SUBORDINADA"},
                {"Situacao", "Em Funcionamento Normal"}});
    s.Subclass({{"ID_Registro_Classe", "9998"}, {"ID_Subclasse", "SUB003"}, {"Codigo_CVM", "7003"}});
    return s;
}

// Rows the base snapshot keeps: funds 1001 1002 1003 1004 1006, six classes, two subclasses.
inline constexpr std::size_t kBaseKept = 5 + 6 + 2;
inline constexpr std::size_t kBaseRead = 10 + 8 + 3;

// 2026-08-17 12:00 local time: zip times are local wall-clock times.
inline std::time_t SnapshotTime() {
    std::tm parts{};
    parts.tm_year = 2026 - 1900;
    parts.tm_mon = 7;
    parts.tm_mday = 17;
    parts.tm_hour = 12;
    parts.tm_isdst = -1;
    return std::mktime(&parts);
}

using sdk::testing::AllRows;
using sdk::testing::RecordingProgress;
using sdk::testing::TempDir;
using sdk::testing::WriteFile;

// The three CSV files of `snapshot` in `dir`, with the snapshot time as their mtime.
inline std::vector<fs::path> WriteCsvs(const fs::path& dir, const Snapshot& snapshot) {
    std::vector<fs::path> paths = {dir / "registro_subclasse.csv", dir / "registro_fundo.csv",
                                   dir / "registro_classe.csv"};
    WriteFile(paths[0], Snapshot::Bytes(snapshot.subclasses));
    WriteFile(paths[1], Snapshot::Bytes(snapshot.funds));
    WriteFile(paths[2], Snapshot::Bytes(snapshot.classes));
    const auto time = std::chrono::clock_cast<std::chrono::file_clock>(
        std::chrono::system_clock::from_time_t(SnapshotTime()));
    for (const fs::path& path : paths) {
        fs::last_write_time(path, time);
    }
    return paths;
}

inline fs::path WriteZip(const fs::path& dir, const Snapshot& snapshot) {
    const fs::path path = dir / "registro_fundo_classe.zip";
    sdk::ZipWriter zip(path);
    zip.Add("registro_fundo.csv", Snapshot::Bytes(snapshot.funds), SnapshotTime() - 3600);
    zip.Add("registro_classe.csv", Snapshot::Bytes(snapshot.classes), SnapshotTime());
    zip.Add("registro_subclasse.csv", Snapshot::Bytes(snapshot.subclasses), SnapshotTime() - 7200);
    zip.Close();
    return path;
}

// The funds schema in a database of its own, with a scratch directory for input files: SQLite,
// or PostgreSQL with LASTRO_TEST_BACKEND=postgres (the test kit's plugin database), so the same
// tests check the queries on both backends.
// docs/plugins.md quotes from here: plugin-database
class FundsDatabase : public sdk::testing::PluginDatabase {
public:
    FundsDatabase() : PluginDatabase("funds") {}
};
// docs/plugins.md quotes up to here

// The fixture of the ingester tests: a database of their own.
class ScratchDatabaseTest : public ::testing::Test {
protected:
    odb::database& Db() { return database_.Db(); }
    // A subdirectory of the scratch directory, created on first use.
    fs::path Dir(const std::string& name) { return database_.Subdir(name); }

    // `ingest()` throws an IngestError whose message contains `expected`, and `dump()` (a
    // rendering of every stored row) is the same after it as before: nothing was half-written.
    template <typename Ingest, typename Dump>
    void ExpectRejectedUnchanged(Ingest ingest, Dump dump, const std::string& expected) {
        const auto before = dump();
        try {
            ingest();
            ADD_FAILURE() << "the ingest succeeded; expected: " << expected;
        } catch (const sdk::IngestError& error) {
            EXPECT_NE(std::string(error.what()).find(expected), std::string::npos)
                << error.what() << "\ndoes not contain: " << expected;
        }
        EXPECT_EQ(dump(), before);
    }

    FundsDatabase database_;
};

// docs/plugins.md quotes from here: host-runs
// Runs the registry ingester in one write transaction, as the host does.
inline sdk::IngestSummary Ingest(odb::database& db, const std::vector<fs::path>& inputs,
                                 sdk::IngestProgress* progress = nullptr) {
    RegistryIngester ingester;
    return sdk::testing::RunIngest(ingester, db, std::string(kRegistryDataset), inputs, SnapshotTime(),
                                   progress);
}

// A host whose registry has its release of the base snapshot, or (false) no release at all.
inline sdk::testing::FakeHost RegistryHost(bool has_release = true) {
    sdk::testing::FakeHost host;
    if (has_release) {
        host.SetRelease(
            {std::string(kRegistryDataset), "registro-2026-08-17", "2026-08-17", "2026-08-18T03:00:00Z"});
    }
    return host;
}

// Calls a handler inside a read transaction, as the host does.
inline sdk::Result Call(const sdk::Handler& handler, odb::database& db, const sdk::Params& params,
                        const std::optional<boost::json::value>& position = std::nullopt,
                        const sdk::Host& host = RegistryHost()) {
    return sdk::testing::CallHandler(handler, db, params, host, position, "funds.test");
}
// docs/plugins.md quotes up to here

// Base fixture: a database holding the base snapshot.
class RegistryTest : public ::testing::Test {
protected:
    void SetUp() override { summary_ = Ingest(Db(), WriteCsvs(database_.Dir(), BaseSnapshot())); }
    odb::database& Db() { return database_.Db(); }

    FundsDatabase database_;
    sdk::IngestSummary summary_;
};

}  // namespace lastro::funds::testing
