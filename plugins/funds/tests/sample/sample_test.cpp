#include "sample/sample.hpp"

#include "csv_test_support.hpp"
#include "sample_test_support.hpp"

#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/text.hpp>
#include <lastro/sdk/zip_archive.hpp>

#include <gtest/gtest.h>

#include <unistd.h>
#include <fstream>
#include <functional>
#include <map>
#include <set>

namespace lastro::funds::sample {
namespace {

namespace fs = std::filesystem;
using testing::DefaultSample;
using testing::ParsedCsv;
using testing::ParseLatin1Csv;
using testing::ReadAll;
using testing::ReadBytes;
using testing::Yyyymm;

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

fs::path FreshDir(const std::string& name) {
    const fs::path dir =
        fs::temp_directory_path() / ("lastro-sample-test-" + std::to_string(::getpid())) / name;
    fs::remove_all(dir);
    return dir;
}

// The registry files of the default sample, rendered in memory (WrittenSampleTest checks that
// WriteSample writes these very bytes).
class SampleFilesTest : public ::testing::Test {
protected:
    static const std::string& Bytes(const char* name) { return DefaultSample::Get().Bytes(name); }
    static ParsedCsv Csv(const char* name) { return ParseLatin1Csv(Bytes(name)); }
};

TEST_F(SampleFilesTest, RowCountsMatchTheUniverse) {
    const Universe& universe = DefaultSample::Get().TheUniverse();
    EXPECT_EQ(universe.funds.size(), 300u);
    EXPECT_EQ(Csv("registro_fundo.csv").rows.size(), universe.funds.size() + 1);  // + the superseded row
    EXPECT_EQ(Csv("registro_classe.csv").rows.size(), universe.ClassCount());
    EXPECT_EQ(Csv("registro_subclasse.csv").rows.size(), universe.SubclassCount());
    EXPECT_GT(universe.SubclassCount(), 30u);
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

// WriteSample writes every file, in order, with the bytes the writers render; zips hold them
// as members with the fixed timestamp.
TEST(WrittenSampleTest, EveryFileHoldsTheRenderedBytes) {
    const fs::path dir = FreshDir("written");
    const WrittenSample report = WriteSample({dir, kDefaultSeed});
    DefaultSample& sample = DefaultSample::Get();

    std::vector<std::string> expected(kCsvNames.begin(), kCsvNames.end());
    expected.push_back("registro_fundo_classe.zip");
    expected.push_back("inf_mensal_fidc_2023.zip");
    expected.push_back("inf_mensal_fidc_2024.zip");
    for (sdk::Month month{2025, 1}; !(sdk::Month{2026, 8} < month); month = month.Next()) {
        expected.push_back("inf_mensal_fidc_" + Yyyymm(month) + ".zip");
    }
    for (int month = 3; month <= 8; ++month) {
        expected.push_back("cda_fi_20260" + std::to_string(month) + ".zip");
    }
    for (const char* name : {"eventual_fi_2025.csv", "eventual_fi_2026.csv", "anbima_subclasses.csv"}) {
        expected.push_back(name);
    }
    ASSERT_EQ(report.files.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(report.files[i], dir / expected[i]);
    }
    std::set<std::string> on_disk;
    for (const auto& entry : fs::directory_iterator(dir)) {
        on_disk.insert(entry.path().filename().string());
    }
    EXPECT_EQ(on_disk, std::set<std::string>(expected.begin(), expected.end()));

    EXPECT_EQ(report.funds, 300u);
    EXPECT_EQ(report.classes, sample.TheUniverse().ClassCount());
    EXPECT_EQ(report.subclasses, sample.TheUniverse().SubclassCount());
    EXPECT_EQ(report.irregularities, sample.TheHistory().irregularities);
    EXPECT_EQ(report.documents, sample.Documents());
    EXPECT_EQ(report.anbima_rows, sample.AnbimaRows());
    EXPECT_GT(report.cda_positions, 1000u);
    EXPECT_EQ(report.months, 36);

    for (const char* name : {"registro_fundo.csv", "registro_classe.csv", "registro_subclasse.csv",
                             "eventual_fi_2025.csv", "eventual_fi_2026.csv", "anbima_subclasses.csv"}) {
        EXPECT_EQ(ReadBytes(dir / name), sample.Bytes(name)) << name;
    }
    const auto check_zip = [&](const std::string& zip_name, const std::vector<std::string>& members,
                               const std::function<const std::string&(const std::string&)>& rendered) {
        SCOPED_TRACE(zip_name);
        sdk::ZipArchive zip(dir / zip_name);
        EXPECT_EQ(zip.Members(), members);
        for (const std::string& member : zip.Members()) {
            auto source = zip.Open(member);
            EXPECT_EQ(ReadAll(*source), rendered(member)) << member;
            EXPECT_EQ(zip.ModifiedAt(member), ArchiveTimestamp(kDefaultSeed)) << member;
        }
    };
    check_zip("registro_fundo_classe.zip", kCsvNames,
              [&](const std::string& member) -> const std::string& { return sample.Bytes(member); });

    std::map<int, std::vector<std::string>> yearly;
    std::size_t class_months = 0;
    for (sdk::Month month{2023, 9}; !(sdk::Month{2026, 8} < month); month = month.Next()) {
        std::vector<std::string> members;
        for (const char* table : {"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "X_1", "X_1_1",
                                  "X_2", "X_3", "X_4", "X_5", "X_6", "X_7"}) {
            if (std::string_view(table) != "VIII" || !(month < sdk::Month{2026, 7})) {
                members.push_back("inf_mensal_fidc_tab_" + std::string(table) + "_" + Yyyymm(month) + ".csv");
                sample.FidcBytes(table, month);
            }
        }
        EXPECT_EQ(members.size(), (month < sdk::Month{2026, 7} ? 17u : 18u));
        // Class-months: the rows of tab_IV, less the Fundo rows (none in the old layout).
        const ParsedCsv iv =
            ParseLatin1Csv(sample.Member("inf_mensal_fidc_tab_IV_" + Yyyymm(month) + ".csv"));
        std::set<std::string> classes;
        for (const std::vector<std::string>& row : iv.rows) {
            if (iv.header[0] == "CNPJ_FUNDO" || row[0] == "Classe") {
                classes.insert(row[1 - (iv.header[0] == "CNPJ_FUNDO" ? 1 : 0)]);
            }
        }
        class_months += classes.size();
        if (month.year < 2025) {
            yearly[month.year].insert(yearly[month.year].end(), members.begin(), members.end());
            continue;
        }
        check_zip("inf_mensal_fidc_" + Yyyymm(month) + ".zip", members,
                  [&](const std::string& member) -> const std::string& { return sample.Member(member); });
    }
    EXPECT_EQ(report.fidc_reports, class_months);
    EXPECT_EQ(yearly[2023].size(), 4u * 17u);  // 2023-09 .. 2023-12
    EXPECT_EQ(yearly[2024].size(), 12u * 17u);
    for (const auto& [year, members] : yearly) {
        check_zip("inf_mensal_fidc_" + std::to_string(year) + ".zip", members,
                  [&](const std::string& member) -> const std::string& { return sample.Member(member); });
    }

    for (int m = 3; m <= 8; ++m) {
        const sdk::Month month{2026, m};
        const std::string ym = Yyyymm(month);
        std::vector<std::string> members;
        for (int block = 1; block <= 8; ++block) {
            members.push_back("cda_fi_BLC_" + std::to_string(block) + "_" + ym + ".csv");
        }
        if (m >= 6) {
            members.push_back("cda_fi_CONFID_" + ym + ".csv");
        }
        members.push_back("cda_fi_PL_" + ym + ".csv");
        members.push_back("cda_fie_" + ym + ".csv");
        sample.Cda("PL", month);
        check_zip("cda_fi_" + ym + ".zip", members,
                  [&](const std::string& member) -> const std::string& { return sample.Member(member); });
    }
    fs::remove_all(dir.parent_path());
}

// SampleRequest::months: the FIDC monthly reports of the last N months, and the CDA's months
// among them; the same request gives the same bytes.
TEST(SampleMonthsTest, AShorterHistoryWritesItsMonthsOnly) {
    const fs::path dir = FreshDir("months-a");
    const WrittenSample report = WriteSample({dir, kDefaultSeed, sdk::SampleScale::kSample, 4});
    std::vector<std::string> expected(kCsvNames.begin(), kCsvNames.end());
    expected.push_back("registro_fundo_classe.zip");
    for (int month = 5; month <= 8; ++month) {
        expected.push_back("inf_mensal_fidc_20260" + std::to_string(month) + ".zip");
    }
    for (int month = 5; month <= 8; ++month) {
        expected.push_back("cda_fi_20260" + std::to_string(month) + ".zip");
    }
    for (const char* name : {"eventual_fi_2025.csv", "eventual_fi_2026.csv", "anbima_subclasses.csv"}) {
        expected.push_back(name);
    }
    ASSERT_EQ(report.files.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(report.files[i].filename().string(), expected[i]);
    }
    EXPECT_EQ(report.months, 4);
    EXPECT_GT(report.fidc_reports, 4u * 150u);
    EXPECT_GT(report.cda_positions, 500u);

    // The CDA's net assets are the monthly report's, as in the default sample.
    for (int month = 5; month <= 8; ++month) {
        const std::string ym = "20260" + std::to_string(month);
        const ParsedCsv iv = ParseLatin1Csv(testing::ReadMember(dir / ("inf_mensal_fidc_" + ym + ".zip"),
                                                                "inf_mensal_fidc_tab_IV_" + ym + ".csv"));
        std::map<std::string, std::string> net_assets;
        for (const std::vector<std::string>& row : iv.rows) {
            if (row[0] == "Classe") {
                net_assets[row[1]] = row[iv.Column("TAB_IV_A_VL_PL")];
            }
        }
        const ParsedCsv pl =
            ParseLatin1Csv(testing::ReadMember(dir / ("cda_fi_" + ym + ".zip"), "cda_fi_PL_" + ym + ".csv"));
        EXPECT_GT(pl.rows.size(), 30u);
        for (const std::vector<std::string>& row : pl.rows) {
            ASSERT_TRUE(net_assets.count(row[1])) << row[1];
            EXPECT_EQ(row[pl.Column("VL_PATRIM_LIQ")], net_assets[row[1]]) << row[1];
        }
    }

    const fs::path again = FreshDir("months-b");
    WriteSample({again, kDefaultSeed, sdk::SampleScale::kSample, 4});
    for (const std::string& name : expected) {
        EXPECT_EQ(ReadBytes(dir / name), ReadBytes(again / name)) << name;
    }
    fs::remove_all(dir.parent_path());
}

TEST(SampleMonthsTest, AHistoryOfAnyLengthUpTo240Months) {
    const Universe universe = BuildUniverse(kDefaultSeed);
    for (const int months : {1, 13, 240}) {
        SCOPED_TRACE(months);
        const History history = BuildHistory(universe, months);
        ASSERT_EQ(history.month_count, months);
        EXPECT_EQ(history.MonthAt(months - 1), (sdk::Month{2026, 8}));
        EXPECT_EQ(history.IndexOf(history.first_month), 0);
        // Every class-month that reports is worth something (the named negative one aside), and
        // the first month of the history has reports.
        std::size_t reports = 0;
        std::size_t negative = 0;
        for (const ClassHistory& c : history.classes) {
            ASSERT_EQ(c.months.size(), static_cast<std::size_t>(months));
            for (int m = 0; m < months; ++m) {
                if (c.months[static_cast<std::size_t>(m)].reports) {
                    ++reports;
                    negative += c.NetAssets(m) <= 0;
                }
            }
        }
        EXPECT_LE(negative, 1u);
        EXPECT_GT(reports, static_cast<std::size_t>(months) * 60);
        // (The universe's funds are mostly recent: few report in 2006.)
        EXPECT_GT(RenderFidcMonth(history, universe.administrators, history.first_month).reports, 0u);
    }
    EXPECT_EQ(BuildHistory(universe, 240).first_month, (sdk::Month{2006, 9}));
    EXPECT_THROW(BuildHistory(universe, 0), std::invalid_argument);
    EXPECT_THROW(BuildHistory(universe, 241), std::invalid_argument);

    // A request outside 1 .. 240 months writes nothing.
    const fs::path dir = FreshDir("months-refused");
    for (const int months : {0, -3, 241}) {
        EXPECT_THROW(WriteSample({dir, kDefaultSeed, sdk::SampleScale::kSample, months}),
                     std::invalid_argument);
        EXPECT_THROW(WriteSample({dir, kDefaultSeed, sdk::SampleScale::kFull, months}),
                     std::invalid_argument);
    }
    EXPECT_FALSE(fs::exists(dir));
}

TEST(SampleDeterminismTest, SameSeedSameBytesOtherSeedOtherBytes) {
    const fs::path a = FreshDir("a");
    const fs::path b = FreshDir("b");
    const fs::path c = FreshDir("c");
    WriteSample({a, 99});
    WriteSample({b, 99});
    const WrittenSample report = WriteSample({c, 100});
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
}  // namespace lastro::funds::sample
