#include "ingest/registry_ingester.hpp"
#include "ingest/field_text.hpp"

#include "funds_model-odb.hxx"
#include "funds_model.hxx"
#include "ingest/registry_rules.hpp"

#include <lastro/sdk/byte_source.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/cvm_csv.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/zip_archive.hpp>

#include <odb/database.hxx>
#include <odb/result.hxx>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace lastro::funds {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxRejections = 20;
constexpr std::size_t kProgressEvery = 5000;
constexpr std::string_view kFundFile = "registro_fundo.csv";
constexpr std::string_view kClassFile = "registro_classe.csv";
constexpr std::string_view kSubclassFile = "registro_subclasse.csv";

// ---------------------------------------------------------------------------------------------
// Inputs: the zip, or the three CSV files it contains.

class RegistryInputs {
public:
    explicit RegistryInputs(const std::vector<fs::path>& inputs) {
        std::optional<fs::path> zip_path;
        for (const fs::path& input : inputs) {
            const std::string name = input.filename().string();
            if (IsZipName(name)) {
                if (zip_path) {
                    throw sdk::IngestError(name, 0, "more than one zip archive given");
                }
                zip_path = input;
            } else if (name == kFundFile || name == kClassFile || name == kSubclassFile) {
                if (!files_.emplace(name, input).second) {
                    throw sdk::IngestError(name, 0, "given twice");
                }
            } else {
                throw sdk::IngestError(name, 0,
                                       "not a file of cvm.registro_fundo_classe (expected "
                                       "registro_fundo_classe.zip or registro_fundo.csv, "
                                       "registro_classe.csv and registro_subclasse.csv)");
            }
        }
        if (zip_path && !files_.empty()) {
            throw sdk::IngestError(zip_path->filename().string(), 0,
                                   "give either the zip archive or the three CSV files, not both");
        }
        if (zip_path) {
            zip_name_ = zip_path->filename().string();
            zip_ = std::make_unique<sdk::ZipArchive>(*zip_path);
        }
        for (std::string_view member : {kFundFile, kClassFile, kSubclassFile}) {
            const std::string name(member);
            if (zip_) {
                if (!zip_->Has(name)) {
                    throw sdk::IngestError(zip_name_, 0, "missing member " + name);
                }
                Consider(zip_->ModifiedAt(name));
            } else if (files_.count(name) == 0) {
                throw sdk::IngestError(name, 0,
                                       "missing input file " + name +
                                           " (give registro_fundo_classe.zip or all three CSV files)");
            } else {
                Consider(FileModifiedAt(files_.at(name)));
            }
        }
    }

    std::unique_ptr<sdk::ByteSource> Open(std::string_view member) const {
        const std::string name(member);
        return zip_ ? zip_->Open(name) : sdk::OpenFile(files_.at(name));
    }

    // The newest modification time of the three files: the date of the snapshot.
    std::optional<std::time_t> NewestModification() const { return newest_; }

private:
    static bool IsZipName(std::string_view name) {
        if (name.size() < 4) {
            return false;
        }
        std::string suffix(name.substr(name.size() - 4));
        std::transform(suffix.begin(), suffix.end(), suffix.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        return suffix == ".zip";
    }

    static std::optional<std::time_t> FileModifiedAt(const fs::path& path) {
        std::error_code error;
        const auto written = fs::last_write_time(path, error);
        if (error) {
            return std::nullopt;
        }
        const auto system = std::chrono::clock_cast<std::chrono::system_clock>(written);
        return std::chrono::system_clock::to_time_t(system);
    }

    void Consider(std::optional<std::time_t> modified) {
        if (modified && (!newest_ || *modified > *newest_)) {
            newest_ = modified;
        }
    }

    std::string zip_name_;
    std::unique_ptr<sdk::ZipArchive> zip_;
    std::map<std::string, fs::path, std::less<>> files_;
    std::optional<std::time_t> newest_;
};

// Zip times are local wall-clock times (DOS format), so the local calendar inverts them.
std::string LocalDate(std::time_t time) {
    std::tm parts{};
    localtime_r(&time, &parts);
    char text[16];
    std::strftime(text, sizeof text, "%Y-%m-%d", &parts);
    return text;
}

// ---------------------------------------------------------------------------------------------
// Field parsing. A RowProblem rejects one row; IngestError (from the reader) fails the file.

class RowProblem : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

std::string_view Trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
        text.remove_prefix(1);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
        text.remove_suffix(1);
    }
    return text;
}

class Row {
public:
    explicit Row(const sdk::CvmCsvReader& reader) : reader_(reader) {}

    // Trimmed text; nullopt for an empty (or blank) field.
    std::optional<std::string> Text(std::size_t column) const {
        std::string_view text = Trim(reader_.Field(column));
        if (text.empty()) {
            return std::nullopt;
        }
        return std::string(text);
    }

    std::string RequiredText(std::size_t column, std::string_view name) const {
        auto text = Text(column);
        if (!text) {
            throw RowProblem("empty " + std::string(name));
        }
        return *text;
    }

    std::optional<std::int64_t> Integer(std::size_t column, std::string_view name) const {
        auto text = Text(column);
        if (!text) {
            return std::nullopt;
        }
        std::int64_t value = 0;
        const char* end = text->data() + text->size();
        auto [ptr, error] = std::from_chars(text->data(), end, value);
        if (!AllDigits(*text) || error != std::errc() || ptr != end) {
            throw RowProblem(std::string(name) + " is not an integer: " + Quoted(*text, 40));
        }
        return value;
    }

    std::int64_t RequiredInteger(std::size_t column, std::string_view name) const {
        auto value = Integer(column, name);
        if (!value) {
            throw RowProblem("empty " + std::string(name));
        }
        return *value;
    }

    std::optional<double> Number(std::size_t column, std::string_view name) const {
        auto text = Text(column);
        if (!text) {
            return std::nullopt;
        }
        double value = 0;
        const char* end = text->data() + text->size();
        auto [ptr, error] = std::from_chars(text->data(), end, value, std::chars_format::fixed);
        if (error != std::errc() || ptr != end || !std::isfinite(value)) {
            throw RowProblem(std::string(name) + " is not a number: " + Quoted(*text, 40));
        }
        return value;
    }

    std::optional<std::string> Date(std::size_t column, std::string_view name) const {
        auto text = Text(column);
        if (text && !sdk::Date::Parse(*text)) {
            throw RowProblem(std::string(name) + " is not a YYYY-MM-DD date: " + Quoted(*text, 40));
        }
        return text;
    }

    std::string RequiredCnpj(std::size_t column, std::string_view name) const {
        auto cnpj = OptionalCnpj(column, name);
        if (!cnpj) {
            throw RowProblem("empty " + std::string(name));
        }
        return *cnpj;
    }

    std::optional<std::string> OptionalCnpj(std::size_t column, std::string_view name) const {
        auto text = Text(column);
        if (!text) {
            return std::nullopt;
        }
        auto parsed = sdk::ParseCnpj(*text);
        if (!parsed.digits) {
            throw RowProblem("invalid " + std::string(name) + " " + Quoted(*text, 40));
        }
        return parsed.digits;
    }

    // A secondary document (administrator, auditor...): 14 digits when it is a valid CNPJ,
    // otherwise kept as published (a CPF, or a value CVM got wrong) rather than rejecting.
    std::optional<std::string> Document(std::size_t column) const {
        auto text = Text(column);
        if (text) {
            if (auto parsed = sdk::ParseCnpj(*text); parsed.digits) {
                return parsed.digits;
            }
        }
        return text;
    }

private:
    const sdk::CvmCsvReader& reader_;
};

// Registry ids already loaded by the parents' pass, by CVM registry id text.
using IdMap = std::unordered_map<std::string, std::string>;

std::string ParentId(const IdMap& parents, std::int64_t registry_id, std::string_view column) {
    auto it = parents.find(std::to_string(registry_id));
    if (it == parents.end()) {
        throw RowProblem("unknown " + std::string(column) + " " + std::to_string(registry_id));
    }
    return it->second;
}

// ---------------------------------------------------------------------------------------------
// Canonical text of an object, to detect changed rows without a query per row.

class Canonical {
public:
    Canonical& operator<<(const std::string& value) {
        text_ += 's';
        text_ += std::to_string(value.size());
        text_ += ':';
        text_ += value;
        return *this;
    }
    Canonical& operator<<(std::int64_t value) {
        text_ += 'i' + std::to_string(value) + ';';
        return *this;
    }
    Canonical& operator<<(double value) {
        char buffer[32];
        auto [ptr, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
        (void)error;
        text_ += 'd';
        text_.append(buffer, ptr);
        text_ += ';';
        return *this;
    }
    Canonical& operator<<(bool value) {
        text_ += value ? "b1" : "b0";
        return *this;
    }
    template <typename T>
    Canonical& operator<<(const std::optional<T>& value) {
        if (value) {
            return *this << *value;
        }
        text_ += 'n';
        return *this;
    }
    const std::string& Text() const { return text_; }

private:
    std::string text_;
};

// ---------------------------------------------------------------------------------------------
// One traits type per file: its columns, how a row becomes an object, how duplicates rank.

struct FundTraits {
    using Object = Fund;
    static constexpr std::string_view kFile = kFundFile;
    static constexpr std::string_view kKeyColumn = "ID_Registro_Fundo";

    class Parser {
    public:
        Parser(const sdk::CvmCsvReader& r, const IdMap& /*parents*/)
            : id_(r.Require("ID_Registro_Fundo")),
              cnpj_(r.Require("CNPJ_Fundo")),
              cvm_code_(r.Require("Codigo_CVM")),
              registered_(r.Require("Data_Registro")),
              constituted_(r.Require("Data_Constituicao")),
              type_(r.Require("Tipo_Fundo")),
              name_(r.Require("Denominacao_Social")),
              cancelled_(r.Require("Data_Cancelamento")),
              status_(r.Require("Situacao")),
              status_since_(r.Require("Data_Inicio_Situacao")),
              adapted_(r.Require("Data_Adaptacao_RCVM175")),
              fiscal_start_(r.Require("Data_Inicio_Exercicio_Social")),
              fiscal_end_(r.Require("Data_Fim_Exercicio_Social")),
              net_worth_(r.Require("Patrimonio_Liquido")),
              net_worth_at_(r.Require("Data_Patrimonio_Liquido")),
              director_(r.Require("Diretor")),
              administrator_cnpj_(r.Require("CNPJ_Administrador")),
              administrator_(r.Require("Administrador")),
              manager_type_(r.Require("Tipo_Pessoa_Gestor")),
              manager_document_(r.Require("CPF_CNPJ_Gestor")),
              manager_(r.Require("Gestor")) {}

        Fund Parse(const Row& row) const {
            Fund f;
            f.registry_id = row.RequiredInteger(id_, "ID_Registro_Fundo");
            f.fund_id = FundIdFor(std::to_string(f.registry_id));
            f.cnpj = row.RequiredCnpj(cnpj_, "CNPJ_Fundo");
            f.cvm_code = row.Integer(cvm_code_, "Codigo_CVM");
            f.registered_at = row.Date(registered_, "Data_Registro");
            f.constituted_at = row.Date(constituted_, "Data_Constituicao");
            f.fund_type = row.Text(type_);
            f.name = row.Text(name_);
            f.cancelled_at = row.Date(cancelled_, "Data_Cancelamento");
            f.status = row.Text(status_);
            f.status_since = row.Date(status_since_, "Data_Inicio_Situacao");
            f.adapted_rcvm175_at = row.Date(adapted_, "Data_Adaptacao_RCVM175");
            f.fiscal_year_start_at = row.Date(fiscal_start_, "Data_Inicio_Exercicio_Social");
            f.fiscal_year_end_at = row.Date(fiscal_end_, "Data_Fim_Exercicio_Social");
            f.net_worth = row.Number(net_worth_, "Patrimonio_Liquido");
            f.net_worth_at = row.Date(net_worth_at_, "Data_Patrimonio_Liquido");
            f.director = row.Text(director_);
            f.administrator_cnpj = row.Document(administrator_cnpj_);
            f.administrator = row.Text(administrator_);
            f.manager_person_type = row.Text(manager_type_);
            f.manager_document = row.Document(manager_document_);
            f.manager = row.Text(manager_);
            f.status_folded = Folded(f.status);
            f.manager_folded = Folded(f.manager);
            f.administrator_folded = Folded(f.administrator);
            f.search_text = FundSearchText(f.name, f.cnpj, f.manager, f.administrator);
            f.fidc_universe = f.fund_type && IsFidcUniverse(*f.fund_type);
            return f;
        }

    private:
        std::size_t id_, cnpj_, cvm_code_, registered_, constituted_, type_, name_, cancelled_, status_,
            status_since_, adapted_, fiscal_start_, fiscal_end_, net_worth_, net_worth_at_, director_,
            administrator_cnpj_, administrator_, manager_type_, manager_document_, manager_;
    };

    static std::string Key(const Fund& f) { return std::to_string(f.registry_id); }
    static const std::string& Id(const Fund& f) { return f.fund_id; }
    static bool Cancelled(const Fund& f) { return f.cancelled_at.has_value(); }
    static const std::optional<std::string>& RankDate(const Fund& f) { return f.registered_at; }

    static std::string CanonicalText(const Fund& f) {
        Canonical c;
        c << f.fund_id << f.registry_id << f.cvm_code << f.cnpj << f.name << f.fund_type << f.status
          << f.status_folded << f.registered_at << f.constituted_at << f.cancelled_at << f.status_since
          << f.adapted_rcvm175_at << f.fiscal_year_start_at << f.fiscal_year_end_at << f.net_worth
          << f.net_worth_at << f.director << f.administrator_cnpj << f.administrator << f.manager_person_type
          << f.manager_document << f.manager << f.search_text << f.manager_folded << f.administrator_folded
          << f.fidc_universe;
        return c.Text();
    }
};

struct ClassTraits {
    using Object = FundClass;
    static constexpr std::string_view kFile = kClassFile;
    static constexpr std::string_view kKeyColumn = "ID_Registro_Classe";

    class Parser {
    public:
        Parser(const sdk::CvmCsvReader& r, const IdMap& funds)
            : funds_(funds),
              fund_(r.Require("ID_Registro_Fundo")),
              id_(r.Require("ID_Registro_Classe")),
              cnpj_(r.Require("CNPJ_Classe")),
              cvm_code_(r.Require("Codigo_CVM")),
              registered_(r.Require("Data_Registro")),
              constituted_(r.Require("Data_Constituicao")),
              started_(r.Require("Data_Inicio")),
              type_(r.Require("Tipo_Classe")),
              name_(r.Require("Denominacao_Social")),
              status_(r.Require("Situacao")),
              status_since_(r.Require("Data_Inicio_Situacao")),
              classification_(r.Require("Classificacao")),
              benchmark_(r.Require("Indicador_Desempenho")),
              quota_class_(r.Require("Classe_Cotas")),
              anbima_(r.Require("Classificacao_Anbima")),
              long_term_(r.Require("Tributacao_Longo_Prazo")),
              investment_entity_(r.Require("Entidade_Investimento")),
              foreign_(r.Require("Permitido_Aplicacao_CemPorCento_Exterior")),
              esg_(r.Require("Classe_ESG")),
              condominium_(r.Require("Forma_Condominio")),
              exclusive_(r.Require("Exclusivo")),
              audience_(r.Require("Publico_Alvo")),
              net_worth_(r.Require("Patrimonio_Liquido")),
              net_worth_at_(r.Require("Data_Patrimonio_Liquido")),
              auditor_cnpj_(r.Require("CNPJ_Auditor")),
              auditor_(r.Require("Auditor")),
              custodian_cnpj_(r.Require("CNPJ_Custodiante")),
              custodian_(r.Require("Custodiante")),
              controller_cnpj_(r.Require("CNPJ_Controlador")),
              controller_(r.Require("Controlador")) {}

        FundClass Parse(const Row& row) const {
            FundClass c;
            c.registry_id = row.RequiredInteger(id_, "ID_Registro_Classe");
            c.class_id = ClassIdFor(std::to_string(c.registry_id));
            c.fund_registry_id = row.RequiredInteger(fund_, "ID_Registro_Fundo");
            c.cnpj = row.OptionalCnpj(cnpj_, "CNPJ_Classe");
            c.cvm_code = row.Integer(cvm_code_, "Codigo_CVM");
            c.registered_at = row.Date(registered_, "Data_Registro");
            c.constituted_at = row.Date(constituted_, "Data_Constituicao");
            c.started_at = row.Date(started_, "Data_Inicio");
            c.class_type = row.Text(type_);
            c.name = row.Text(name_);
            c.status = row.Text(status_);
            c.status_since = row.Date(status_since_, "Data_Inicio_Situacao");
            c.classification = row.Text(classification_);
            c.performance_benchmark = row.Text(benchmark_);
            c.quota_class = row.Text(quota_class_);
            c.anbima_classification = row.Text(anbima_);
            c.long_term_taxation = row.Text(long_term_);
            c.investment_entity = row.Text(investment_entity_);
            c.full_foreign_investment = row.Text(foreign_);
            c.esg = row.Text(esg_);
            c.condominium_type = row.Text(condominium_);
            c.exclusive = row.Text(exclusive_);
            c.target_audience = row.Text(audience_);
            c.net_worth = row.Number(net_worth_, "Patrimonio_Liquido");
            c.net_worth_at = row.Date(net_worth_at_, "Data_Patrimonio_Liquido");
            c.auditor_cnpj = row.Document(auditor_cnpj_);
            c.auditor = row.Text(auditor_);
            c.custodian_cnpj = row.Document(custodian_cnpj_);
            c.custodian = row.Text(custodian_);
            c.controller_cnpj = row.Document(controller_cnpj_);
            c.controller = row.Text(controller_);
            // Last, so a row with a bad field reports that field rather than its parent.
            c.fund_id = ParentId(funds_, c.fund_registry_id, "ID_Registro_Fundo");
            return c;
        }

    private:
        const IdMap& funds_;
        std::size_t fund_, id_, cnpj_, cvm_code_, registered_, constituted_, started_, type_, name_, status_,
            status_since_, classification_, benchmark_, quota_class_, anbima_, long_term_, investment_entity_,
            foreign_, esg_, condominium_, exclusive_, audience_, net_worth_, net_worth_at_, auditor_cnpj_,
            auditor_, custodian_cnpj_, custodian_, controller_cnpj_, controller_;
    };

    static std::string Key(const FundClass& c) { return std::to_string(c.registry_id); }
    static const std::string& Id(const FundClass& c) { return c.class_id; }
    static bool Cancelled(const FundClass& c) { return IsCancelledStatus(c.status); }
    static const std::optional<std::string>& RankDate(const FundClass& c) { return c.registered_at; }

    static std::string CanonicalText(const FundClass& c) {
        Canonical k;
        k << c.class_id << c.fund_id << c.registry_id << c.fund_registry_id << c.cnpj << c.cvm_code
          << c.registered_at << c.constituted_at << c.started_at << c.class_type << c.name << c.status
          << c.status_since << c.classification << c.performance_benchmark << c.quota_class
          << c.anbima_classification << c.long_term_taxation << c.investment_entity
          << c.full_foreign_investment << c.esg << c.condominium_type << c.exclusive << c.target_audience
          << c.net_worth << c.net_worth_at << c.auditor_cnpj << c.auditor << c.custodian_cnpj << c.custodian
          << c.controller_cnpj << c.controller;
        return k.Text();
    }
};

struct SubclassTraits {
    using Object = Subclass;
    static constexpr std::string_view kFile = kSubclassFile;
    static constexpr std::string_view kKeyColumn = "ID_Subclasse";

    class Parser {
    public:
        Parser(const sdk::CvmCsvReader& r, const IdMap& classes)
            : classes_(classes),
              class_(r.Require("ID_Registro_Classe")),
              id_(r.Require("ID_Subclasse")),
              cvm_code_(r.Require("Codigo_CVM")),
              constituted_(r.Require("Data_Constituicao")),
              started_(r.Require("Data_Inicio")),
              name_(r.Require("Denominacao_Social")),
              status_(r.Require("Situacao")),
              status_since_(r.Require("Data_Inicio_Situacao")),
              condominium_(r.Require("Forma_Condominio")),
              exclusive_(r.Require("Exclusivo")),
              audience_(r.Require("Publico_Alvo")),
              pension_(r.Require("Previdenciario")),
              non_resident_(r.Require("Exclusivo_INR")),
              supplementary_(r.Require("Exclusivo_Previdencia_Complementar")) {}

        Subclass Parse(const Row& row) const {
            Subclass s;
            s.registry_id = row.RequiredText(id_, "ID_Subclasse");
            s.subclass_id = SubclassIdFor(s.registry_id);
            s.class_registry_id = row.RequiredInteger(class_, "ID_Registro_Classe");
            s.cvm_code = row.Integer(cvm_code_, "Codigo_CVM");
            s.constituted_at = row.Date(constituted_, "Data_Constituicao");
            s.started_at = row.Date(started_, "Data_Inicio");
            s.name = row.Text(name_);
            s.status = row.Text(status_);
            s.status_since = row.Date(status_since_, "Data_Inicio_Situacao");
            s.condominium_type = row.Text(condominium_);
            s.exclusive = row.Text(exclusive_);
            s.target_audience = row.Text(audience_);
            s.pension = row.Text(pension_);
            s.exclusive_non_resident = row.Text(non_resident_);
            s.exclusive_supplementary_pension = row.Text(supplementary_);
            s.class_id = ParentId(classes_, s.class_registry_id, "ID_Registro_Classe");
            return s;
        }

    private:
        const IdMap& classes_;
        std::size_t class_, id_, cvm_code_, constituted_, started_, name_, status_, status_since_,
            condominium_, exclusive_, audience_, pension_, non_resident_, supplementary_;
    };

    static std::string Key(const Subclass& s) { return s.registry_id; }
    static const std::string& Id(const Subclass& s) { return s.subclass_id; }
    static bool Cancelled(const Subclass& s) { return IsCancelledStatus(s.status); }
    // The subclass file has no registration date; its constitution date ranks duplicates.
    static const std::optional<std::string>& RankDate(const Subclass& s) { return s.constituted_at; }

    static std::string CanonicalText(const Subclass& s) {
        Canonical k;
        k << s.subclass_id << s.class_id << s.registry_id << s.class_registry_id << s.cvm_code
          << s.constituted_at << s.started_at << s.name << s.status << s.status_since << s.condominium_type
          << s.exclusive << s.target_audience << s.pension << s.exclusive_non_resident
          << s.exclusive_supplementary_pension;
        return k.Text();
    }
};

// ---------------------------------------------------------------------------------------------
// Applying one file: scan and rank (pass 1), then write the kept rows (pass 2).

// How one valid row ranks among rows with the same registry id.
struct Candidate {
    std::size_t line = 0;
    bool cancelled = false;
    std::optional<std::string> rank_date;  // YYYY-MM-DD sorts as text
};

// The documented duplicate rule: not cancelled first, then the later date (a missing date
// ranks lowest), then the later line of the file.
bool Outranks(const Candidate& a, const Candidate& b) {
    if (a.cancelled != b.cancelled) {
        return !a.cancelled;
    }
    if (a.rank_date != b.rank_date) {
        return a.rank_date > b.rank_date;  // nullopt compares below any date
    }
    return a.line > b.line;
}

class SnapshotApplier {
public:
    SnapshotApplier(const sdk::IngestContext& context, const RegistryInputs& inputs,
                    sdk::IngestSummary& summary)
        : context_(context), inputs_(inputs), summary_(summary) {}

    // Applies one file and returns the kept rows' ids by registry id (for the children).
    template <typename Traits>
    IdMap Apply(const IdMap& parents) {
        using Object = typename Traits::Object;
        const std::string file(Traits::kFile);
        context_.progress.Stage(file);

        // Pass 1: validate every row and rank duplicates. Only small records are kept, so
        // memory does not grow with the width of the file.
        std::unordered_map<std::string, std::vector<Candidate>> by_key;
        {
            sdk::CvmCsvReader reader(inputs_.Open(file));
            const typename Traits::Parser parser(reader, parents);
            const Row row(reader);
            while (reader.Next()) {
                ++summary_.rows_read;
                if (summary_.rows_read % kProgressEvery == 0) {
                    context_.progress.Rows(summary_.rows_read);
                }
                if (!CheckFieldCount(reader, file)) {
                    continue;
                }
                try {
                    const Object object = parser.Parse(row);
                    by_key[Traits::Key(object)].push_back(
                        {reader.Line(), Traits::Cancelled(object), Traits::RankDate(object)});
                } catch (const RowProblem& problem) {
                    Reject(file, reader.Line(), problem.what());
                }
            }
        }

        std::vector<char> kept_lines;
        std::vector<std::pair<std::size_t, std::string>> duplicates;  // (line, reason)
        for (auto& [key, candidates] : by_key) {
            const Candidate* best = &candidates.front();
            for (const Candidate& candidate : candidates) {
                if (Outranks(candidate, *best)) {
                    best = &candidate;
                }
            }
            if (kept_lines.size() <= best->line) {
                kept_lines.resize(best->line + 1, 0);
            }
            kept_lines[best->line] = 1;
            for (const Candidate& candidate : candidates) {
                if (&candidate != best) {
                    duplicates.emplace_back(candidate.line, "duplicate " + std::string(Traits::kKeyColumn) +
                                                                " " + key + " (kept line " +
                                                                std::to_string(best->line) + ")");
                }
            }
        }
        std::sort(duplicates.begin(), duplicates.end());
        for (const auto& [line, reason] : duplicates) {
            Reject(file, line, reason);
        }

        // Pass 2: write the kept rows, comparing with what the database holds.
        auto existing = LoadExisting<Traits>();
        IdMap kept;
        kept.reserve(by_key.size());
        context_.progress.Stage(file + ": saving");
        sdk::CvmCsvReader reader(inputs_.Open(file));
        const typename Traits::Parser parser(reader, parents);
        const Row row(reader);
        while (reader.Next()) {
            const std::size_t line = reader.Line();
            if (line >= kept_lines.size() || !kept_lines[line]) {
                continue;
            }
            std::optional<Object> parsed;
            try {
                parsed = parser.Parse(row);
            } catch (const RowProblem& problem) {
                // Pass 1 accepted this line, so the file changed under us.
                throw sdk::IngestError(file, line,
                                       std::string("changed while being read: ") + problem.what());
            }
            const Object& object = *parsed;
            kept.emplace(Traits::Key(object), Traits::Id(object));
            auto it = existing.find(Traits::Id(object));
            if (it == existing.end()) {
                context_.db.persist(object);
                ++summary_.inserted;
                continue;
            }
            it->second.seen = true;
            if (it->second.fingerprint == Fingerprint(Traits::CanonicalText(object))) {
                ++summary_.unchanged;
            } else {
                context_.db.update(object);
                ++summary_.updated;
            }
        }

        // The registry is a full snapshot: what it no longer carries goes.
        for (const auto& [id, state] : existing) {
            if (!state.seen) {
                context_.db.erase<Object>(id);
                ++summary_.removed;
            }
        }
        return kept;
    }

private:
    struct Stored {
        std::size_t fingerprint = 0;
        bool seen = false;
    };

    static std::size_t Fingerprint(const std::string& canonical) {
        return std::hash<std::string>{}(canonical);
    }

    // Every stored row's id and fingerprint, in one query instead of one per row.
    template <typename Traits>
    std::unordered_map<std::string, Stored> LoadExisting() {
        using Object = typename Traits::Object;
        std::unordered_map<std::string, Stored> existing;
        odb::result<Object> rows(context_.db.query<Object>());
        for (const Object& object : rows) {
            existing.emplace(Traits::Id(object), Stored{Fingerprint(Traits::CanonicalText(object)), false});
        }
        return existing;
    }

    bool CheckFieldCount(const sdk::CvmCsvReader& reader, const std::string& file) {
        const std::size_t expected = reader.Header().size();
        if (reader.FieldCount() == expected) {
            return true;
        }
        Reject(
            file, reader.Line(),
            "expected " + std::to_string(expected) + " fields, found " + std::to_string(reader.FieldCount()));
        return false;
    }

    void Reject(const std::string& file, std::size_t line, const std::string& why) {
        ++summary_.rejected;
        if (summary_.rejections.size() < kMaxRejections) {
            summary_.rejections.push_back(file + " line " + std::to_string(line) + ": " + why);
        }
    }

    const sdk::IngestContext& context_;
    const RegistryInputs& inputs_;
    sdk::IngestSummary& summary_;
};

}  // namespace

sdk::IngestSummary RegistryIngester::Run(const sdk::IngestContext& context) {
    const RegistryInputs inputs(context.inputs);
    sdk::IngestSummary summary;
    SnapshotApplier applier(context, inputs, summary);
    const IdMap funds = applier.Apply<FundTraits>({});
    const IdMap classes = applier.Apply<ClassTraits>(funds);
    applier.Apply<SubclassTraits>(classes);

    const std::string date = LocalDate(inputs.NewestModification().value_or(context.now));
    summary.release_label = "registro-" + date;
    summary.as_of = date;
    return summary;
}

}  // namespace lastro::funds
