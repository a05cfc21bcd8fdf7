#include "sample/vocabulary.hpp"

#include <array>
#include <cstddef>

namespace lastro::funds::sample {
namespace {

using PT = PersonType;

// Weights follow the industry's concentration: a few large houses, a long tail.
constexpr std::array<ManagerSeed, 20> kManagers{{
    {"Araucária Gestão de Recursos Ltda.", PT::kLegalEntity, 60},
    {"Jequitibá Capital Gestora de Crédito Ltda.", PT::kLegalEntity, 45},
    {"Serra Azul Asset Management Ltda.", PT::kLegalEntity, 38},
    {"Tapajós Gestão de Ativos S.A.", PT::kLegalEntity, 32},
    {"Mandacaru Investimentos Ltda.", PT::kLegalEntity, 28},
    {"Aroeira Crédito Estruturado Ltda.", PT::kLegalEntity, 25},
    {"Cambuí Capital Gestão de Recursos Ltda.", PT::kLegalEntity, 22},
    {"Guaíba Asset Ltda.", PT::kLegalEntity, 20},
    {"Boa Vista Gestão de Crédito Privado Ltda.", PT::kLegalEntity, 18},
    {"Ribeirão Claro Capital Ltda.", PT::kLegalEntity, 16},
    {"Solimões Investimentos S.A.", PT::kLegalEntity, 14},
    {"Alvorada Gestão Patrimonial Ltda.", PT::kLegalEntity, 12},
    {"Pitanga Asset Management Ltda.", PT::kLegalEntity, 11},
    {"Pantanal Gestora de Recursos Ltda.", PT::kLegalEntity, 10},
    {"Tatuapé Capital Ltda.", PT::kLegalEntity, 9},
    {"Maracanã Gestão de Investimentos Ltda.", PT::kLegalEntity, 8},
    {"Lençóis Gestão de Recursos Ltda.", PT::kLegalEntity, 7},
    {"Cajuína Capital Gestão Ltda.", PT::kLegalEntity, 6},
    // CVM registers some managers as natural persons (Tipo_Pessoa_Gestor = PF, a CPF).
    {"José Antônio Magalhães Conceição", PT::kNaturalPerson, 4},
    {"Luíza Helena Brandão Fagundes", PT::kNaturalPerson, 3},
}};

constexpr std::array<AdministratorSeed, 8> kAdministrators{{
    {"Cobalto Distribuidora de Títulos e Valores Mobiliários Ltda.", "Ana Beatriz Gonçalves Peixoto", 30},
    {"Âncora DTVM Ltda.", "Marcos Vinícius Sá Teles", 22},
    {"Banco Mirante S.A.", "Fernanda Lúcia Araújo Queiroz", 15},
    {"Caravela Serviços Fiduciários DTVM S.A.", "Rodrigo Estêvão Lacerda", 10},
    {"Sertão Trust DTVM Ltda.", "Cláudia Simões Barreto", 8},
    {"Estrela Guia Corretora de Títulos e Valores Mobiliários S.A.", "Paulo Sérgio Antunes Falcão", 6},
    {"Banco Açaí de Investimento S.A.", "Helena Conceição Moura", 5},
    {"Paranoá Administração Fiduciária Ltda.", "Otávio Brandão Leite", 4},
}};

constexpr std::array<std::string_view, 6> kAuditors{
    "Assunção & Ribeiro Auditores Independentes S.S.", "Conde Menezes Auditores Independentes",
    "Mota Lima Auditoria e Consultoria Ltda.",         "Brasilis Auditores Associados S.S.",
    "Pereira Simões Auditores Independentes",          "Guimarães Tavares Auditoria Ltda.",
};

constexpr std::array<std::string_view, 6> kCustodians{
    "Banco Mirante S.A.",
    "Âncora DTVM Ltda.",
    "Cobalto Distribuidora de Títulos e Valores Mobiliários Ltda.",
    "Banco Cooperativo Tropical S.A.",
    "Custódia Paulista DTVM Ltda.",
    "Guardião Serviços Qualificados S.A.",
};

constexpr std::array<std::string_view, 4> kControllers{
    "Controladoria Fiduciária Horizonte Ltda.",
    "Balizas Serviços de Controladoria Ltda.",
    "Âncora DTVM Ltda.",
    "Prumo Controladoria de Ativos S.A.",
};

constexpr std::array<std::string_view, 72> kBrands{
    "ARAUCÁRIA",   "IPÊ AMARELO",    "JACARANDÁ",   "SABIÁ",         "TUCANO",      "CARCARÁ",
    "GUARÁ",       "URUTAU",         "SERIEMA",     "ITAPOÃ",        "MARAJÓ",      "IGUAÇU",
    "XINGU",       "PARANAPANEMA",   "SÃO JOAQUIM", "BOA ESPERANÇA", "PLANALTO",    "CERRADO",
    "CAATINGA",    "MANTIQUEIRA",    "CANASTRA",    "ABROLHOS",      "ATALAIA",     "FAROL",
    "BÚSSOLA",     "ESTRELA DO SUL", "CRUZEIRO",    "AURORA",        "HORIZONTE",   "ÓRION",
    "ANDRÔMEDA",   "ÁGATA",          "TURMALINA",   "ESMERALDA",     "JADE",        "OPALA",
    "SAFIRA",      "GIRASSOL",       "MANACÁ",      "ACÁCIA",        "PEQUI",       "BURITI",
    "CAJU",        "JABUTICABA",     "GRAÚNA",      "BEM-TE-VI",     "CURIÓ",       "PIRACEMA",
    "CORUMBÁ",     "ITAJUBÁ",        "MACAÉ",       "JUNDIAÍ",       "MARINGÁ",     "CUIABÁ",
    "TAQUARI",     "ARAGUAIA",       "TOCANTINS",   "PARAÍBA",       "CAPIVARI",    "SANTA LUZIA",
    "MOGIANA",     "SOROCABANA",     "VALE VERDE",  "MONTE ALEGRE",  "RIO CLARO",   "TRÊS PONTAS",
    "LAGOA SANTA", "POUSO ALEGRE",   "CAMPO BELO",  "VILA RICA",     "NOVA AURORA", "BELA VISTA",
};

// About half of the FIDC themes say "Crédito": a search for "credito" must find them.
constexpr std::array<Theme, 22> kFidcThemes{{
    {"Crédito Consignado", 10},
    {"Crédito Consignado Público", 5},
    {"Crédito Pessoal", 6},
    {"Crédito Imobiliário", 5},
    {"Crédito Corporativo", 5},
    {"Crédito Estruturado", 6},
    {"Crédito Rural", 4},
    {"Crédito Veicular", 4},
    {"Crédito Educacional", 3},
    {"Crédito ao Consumidor", 4},
    {"Crédito Empresarial", 3},
    {"Recebíveis Comerciais", 7},
    {"Recebíveis de Cartão", 5},
    {"Duplicatas Mercantis", 5},
    {"Multissetorial", 7},
    {"Agronegócio", 5},
    {"Fomento Mercantil", 4},
    {"Energia Solar", 3},
    {"Saúde Suplementar", 3},
    {"Infraestrutura", 2},
    {"Antecipação de Recebíveis", 3},
    {"Cadeia de Fornecedores", 3},
}};

constexpr std::array<Theme, 6> kFidcNpThemes{{
    {"Precatórios", 30},
    {"Precatórios Federais", 15},
    {"Créditos Judiciais", 15},
    {"Recuperação de Crédito", 15},
    {"Créditos Inadimplidos", 15},
    {"Crédito Consignado", 10},
}};

constexpr std::array<Theme, 5> kFicFidcThemes{{
    {"Multiestratégia", 30},
    {"Crédito Estruturado", 25},
    {"Crédito Privado", 20},
    {"Multissetorial", 15},
    {"Recebíveis", 10},
}};

// The FI theme starts with its CVM classification (Renda Fixa, Multimercado, Ações, Cambial).
constexpr std::array<Theme, 7> kFiThemes{{
    {"Renda Fixa Crédito Privado", 25},
    {"Renda Fixa Referenciado DI", 20},
    {"Multimercado", 20},
    {"Multimercado Crédito Privado", 10},
    {"Ações", 15},
    {"Cambial", 5},
    {"Renda Fixa Simples", 5},
}};

constexpr std::array<Theme, 7> kFiiThemes{{
    {"Logística", 20},
    {"Lajes Corporativas", 15},
    {"Recebíveis Imobiliários", 25},
    {"Shopping Centers", 10},
    {"Renda Urbana", 15},
    {"Desenvolvimento Residencial", 10},
    {"Hotelaria", 5},
}};

constexpr std::array<Theme, 5> kFipThemes{{
    {"Multiestratégia", 40},
    {"Infraestrutura", 25},
    {"Capital Semente", 10},
    {"Empresas Emergentes", 10},
    {"Energia", 15},
}};

constexpr std::array<Theme, 4> kFiagroThemes{{
    {"Direitos Creditórios do Agronegócio", 35},
    {"Imobiliário Rural", 20},
    {"Recebíveis do Agronegócio", 30},
    {"Cadeias Produtivas", 15},
}};

constexpr std::array<NamePattern, 6> kFidcPatterns{{
    {"FUNDO DE INVESTIMENTO EM DIREITOS CREDITÓRIOS {B} {T}", false},
    {"FUNDO DE INVESTIMENTO EM DIREITOS CREDITÓRIOS {B} {T} RESPONSABILIDADE LIMITADA", true},
    {"{B} {T} FIDC RESPONSABILIDADE LIMITADA", true},
    {"{B} {T} FUNDO DE INVESTIMENTO EM DIREITOS CREDITÓRIOS", false},
    {"FIDC {B} {T}", false},
    {"{B} {T} FIDC", false},
}};

constexpr std::array<NamePattern, 4> kFidcNpPatterns{{
    {"FUNDO DE INVESTIMENTO EM DIREITOS CREDITÓRIOS NÃO PADRONIZADOS {B} {T}", false},
    {"{B} {T} FIDC NÃO PADRONIZADO", false},
    {"{B} {T} FIDC NP RESPONSABILIDADE LIMITADA", true},
    {"FIDC NP {B} {T} RESPONSABILIDADE LIMITADA", true},
}};

constexpr std::array<NamePattern, 4> kFicFidcPatterns{{
    {"FIC DE FIDC {B} {T}", false},
    {"FUNDO DE INVESTIMENTO EM COTAS DE FUNDOS DE INVESTIMENTO EM DIREITOS CREDITÓRIOS {B} {T}", false},
    {"{B} {T} FIC FIDC RESPONSABILIDADE LIMITADA", true},
    {"FIC DE FIDC {B} {T} RESPONSABILIDADE LIMITADA", true},
}};

constexpr std::array<NamePattern, 4> kFiPatterns{{
    {"{B} FUNDO DE INVESTIMENTO {T}", false},
    {"{B} FI {T}", false},
    {"{B} {T} FUNDO DE INVESTIMENTO FINANCEIRO", true},
    {"{B} {T} FIF RESPONSABILIDADE LIMITADA", true},
}};

constexpr std::array<NamePattern, 3> kFiiPatterns{{
    {"FUNDO DE INVESTIMENTO IMOBILIÁRIO {B} {T}", false},
    {"{B} {T} FUNDO DE INVESTIMENTO IMOBILIÁRIO", false},
    {"{B} {T} FII RESPONSABILIDADE LIMITADA", true},
}};

constexpr std::array<NamePattern, 3> kFipPatterns{{
    {"{B} FUNDO DE INVESTIMENTO EM PARTICIPAÇÕES {T}", false},
    {"{B} {T} FIP", false},
    {"{B} {T} FIP RESPONSABILIDADE LIMITADA", true},
}};

constexpr std::array<NamePattern, 3> kFiagroPatterns{{
    {"{B} FIAGRO {T}", false},
    {"FUNDO DE INVESTIMENTO NAS CADEIAS PRODUTIVAS AGROINDUSTRIAIS {B} {T}", false},
    {"{B} {T} FIAGRO RESPONSABILIDADE LIMITADA", true},
}};

constexpr std::array<std::string_view, 21> kKeptUpper{
    "FIDC", "FIC", "FII", "FIP", "FIF", "FI",  "NP",   "FIAGRO", "II",  "III",     "IV",
    "V",    "VI",  "DI",  "ESG", "CRA", "CRI", "S.A.", "DTVM",   "NPL", "FIDC-NP",
};
constexpr std::array<std::string_view, 12> kParticles{"DE", "DO", "DA", "DOS", "DAS", "EM",
                                                      "E",  "NO", "NA", "NOS", "NAS", "AO"};

template <typename Array>
bool Contains(const Array& items, std::string_view word) {
    for (std::string_view item : items) {
        if (item == word) {
            return true;
        }
    }
    return false;
}

// Latin-1 letters are 0xC3 followed by 0x80..0xBF in UTF-8; upper and lower case differ by 0x20
// in the second byte (except × and ÷, which are not letters).
void AppendCased(std::string_view word, bool upper, std::string& out) {
    for (std::size_t i = 0; i < word.size(); ++i) {
        const auto byte = static_cast<unsigned char>(word[i]);
        if (byte >= 'a' && byte <= 'z' && upper) {
            out.push_back(static_cast<char>(byte - 0x20));
        } else if (byte >= 'A' && byte <= 'Z' && !upper) {
            out.push_back(static_cast<char>(byte + 0x20));
        } else if (byte == 0xC3 && i + 1 < word.size()) {
            auto next = static_cast<unsigned char>(word[++i]);
            if (upper && next >= 0xA0 && next <= 0xBE && next != 0xB7) {
                next = static_cast<unsigned char>(next - 0x20);
            } else if (!upper && next >= 0x80 && next <= 0x9E && next != 0x97) {
                next = static_cast<unsigned char>(next + 0x20);
            }
            out.push_back(static_cast<char>(byte));
            out.push_back(static_cast<char>(next));
        } else {
            out.push_back(static_cast<char>(byte));
        }
    }
}

std::size_t FirstCharacterLength(std::string_view word) {
    if (word.empty()) {
        return 0;
    }
    return static_cast<unsigned char>(word[0]) == 0xC3 && word.size() > 1 ? 2 : 1;
}

}  // namespace

std::span<const ManagerSeed> Managers() {
    return kManagers;
}
std::span<const AdministratorSeed> Administrators() {
    return kAdministrators;
}
std::span<const std::string_view> Auditors() {
    return kAuditors;
}
std::span<const std::string_view> Custodians() {
    return kCustodians;
}
std::span<const std::string_view> Controllers() {
    return kControllers;
}
std::span<const std::string_view> Brands() {
    return kBrands;
}

std::span<const Theme> Themes(FundType type) {
    switch (type) {
        case FundType::kFidc:
            return kFidcThemes;
        case FundType::kFidcNp:
            return kFidcNpThemes;
        case FundType::kFicFidc:
            return kFicFidcThemes;
        case FundType::kFi:
            return kFiThemes;
        case FundType::kFii:
            return kFiiThemes;
        case FundType::kFip:
            return kFipThemes;
        case FundType::kFiagro:
            return kFiagroThemes;
    }
    return kFidcThemes;
}

std::span<const NamePattern> NamePatterns(FundType type) {
    switch (type) {
        case FundType::kFidc:
            return kFidcPatterns;
        case FundType::kFidcNp:
            return kFidcNpPatterns;
        case FundType::kFicFidc:
            return kFicFidcPatterns;
        case FundType::kFi:
            return kFiPatterns;
        case FundType::kFii:
            return kFiiPatterns;
        case FundType::kFip:
            return kFipPatterns;
        case FundType::kFiagro:
            return kFiagroPatterns;
    }
    return kFidcPatterns;
}

std::string ExpandPattern(std::string_view pattern, std::string_view brand, std::string_view theme) {
    std::string out;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (pattern.substr(i, 3) == "{B}") {
            out.append(brand);
            i += 2;
        } else if (pattern.substr(i, 3) == "{T}") {
            out.append(theme);
            i += 2;
        } else {
            out.push_back(pattern[i]);
        }
    }
    return out;
}

std::string UpperCase(std::string_view utf8) {
    std::string out;
    out.reserve(utf8.size());
    AppendCased(utf8, true, out);
    return out;
}

std::string TitleCase(std::string_view utf8) {
    std::string out;
    out.reserve(utf8.size());
    std::size_t start = 0;
    while (start <= utf8.size()) {
        std::size_t end = utf8.find(' ', start);
        if (end == std::string_view::npos) {
            end = utf8.size();
        }
        const std::string_view word = utf8.substr(start, end - start);
        const std::string upper = UpperCase(word);
        if (Contains(kKeptUpper, upper)) {
            out.append(upper);
        } else if (Contains(kParticles, upper) && start != 0) {
            AppendCased(word, false, out);
        } else {
            const std::size_t first = FirstCharacterLength(word);
            AppendCased(word.substr(0, first), true, out);
            AppendCased(word.substr(first), false, out);
        }
        if (end == utf8.size()) {
            break;
        }
        out.push_back(' ');
        start = end + 1;
    }
    return out;
}

}  // namespace lastro::funds::sample
