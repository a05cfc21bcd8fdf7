#include "ingest/registro_fundo_classe/registry_ingester.hpp"

#include "domain/registry/registry_rules.hpp"
#include "domain/rows/fund_list_items.hpp"
#include "domain/rows/screening_rows.hpp"
#include "domain/search/search_index.hpp"
#include "funds_model-odb.hxx"
#include "funds_model.hxx"
#include "layouts/registro_fundo_classe.hpp"

#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/cvm_csv.hpp>
#include <lastro/sdk/ingest/inputs.hpp>
#include <lastro/sdk/ingest/progress.hpp>
#include <lastro/sdk/ingest/rejections.hpp>
#include <lastro/sdk/ingest/snapshot.hpp>
#include <lastro/sdk/ingest/values.hpp>
#include <lastro/sdk/problem.hpp>

#include <odb/database.hxx>
#include <odb/result.hxx>

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace lastro::funds {

namespace {

// The three files, in the zip or loose.
const sdk::DatasetLayout& RegistryLayout() {
    static const sdk::DatasetLayout layout = [] {
        sdk::DatasetLayout l;
        l.dataset = std::string(kRegistryDataset);
        l.expected = std::string(kRegistryZipName) + " or " + std::string(kFundFileName) + ", " +
                     std::string(kClassFileName) + " and " + std::string(kSubclassFileName);
        for (std::string_view file : {kFundFileName, kClassFileName, kSubclassFileName}) {
            l.tables.push_back({std::string(file), sdk::NamePattern(std::string(file))});
        }
        return l;
    }();
    return layout;
}

// ---------------------------------------------------------------------------------------------
// Field parsing. A RowProblem or a FieldError rejects one row; an IngestError fails the file.

class RowProblem : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// One record of a registry file through the positions of its published columns: every column of
// the list is required in the header, and the parsers name columns by their list position
// (ColumnIndex, checked when compiled).
template <std::size_t N>
class Row {
public:
    Row(const sdk::CsvReader& reader, const std::array<std::string_view, N>& columns) : reader_(reader) {
        for (std::size_t i = 0; i < N; ++i) {
            index_[i] = reader.Require(columns[i]);
        }
    }

    std::optional<std::string> Text(std::size_t column) const { return reader_.Text(index_[column]); }
    std::string RequiredText(std::size_t column) const { return reader_.RequiredText(index_[column]); }
    std::optional<std::int64_t> Integer(std::size_t column) const {
        return reader_.Integer(index_[column], sdk::Sign::kNonNegative);
    }
    std::int64_t RequiredInteger(std::size_t column) const {
        auto value = Integer(column);
        if (!value) {
            reader_.Fail(index_[column], "is empty");
        }
        return *value;
    }
    std::optional<double> Number(std::size_t column) const { return reader_.Decimal(index_[column]); }
    std::optional<std::string> Date(std::size_t column) const { return reader_.IsoDate(index_[column]); }
    // A secondary document (administrator, auditor...): kept as published when not a CNPJ.
    std::optional<std::string> Document(std::size_t column) const { return reader_.Document(index_[column]); }

    std::optional<std::string> OptionalCnpj(std::size_t column) const {
        auto text = Text(column);
        if (!text) {
            return std::nullopt;
        }
        auto parsed = sdk::ParseCnpj(*text);
        if (!parsed.digits) {
            throw RowProblem("invalid " + reader_.Header()[index_[column]] + " " + sdk::Quoted(*text, 40));
        }
        return parsed.digits;
    }
    std::string RequiredCnpj(std::size_t column) const {
        auto cnpj = OptionalCnpj(column);
        if (!cnpj) {
            reader_.Fail(index_[column], "is empty");
        }
        return *cnpj;
    }

private:
    const sdk::CsvReader& reader_;
    std::array<std::size_t, N> index_{};
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
// One traits type per file: its columns, how a row becomes an object, how duplicates rank.

struct FundTraits {
    using Object = Fund;
    static constexpr const auto& kColumns = kFundColumns;
    static constexpr std::string_view kFile = kFundFileName;
    static constexpr std::string_view kKeyColumn = "ID_Registro_Fundo";
    static consteval std::size_t C(std::string_view name) { return ColumnIndex(kColumns, name); }

    static Fund Parse(const Row<kColumns.size()>& row, const IdMap& /*parents*/) {
        Fund f;
        f.registry_id = row.RequiredInteger(C("ID_Registro_Fundo"));
        f.fund_id = FundIdFor(std::to_string(f.registry_id));
        f.cnpj = row.RequiredCnpj(C("CNPJ_Fundo"));
        f.cvm_code = row.Integer(C("Codigo_CVM"));
        f.registered_at = row.Date(C("Data_Registro"));
        f.constituted_at = row.Date(C("Data_Constituicao"));
        f.fund_type = row.Text(C("Tipo_Fundo"));
        f.name = row.Text(C("Denominacao_Social"));
        f.cancelled_at = row.Date(C("Data_Cancelamento"));
        f.status = row.Text(C("Situacao"));
        f.status_since = row.Date(C("Data_Inicio_Situacao"));
        f.adapted_rcvm175_at = row.Date(C("Data_Adaptacao_RCVM175"));
        f.fiscal_year_start_at = row.Date(C("Data_Inicio_Exercicio_Social"));
        f.fiscal_year_end_at = row.Date(C("Data_Fim_Exercicio_Social"));
        f.net_worth = row.Number(C("Patrimonio_Liquido"));
        f.net_worth_at = row.Date(C("Data_Patrimonio_Liquido"));
        f.director = row.Text(C("Diretor"));
        f.administrator_cnpj = row.Document(C("CNPJ_Administrador"));
        f.administrator = row.Text(C("Administrador"));
        f.manager_person_type = row.Text(C("Tipo_Pessoa_Gestor"));
        f.manager_document = row.Document(C("CPF_CNPJ_Gestor"));
        f.manager = row.Text(C("Gestor"));
        f.status_folded = Folded(f.status);
        f.manager_folded = Folded(f.manager);
        f.administrator_folded = Folded(f.administrator);
        f.search_text = FundSearchText(f.name, f.cnpj, f.manager, f.administrator);
        f.fidc_universe = f.fund_type && IsFidcUniverse(*f.fund_type);
        return f;
    }

    static std::string Key(const Fund& f) { return std::to_string(f.registry_id); }
    static const std::string& Id(const Fund& f) { return f.fund_id; }
    static bool Cancelled(const Fund& f) { return f.cancelled_at.has_value(); }
    static const std::optional<std::string>& RankDate(const Fund& f) { return f.registered_at; }

    static std::uint64_t Fingerprint(const Fund& f) {
        return sdk::FingerprintOf(
            f.fund_id, f.registry_id, f.cvm_code, f.cnpj, f.name, f.fund_type, f.status, f.status_folded,
            f.registered_at, f.constituted_at, f.cancelled_at, f.status_since, f.adapted_rcvm175_at,
            f.fiscal_year_start_at, f.fiscal_year_end_at, f.net_worth, f.net_worth_at, f.director,
            f.administrator_cnpj, f.administrator, f.manager_person_type, f.manager_document, f.manager,
            f.search_text, f.manager_folded, f.administrator_folded, f.fidc_universe);
    }
};

struct ClassTraits {
    using Object = FundClass;
    static constexpr const auto& kColumns = kClassColumns;
    static constexpr std::string_view kFile = kClassFileName;
    static constexpr std::string_view kKeyColumn = "ID_Registro_Classe";
    static consteval std::size_t C(std::string_view name) { return ColumnIndex(kColumns, name); }

    static FundClass Parse(const Row<kColumns.size()>& row, const IdMap& funds) {
        FundClass c;
        c.registry_id = row.RequiredInteger(C("ID_Registro_Classe"));
        c.class_id = ClassIdFor(std::to_string(c.registry_id));
        c.fund_registry_id = row.RequiredInteger(C("ID_Registro_Fundo"));
        c.cnpj = row.OptionalCnpj(C("CNPJ_Classe"));
        c.cvm_code = row.Integer(C("Codigo_CVM"));
        c.registered_at = row.Date(C("Data_Registro"));
        c.constituted_at = row.Date(C("Data_Constituicao"));
        c.started_at = row.Date(C("Data_Inicio"));
        c.class_type = row.Text(C("Tipo_Classe"));
        c.name = row.Text(C("Denominacao_Social"));
        c.status = row.Text(C("Situacao"));
        c.status_since = row.Date(C("Data_Inicio_Situacao"));
        c.classification = row.Text(C("Classificacao"));
        c.performance_benchmark = row.Text(C("Indicador_Desempenho"));
        c.quota_class = row.Text(C("Classe_Cotas"));
        c.anbima_classification = row.Text(C("Classificacao_Anbima"));
        c.long_term_taxation = row.Text(C("Tributacao_Longo_Prazo"));
        c.investment_entity = row.Text(C("Entidade_Investimento"));
        c.full_foreign_investment = row.Text(C("Permitido_Aplicacao_CemPorCento_Exterior"));
        c.esg = row.Text(C("Classe_ESG"));
        c.condominium_type = row.Text(C("Forma_Condominio"));
        c.exclusive = row.Text(C("Exclusivo"));
        c.target_audience = row.Text(C("Publico_Alvo"));
        c.net_worth = row.Number(C("Patrimonio_Liquido"));
        c.net_worth_at = row.Date(C("Data_Patrimonio_Liquido"));
        c.auditor_cnpj = row.Document(C("CNPJ_Auditor"));
        c.auditor = row.Text(C("Auditor"));
        c.custodian_cnpj = row.Document(C("CNPJ_Custodiante"));
        c.custodian = row.Text(C("Custodiante"));
        c.controller_cnpj = row.Document(C("CNPJ_Controlador"));
        c.controller = row.Text(C("Controlador"));
        // Last, so a row with a bad field reports that field rather than its parent.
        c.fund_id = ParentId(funds, c.fund_registry_id, "ID_Registro_Fundo");
        return c;
    }

    static std::string Key(const FundClass& c) { return std::to_string(c.registry_id); }
    static const std::string& Id(const FundClass& c) { return c.class_id; }
    static bool Cancelled(const FundClass& c) { return IsCancelledStatus(c.status); }
    static const std::optional<std::string>& RankDate(const FundClass& c) { return c.registered_at; }

    static std::uint64_t Fingerprint(const FundClass& c) {
        return sdk::FingerprintOf(c.class_id, c.fund_id, c.registry_id, c.fund_registry_id, c.cnpj,
                                  c.cvm_code, c.registered_at, c.constituted_at, c.started_at, c.class_type,
                                  c.name, c.status, c.status_since, c.classification, c.performance_benchmark,
                                  c.quota_class, c.anbima_classification, c.long_term_taxation,
                                  c.investment_entity, c.full_foreign_investment, c.esg, c.condominium_type,
                                  c.exclusive, c.target_audience, c.net_worth, c.net_worth_at, c.auditor_cnpj,
                                  c.auditor, c.custodian_cnpj, c.custodian, c.controller_cnpj, c.controller);
    }
};

struct SubclassTraits {
    using Object = Subclass;
    static constexpr const auto& kColumns = kSubclassColumns;
    static constexpr std::string_view kFile = kSubclassFileName;
    static constexpr std::string_view kKeyColumn = "ID_Subclasse";
    static consteval std::size_t C(std::string_view name) { return ColumnIndex(kColumns, name); }

    static Subclass Parse(const Row<kColumns.size()>& row, const IdMap& classes) {
        Subclass s;
        s.registry_id = row.RequiredText(C("ID_Subclasse"));
        s.subclass_id = SubclassIdFor(s.registry_id);
        s.class_registry_id = row.RequiredInteger(C("ID_Registro_Classe"));
        s.cvm_code = row.Integer(C("Codigo_CVM"));
        s.constituted_at = row.Date(C("Data_Constituicao"));
        s.started_at = row.Date(C("Data_Inicio"));
        s.name = row.Text(C("Denominacao_Social"));
        s.status = row.Text(C("Situacao"));
        s.status_since = row.Date(C("Data_Inicio_Situacao"));
        s.condominium_type = row.Text(C("Forma_Condominio"));
        s.exclusive = row.Text(C("Exclusivo"));
        s.target_audience = row.Text(C("Publico_Alvo"));
        s.pension = row.Text(C("Previdenciario"));
        s.exclusive_non_resident = row.Text(C("Exclusivo_INR"));
        s.exclusive_supplementary_pension = row.Text(C("Exclusivo_Previdencia_Complementar"));
        s.class_id = ParentId(classes, s.class_registry_id, "ID_Registro_Classe");
        return s;
    }

    static std::string Key(const Subclass& s) { return s.registry_id; }
    static const std::string& Id(const Subclass& s) { return s.subclass_id; }
    static bool Cancelled(const Subclass& s) { return IsCancelledStatus(s.status); }
    // The subclass file has no registration date; its constitution date ranks duplicates.
    static const std::optional<std::string>& RankDate(const Subclass& s) { return s.constituted_at; }

    static std::uint64_t Fingerprint(const Subclass& s) {
        return sdk::FingerprintOf(s.subclass_id, s.class_id, s.registry_id, s.class_registry_id, s.cvm_code,
                                  s.constituted_at, s.started_at, s.name, s.status, s.status_since,
                                  s.condominium_type, s.exclusive, s.target_audience, s.pension,
                                  s.exclusive_non_resident, s.exclusive_supplementary_pension);
    }
};

// ---------------------------------------------------------------------------------------------
// Applying one file: scan and rank (pass 1), then write the kept rows (pass 2).

// How one valid row ranks among rows with the same registry id, the documented duplicate rule:
// not cancelled first, then the later date (a missing date ranks lowest); KeepOnePerKey then
// prefers the later line.
using Rank = std::pair<bool, std::optional<std::string>>;  // (not cancelled, date YYYY-MM-DD)

class RegistryApplier {
public:
    RegistryApplier(const sdk::IngestContext& context, const sdk::IngestInputs& inputs,
                    const sdk::DatasetFiles& files, sdk::IngestSummary& summary)
        : context_(context),
          inputs_(inputs),
          files_(files),
          summary_(summary),
          rows_(context.progress, summary),
          rejections_(summary) {}

    // Applies one file and returns the kept rows' ids by registry id (for the children).
    template <typename Traits>
    IdMap Apply(const IdMap& parents) {
        using Object = typename Traits::Object;
        const std::string file(Traits::kFile);
        rows_.Stage(file);

        // Pass 1: validate every row and rank duplicates. Only small records are kept, so
        // memory does not grow with the width of the file.
        sdk::KeepOnePerKey<Rank> by_key;
        {
            sdk::CvmCsvReader reader(Open(file));
            const Row<Traits::kColumns.size()> row(reader, Traits::kColumns);
            while (reader.Next()) {
                rows_.Row();
                if (auto problem = reader.FieldCountProblem()) {
                    rejections_.Reject(file, reader.Line(), *problem);
                    continue;
                }
                try {
                    const Object object = Traits::Parse(row, parents);
                    by_key.Add(Traits::Key(object), reader.Line(),
                               {!Traits::Cancelled(object), Traits::RankDate(object)});
                } catch (const sdk::FieldError& error) {
                    rejections_.Reject(file, reader.Line(), error.Reason());
                } catch (const RowProblem& problem) {
                    rejections_.Reject(file, reader.Line(), problem.what());
                }
            }
        }
        by_key.Resolve([&](std::size_t line, const std::string& key, std::size_t kept) {
            rejections_.Reject(file, line,
                               "duplicate " + std::string(Traits::kKeyColumn) + " " + key + " (kept line " +
                                   std::to_string(kept) + ")");
        });

        // Pass 2: write the kept rows, comparing with what the database holds.
        odb::database& db = context_.db;
        sdk::SnapshotApplier<Object> snapshot(
            summary_, {[&db](const Object& o) { db.persist(o); }, [&db](const Object& o) { db.update(o); },
                       [&db](const std::string& id) { db.erase<Object>(id); }});
        {
            // Every stored row's id and fingerprint, in one query instead of one per row.
            odb::result<Object> stored(db.query<Object>());
            for (const Object& object : stored) {
                snapshot.AddStored(Traits::Id(object), Traits::Fingerprint(object));
            }
        }
        IdMap kept;
        kept.reserve(by_key.Keys());
        rows_.Stage(file + ": saving");
        sdk::CvmCsvReader reader(Open(file));
        const Row<Traits::kColumns.size()> row(reader, Traits::kColumns);
        while (reader.Next()) {
            const std::size_t line = reader.Line();
            if (!by_key.IsKept(line)) {
                continue;
            }
            std::optional<Object> parsed;
            try {
                parsed = Traits::Parse(row, parents);
            } catch (const sdk::FieldError& error) {
                // Pass 1 accepted this line, so the file changed under us.
                throw sdk::IngestError(file, line, "changed while being read: " + error.Reason());
            } catch (const RowProblem& problem) {
                throw sdk::IngestError(file, line,
                                       std::string("changed while being read: ") + problem.what());
            }
            const Object& object = *parsed;
            kept.emplace(Traits::Key(object), Traits::Id(object));
            snapshot.Apply(Traits::Id(object), object, Traits::Fingerprint(object));
        }
        // The registry is a full snapshot: what it no longer carries goes.
        snapshot.RemoveUnseen();
        return kept;
    }

private:
    std::unique_ptr<sdk::ByteSource> Open(const std::string& file) const {
        for (const sdk::TableFile& table : files_.Tables()) {
            if (files_.Spec(table).id == file) {
                return inputs_.Open(table.file);
            }
        }
        throw sdk::IngestError(file, 0, "missing input file " + file);  // RequireComplete() ran
    }

    const sdk::IngestContext& context_;
    const sdk::IngestInputs& inputs_;
    const sdk::DatasetFiles& files_;
    sdk::IngestSummary& summary_;
    sdk::RowCounter rows_;
    sdk::RejectionLog rejections_;
};

}  // namespace

sdk::IngestSummary RegistryIngester::Run(const sdk::IngestContext& context) {
    const sdk::IngestInputs inputs(context.inputs);
    const sdk::DatasetFiles files(inputs, RegistryLayout());
    files.RefuseRepeats();
    files.RequireComplete();

    sdk::IngestSummary summary;
    RegistryApplier applier(context, inputs, files, summary);
    const IdMap funds = applier.Apply<FundTraits>({});
    const IdMap classes = applier.Apply<ClassTraits>(funds);
    applier.Apply<SubclassTraits>(classes);
    // What is derived from the registry is written again when it changed, in this transaction:
    // /v1/fundos's items (domain/rows/fund_list_items.hpp) and SQLite's search rows
    // (domain/search/search_index.hpp), and /v1/screening's rows, which join every
    // month's reports to it (every month built again, the rows that differ written;
    // domain/rows/screening_rows.hpp).
    if (summary.inserted + summary.updated + summary.removed > 0) {
        RebuildFundListItems(context.db);
        RebuildSearchRows(context.db);
        RebuildAllScreening(context.db);
    }

    // The newest modification time of the three files: the date of the snapshot. Zip times are
    // local wall-clock times (DOS format), so the local calendar inverts them.
    std::optional<std::time_t> newest;
    for (const sdk::TableFile& table : files.Tables()) {
        if (auto modified = inputs.ModifiedAt(table.file); modified && (!newest || *modified > *newest)) {
            newest = modified;
        }
    }
    const std::string date = sdk::LocalDate(newest.value_or(context.now));
    summary.release_label = "registro-" + date;
    summary.as_of = date;
    return summary;
}

}  // namespace lastro::funds
