#include "core/sample/sample.hpp"

#include "core/sample/csv_test_support.hpp"

#include <lastro/sdk/byte_source.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/text.hpp>
#include <lastro/sdk/zip_archive.hpp>

#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace lastro::sample {
namespace {

namespace fs = std::filesystem;
using testing::ParsedCsv;
using testing::ParseLatin1Csv;

// Copied from FORMATS.md §2.1, independently of the generator's own constants.
constexpr std::string_view kFundHeader =
    "ID_Registro_Fundo;CNPJ_Fundo;Codigo_CVM;Data_Registro;Data_Constituicao;Tipo_Fundo;Denominacao_Social;"
    "Data_Cancelamento;Situacao;Data_Inicio_Situacao;Data_Adaptacao_RCVM175;Data_Inicio_Exercicio_Social;"
    "Data_Fim_Exercicio_Social;Patrimonio_Liquido;Data_Patrimonio_Liquido;Diretor;CNPJ_Administrador;"
    "Administrador;Tipo_Pessoa_Gestor;CPF_CNPJ_Gestor;Gestor";
constexpr std::string_view kClassHeader =
    "ID_Registro_Fundo;ID_Registro_Classe;CNPJ_Classe;Codigo_CVM;Data_Registro;Data_Constituicao;Data_Inicio;"
    "Tipo_Classe;Denominacao_Social;Situacao;Data_Inicio_Situacao;Classificacao;Indicador_Desempenho;"
    "Classe_Cotas;Classificacao_Anbima;Tributacao_Longo_Prazo;Entidade_Investimento;"
    "Permitido_Aplicacao_CemPorCento_Exterior;Classe_ESG;Forma_Condominio;Exclusivo;Publico_Alvo;"
    "Patrimonio_Liquido;Data_Patrimonio_Liquido;CNPJ_Auditor;Auditor;CNPJ_Custodiante;Custodiante;"
    "CNPJ_Controlador;Controlador";
constexpr std::string_view kSubclassHeader =
    "ID_Registro_Classe;ID_Subclasse;Codigo_CVM;Data_Constituicao;Data_Inicio;Denominacao_Social;Situacao;"
    "Data_Inicio_Situacao;Forma_Condominio;Exclusivo;Publico_Alvo;Previdenciario;Exclusivo_INR;"
    "Exclusivo_Previdencia_Complementar";

const std::vector<std::string> kCsvNames{"registro_fundo.csv", "registro_classe.csv",
                                         "registro_subclasse.csv"};

std::string ReadBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

std::string ReadAll(sdk::ByteSource& source) {
    std::string bytes;
    char buffer[4096];
    while (const std::size_t n = source.Read(buffer, sizeof buffer)) {
        bytes.append(buffer, n);
    }
    return bytes;
}

fs::path FreshDir(const std::string& name) {
    const fs::path dir =
        fs::temp_directory_path() / ("lastro-sample-test-" + std::to_string(::getpid())) / name;
    fs::remove_all(dir);
    return dir;
}

class SampleFilesTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        dir_ = new fs::path(FreshDir("default"));
        report_ = new SampleReport(WriteSample({*dir_, kDefaultSeed}));
        files_ = new std::map<std::string, std::string>;
        for (const std::string& name : kCsvNames) {
            (*files_)[name] = ReadBytes(*dir_ / name);
        }
    }
    static void TearDownTestSuite() {
        fs::remove_all(dir_->parent_path());
        delete files_;
        delete report_;
        delete dir_;
    }
    // const char*, not std::string: a temporary argument makes GCC warn about the reference.
    static const std::string& Bytes(const char* name) { return files_->at(name); }
    static ParsedCsv Csv(const char* name) { return ParseLatin1Csv(Bytes(name)); }

    static fs::path* dir_;
    static SampleReport* report_;
    static std::map<std::string, std::string>* files_;
};

fs::path* SampleFilesTest::dir_ = nullptr;
SampleReport* SampleFilesTest::report_ = nullptr;
std::map<std::string, std::string>* SampleFilesTest::files_ = nullptr;

TEST_F(SampleFilesTest, ReportNamesEveryFileWritten) {
    ASSERT_EQ(report_->files.size(), 4u);
    EXPECT_EQ(report_->files[0], *dir_ / "registro_fundo.csv");
    EXPECT_EQ(report_->files[1], *dir_ / "registro_classe.csv");
    EXPECT_EQ(report_->files[2], *dir_ / "registro_subclasse.csv");
    EXPECT_EQ(report_->files[3], *dir_ / "registro_fundo_classe.zip");
    for (const fs::path& file : report_->files) {
        EXPECT_TRUE(fs::is_regular_file(file)) << file;
    }
    EXPECT_EQ(report_->funds, 300u);
    EXPECT_EQ(Csv("registro_fundo.csv").rows.size(), report_->funds + 1);  // + the superseded row
    EXPECT_EQ(Csv("registro_classe.csv").rows.size(), report_->classes);
    EXPECT_EQ(Csv("registro_subclasse.csv").rows.size(), report_->subclasses);
    EXPECT_GT(report_->subclasses, 30u);
}

TEST_F(SampleFilesTest, HeadersAreTheRealColumnLists) {
    EXPECT_EQ(Csv("registro_fundo.csv").header_line, kFundHeader);
    EXPECT_EQ(Csv("registro_classe.csv").header_line, kClassHeader);
    EXPECT_EQ(Csv("registro_subclasse.csv").header_line, kSubclassHeader);
    EXPECT_EQ(Csv("registro_fundo.csv").header.size(), 21u);
    EXPECT_EQ(Csv("registro_classe.csv").header.size(), 30u);
    EXPECT_EQ(Csv("registro_subclasse.csv").header.size(), 14u);
}

TEST_F(SampleFilesTest, BytesAreIso88591WithLfLineEnds) {
    const std::string& funds = Bytes("registro_fundo.csv");
    EXPECT_NE(funds.find('\xC9'), std::string::npos);  // É
    EXPECT_NE(funds.find('\xE9'), std::string::npos);  // é
    EXPECT_NE(funds.find('\xC7'), std::string::npos);  // Ç
    for (const std::string& name : kCsvNames) {
        SCOPED_TRACE(name);
        const std::string& bytes = Bytes(name.c_str());
        ASSERT_FALSE(bytes.empty());
        EXPECT_EQ(bytes.back(), '\n');
        EXPECT_EQ(bytes.find('\r'), std::string::npos);
        EXPECT_EQ(bytes.find('?'), std::string::npos);  // nothing fell outside Latin-1
        EXPECT_EQ(bytes.find(std::string("\0", 1)), std::string::npos);
        for (std::size_t i = 0; i + 1 < bytes.size(); ++i) {
            const auto lead = static_cast<unsigned char>(bytes[i]);
            const auto next = static_cast<unsigned char>(bytes[i + 1]);
            ASSERT_FALSE((lead == 0xC3 || lead == 0xC2) && next >= 0x80 && next <= 0xBF)
                << "UTF-8 pair at byte " << i;
        }
    }
    EXPECT_FALSE(sdk::IsValidUtf8(funds));
}

TEST_F(SampleFilesTest, EveryRowHasTheHeadersFieldCount) {
    for (const std::string& name : kCsvNames) {
        const ParsedCsv csv = Csv(name.c_str());
        for (std::size_t i = 0; i < csv.rows.size(); ++i) {
            ASSERT_EQ(csv.rows[i].size(), csv.header.size()) << name << " row " << i + 2;
        }
    }
}

TEST_F(SampleFilesTest, DatesNumbersAndFlagsAreInTheRealFormats) {
    for (const std::string& name : kCsvNames) {
        const ParsedCsv csv = Csv(name.c_str());
        for (std::size_t column = 0; column < csv.header.size(); ++column) {
            const std::string& header = csv.header[column];
            for (const auto& row : csv.rows) {
                const std::string& value = row[column];
                SCOPED_TRACE(name + " " + header + " = " + value);
                if (header.starts_with("Data_") && !value.empty()) {
                    EXPECT_TRUE(sdk::Date::Parse(value).has_value());
                }
                if (header == "Patrimonio_Liquido" && !value.empty()) {
                    const auto dot = value.find('.');
                    ASSERT_NE(dot, std::string::npos);
                    EXPECT_EQ(value.size() - dot, 3u);
                    EXPECT_EQ(value.find_first_not_of("0123456789."), std::string::npos);
                }
                if (header.starts_with("ID_") || header == "Codigo_CVM") {
                    EXPECT_FALSE(value.empty());
                    EXPECT_EQ(value.find_first_not_of("0123456789"), std::string::npos);
                }
                if (header == "Exclusivo" || header == "Classe_Cotas" || header == "Classe_ESG" ||
                    header == "Previdenciario" || header == "Exclusivo_INR" ||
                    header == "Tributacao_Longo_Prazo") {
                    EXPECT_TRUE(value.empty() || value == "S" || value == "N");
                }
            }
        }
    }
}

TEST_F(SampleFilesTest, EveryCnpjIsBareAndValid) {
    std::size_t checked = 0;
    std::size_t cpfs = 0;
    for (const std::string& name : kCsvNames) {
        const ParsedCsv csv = Csv(name.c_str());
        for (std::size_t column = 0; column < csv.header.size(); ++column) {
            const std::string& header = csv.header[column];
            if (header.find("CNPJ") == std::string::npos) {
                continue;
            }
            for (const auto& row : csv.rows) {
                const std::string& value = row[column];
                if (value.empty()) {
                    continue;
                }
                if (header == "CPF_CNPJ_Gestor" && row[csv.Column("Tipo_Pessoa_Gestor")] == "PF") {
                    EXPECT_EQ(value.size(), 11u);
                    ++cpfs;
                    continue;
                }
                const auto parsed = sdk::ParseCnpj(value);
                ASSERT_TRUE(parsed.digits.has_value()) << header << " " << value;
                EXPECT_EQ(*parsed.digits, value) << "not bare 14 digits";
                ++checked;
            }
        }
    }
    EXPECT_GT(checked, 1000u);
    EXPECT_GT(cpfs, 0u);
}

TEST_F(SampleFilesTest, RegistryContent) {
    const ParsedCsv funds = Csv("registro_fundo.csv");
    const std::size_t type = funds.Column("Tipo_Fundo");
    const std::size_t name = funds.Column("Denominacao_Social");
    const std::size_t situation = funds.Column("Situacao");
    const std::size_t cancelled = funds.Column("Data_Cancelamento");
    std::map<std::string, std::size_t> types;
    std::map<std::string, std::size_t> situations;
    std::size_t fidc_credito = 0;
    std::size_t quoted = 0;
    for (const auto& row : funds.rows) {
        ++types[row[type]];
        ++situations[row[situation]];
        EXPECT_EQ(row[cancelled].empty(), row[situation] != "Cancelado");
        if (row[type] == "FIDC" && sdk::FoldForSearch(row[name]).find("credito ") != std::string::npos) {
            ++fidc_credito;
        }
        quoted += row[name].find('"') != std::string::npos;
    }
    EXPECT_GT(types["FIDC"] * 2, funds.rows.size());  // the majority
    for (const char* t : {"FIDC-NP", "FIC-FIDC", "FI", "FII", "FIP", "FIAGRO"}) {
        EXPECT_GT(types[t], 0u) << t;
    }
    EXPECT_GT(fidc_credito, 50u);
    EXPECT_EQ(quoted, 1u);  // a literal '"' in one name: the files are unquoted
    EXPECT_GT(situations["Em Funcionamento Normal"], 200u);
    EXPECT_GT(situations["Cancelado"], 10u);
    EXPECT_GT(situations["Em Liquidação"], 0u);
    EXPECT_GT(situations["Fase Pré-Operacional"], 0u);
}

TEST_F(SampleFilesTest, ExactlyOneRepeatedFundIdCancelledThenLive) {
    const ParsedCsv funds = Csv("registro_fundo.csv");
    std::map<std::string, std::vector<std::string>> situations_by_id;
    for (const auto& row : funds.rows) {
        situations_by_id[row[funds.Column("ID_Registro_Fundo")]].push_back(row[funds.Column("Situacao")]);
    }
    std::size_t repeated = 0;
    for (const auto& [id, situations] : situations_by_id) {
        if (situations.size() > 1) {
            ++repeated;
            EXPECT_EQ(situations, (std::vector<std::string>{"Em Funcionamento Normal", "Cancelado"})) << id;
        }
    }
    EXPECT_EQ(repeated, 1u);
}

TEST_F(SampleFilesTest, KeysJoinAcrossTheThreeFiles) {
    const ParsedCsv funds = Csv("registro_fundo.csv");
    const ParsedCsv classes = Csv("registro_classe.csv");
    const ParsedCsv subclasses = Csv("registro_subclasse.csv");
    std::set<std::string> fund_ids;
    std::map<std::string, std::string> fund_cnpj;
    for (const auto& row : funds.rows) {
        fund_ids.insert(row[funds.Column("ID_Registro_Fundo")]);
        fund_cnpj[row[funds.Column("ID_Registro_Fundo")]] = row[funds.Column("CNPJ_Fundo")];
    }
    std::set<std::string> class_ids;
    std::map<std::string, std::size_t> classes_per_fund;
    std::size_t same_cnpj = 0;
    for (const auto& row : classes.rows) {
        const std::string& fund_id = row[classes.Column("ID_Registro_Fundo")];
        EXPECT_TRUE(fund_ids.count(fund_id)) << fund_id;
        EXPECT_TRUE(class_ids.insert(row[classes.Column("ID_Registro_Classe")]).second);
        ++classes_per_fund[fund_id];
        same_cnpj += row[classes.Column("CNPJ_Classe")] == fund_cnpj[fund_id];
    }
    std::size_t multi_class_funds = 0;
    for (const auto& [id, count] : classes_per_fund) {
        multi_class_funds += count > 1;
    }
    EXPECT_GE(multi_class_funds, 5u);
    EXPECT_GT(same_cnpj * 100, classes.rows.size() * 85)
        << same_cnpj << " of " << classes.rows.size();  // most classes share the fund's CNPJ
    std::set<std::string> subclass_ids;
    for (const auto& row : subclasses.rows) {
        EXPECT_TRUE(class_ids.count(row[subclasses.Column("ID_Registro_Classe")]));
        EXPECT_TRUE(subclass_ids.insert(row[subclasses.Column("ID_Subclasse")]).second);
    }
}

TEST_F(SampleFilesTest, SomeOptionalColumnsAreEmpty) {
    const ParsedCsv classes = Csv("registro_classe.csv");
    for (const char* column :
         {"Classificacao_Anbima", "CNPJ_Controlador", "Indicador_Desempenho", "Data_Inicio"}) {
        std::size_t empty = 0;
        for (const auto& row : classes.rows) {
            empty += row[classes.Column(column)].empty();
        }
        EXPECT_GT(empty, 0u) << column;
        EXPECT_LT(empty, classes.rows.size()) << column;
    }
}

TEST_F(SampleFilesTest, ZipHoldsTheThreeFilesByteForByte) {
    sdk::ZipArchive zip(*dir_ / "registro_fundo_classe.zip");
    EXPECT_EQ(zip.Members(), kCsvNames);
    for (const std::string& name : kCsvNames) {
        auto source = zip.Open(name);
        EXPECT_EQ(ReadAll(*source), Bytes(name.c_str())) << name;
        EXPECT_EQ(zip.ModifiedAt(name), ArchiveTimestamp(kDefaultSeed)) << name;
    }
}

TEST(SampleDeterminismTest, SameSeedSameBytesOtherSeedOtherBytes) {
    const fs::path a = FreshDir("a");
    const fs::path b = FreshDir("b");
    const fs::path c = FreshDir("c");
    WriteSample({a, 99});
    WriteSample({b, 99});
    const SampleReport report = WriteSample({c, 100});
    for (const fs::path& file : report.files) {
        const std::string name = file.filename().string();
        EXPECT_EQ(ReadBytes(a / name), ReadBytes(b / name)) << name;
        EXPECT_NE(ReadBytes(a / name), ReadBytes(c / name)) << name;
    }
    // Writing again over an existing sample gives the same bytes.
    WriteSample({a, 99});
    EXPECT_EQ(ReadBytes(a / "registro_fundo_classe.zip"), ReadBytes(b / "registro_fundo_classe.zip"));
    fs::remove_all(a.parent_path());
}

// Zip stores local wall-clock time; the archive must not change with the machine's time zone.
TEST(SampleDeterminismTest, ZipBytesDoNotDependOnTheTimeZone) {
    const char* saved = std::getenv("TZ");
    const std::string saved_tz = saved ? saved : "";
    std::vector<std::string> archives;
    for (const char* tz : {"UTC", "America/Sao_Paulo", "Asia/Tokyo"}) {
        ::setenv("TZ", tz, 1);
        ::tzset();
        const fs::path dir = FreshDir(std::string("tz-") + std::to_string(archives.size()));
        WriteSample({dir, 5});
        archives.push_back(ReadBytes(dir / "registro_fundo_classe.zip"));
    }
    if (saved) {
        ::setenv("TZ", saved_tz.c_str(), 1);
    } else {
        ::unsetenv("TZ");
    }
    ::tzset();
    EXPECT_EQ(archives[0], archives[1]);
    EXPECT_EQ(archives[0], archives[2]);
    fs::remove_all(FreshDir("tz-0").parent_path());
}

TEST(SampleErrorsTest, UnwritableDirectoryNamesThePath) {
    const fs::path dir = FreshDir("blocked");
    fs::create_directories(dir);
    const fs::path file = dir / "not-a-directory";
    std::ofstream(file) << "x";
    try {
        WriteSample({file / "out", 1});
        FAIL() << "expected an exception";
    } catch (const std::runtime_error& error) {
        EXPECT_NE(std::string(error.what()).find(file.string()), std::string::npos) << error.what();
    }
    fs::remove_all(dir.parent_path());
}

}  // namespace
}  // namespace lastro::sample
