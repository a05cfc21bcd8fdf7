#include "ingest/cad_fi_hist/manager_history_ingester.hpp"

#include "industry_model-odb.hxx"
#include "industry_model.hxx"
#include "ingest/cad_fi_hist/cad_fi_hist_layout.hpp"

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

#include <algorithm>
#include <cstdint>
#include <ctime>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace lastro::industry {

namespace {

// cad_fi_hist_gestor.csv, in the zip or loose. Every other member of the zip is ignored; the
// other members given loose are ignored too (they belong to the dataset but hold nothing we read).
const sdk::DatasetLayout& HistoryLayout() {
    static const sdk::DatasetLayout layout = [] {
        sdk::DatasetLayout l;
        l.dataset = std::string(kManagerHistoryDataset);
        l.expected = std::string(kHistoryZipName) + " or its member " + std::string(kManagerFileName);
        l.tables.push_back({"gestor", sdk::NamePattern(std::string(kManagerFileName))});
        for (std::string_view member : kHistoryMembers) {
            if (member != kManagerFileName) {
                l.ignored.emplace_back(std::string(member));
            }
        }
        return l;
    }();
    return layout;
}

bool IsHistoryMember(std::string_view name) {
    const std::string lower = sdk::LowerAscii(name);
    return std::find(kHistoryMembers.begin(), kHistoryMembers.end(), lower) != kHistoryMembers.end();
}

// A rule of this dataset broken by one row (a FieldError does the same for a malformed value):
// the row is rejected, the file goes on.
class RowProblem : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// True when the 11 digits are a CPF: both check digits right, and not all alike (111.111.111-11
// passes the arithmetic but is no one's CPF).
bool IsValidCpf(std::string_view digits) {
    if (digits.size() != 11 || !sdk::AllDigits(digits) ||
        std::all_of(digits.begin(), digits.end(), [&](char c) { return c == digits[0]; })) {
        return false;
    }
    for (std::size_t check = 9; check <= 10; ++check) {
        int sum = 0;
        for (std::size_t i = 0; i < check; ++i) {
            sum += (digits[i] - '0') * static_cast<int>(check + 1 - i);
        }
        const int digit = (sum * 10) % 11 % 10;
        if (digit != digits[check] - '0') {
            return false;
        }
    }
    return true;
}

// The published columns, found by name in the header (any order, other columns allowed).
struct Columns {
    std::size_t fund, registered, person_type, document, manager, started, ended;

    explicit Columns(const sdk::CsvReader& reader)
        : fund(reader.Require("CNPJ_FUNDO")),
          registered(reader.Require("DT_REG")),
          person_type(reader.Require("PF_PJ_GESTOR")),
          document(reader.Require("CPF_CNPJ_GESTOR")),
          manager(reader.Require("GESTOR")),
          started(reader.Require("DT_INI_GESTOR")),
          ended(reader.Require("DT_FIM_GESTOR")) {}
};

// CPF_CNPJ_GESTOR as digits: a CPF (11 digits) or a CNPJ (14), masked or bare, check digits
// verified; nullopt when blank. Anything else is a FieldError.
std::optional<std::string> ManagerDocument(const sdk::CsvReader& reader, std::size_t column) {
    const std::optional<std::string> text = reader.Text(column);
    if (!text) {
        return std::nullopt;
    }
    std::string digits;
    for (const char c : *text) {
        if (c >= '0' && c <= '9') {
            digits += c;
        } else if (c != '.' && c != '/' && c != '-' && c != ' ') {
            reader.Fail(column, "is not a CPF or CNPJ", *text);
        }
    }
    if (digits.size() == 14) {
        if (!sdk::ParseCnpj(digits).digits) {
            reader.Fail(column, "is not a valid CNPJ", *text);
        }
    } else if (digits.size() == 11) {
        if (!IsValidCpf(digits)) {
            reader.Fail(column, "is not a valid CPF", *text);
        }
    } else {
        reader.Fail(column, "is not a CPF (11 digits) or CNPJ (14 digits)", *text);
    }
    return digits;
}

ManagerSpell Parse(const sdk::CsvReader& reader, const Columns& c) {
    ManagerSpell spell;
    std::optional<std::string> fund = reader.Cnpj(c.fund);
    if (!fund) {
        reader.Fail(c.fund, "is empty");
    }
    spell.fund_cnpj = std::move(*fund);
    spell.registered_at = reader.IsoDate(c.registered);
    spell.person_type = reader.Text(c.person_type);
    spell.manager_document = ManagerDocument(reader, c.document);
    spell.manager = reader.Text(c.manager);
    spell.started_at = reader.IsoDate(c.started);
    spell.ended_at = reader.IsoDate(c.ended);
    // ISO dates compare as text.
    if (spell.started_at && spell.ended_at && *spell.ended_at < *spell.started_at) {
        throw RowProblem("DT_FIM_GESTOR " + *spell.ended_at + " is before DT_INI_GESTOR " +
                         *spell.started_at);
    }
    return spell;
}

// The spell's identity in the snapshot: the fund, its registration, the day the spell began and
// the manager (its document, else its name as published). A changed end date, name or person type
// updates the spell; anything else is another spell. Written to be read in messages.
std::string SpellKey(const ManagerSpell& s) {
    std::string key = "fund " + s.fund_cnpj + " registered " + s.registered_at.value_or("-") + " from " +
                      s.started_at.value_or("-") + " manager ";
    if (s.manager_document) {
        key += *s.manager_document;
    } else if (s.manager) {
        key += "'" + *s.manager + "'";
    } else {
        key += "-";
    }
    return key;
}

std::uint64_t Fingerprint(const ManagerSpell& s) {
    return sdk::FingerprintOf(s.fund_cnpj, s.registered_at, s.person_type, s.manager_document, s.manager,
                              s.started_at, s.ended_at);
}

// Among rows of one spell the one with the later end is kept (an end beats no end: the closed
// spell is the newer news), then the later line.
using Rank = std::optional<std::string>;

class HistoryApplier {
public:
    HistoryApplier(const sdk::IngestContext& context, const sdk::IngestInputs& inputs,
                   sdk::IngestSummary& summary)
        : context_(context),
          inputs_(inputs),
          summary_(summary),
          rows_(context.progress, summary),
          rejections_(summary) {}

    sdk::RejectionLog& Rejections() { return rejections_; }

    void Apply(const sdk::TableFile& table) {
        // Pass 1: validate every row and rank repeated spells; only the keys are kept.
        sdk::KeepOnePerKey<Rank> by_key;
        {
            sdk::CvmCsvReader reader(inputs_.Open(table.file));
            rows_.Stage(reader.SourceName());
            const Columns columns(reader);
            while (reader.Next()) {
                rows_.Row();
                if (auto problem = reader.FieldCountProblem()) {
                    rejections_.Reject(reader.SourceName(), reader.Line(), *problem);
                    continue;
                }
                try {
                    const ManagerSpell spell = Parse(reader, columns);
                    by_key.Add(SpellKey(spell), reader.Line(), spell.ended_at);
                } catch (const sdk::FieldError& error) {
                    rejections_.Reject(reader.SourceName(), reader.Line(), error.Reason());
                } catch (const RowProblem& problem) {
                    rejections_.Reject(reader.SourceName(), reader.Line(), problem.what());
                }
            }
        }
        const std::string source = table.file.display;
        by_key.Resolve([&](std::size_t line, const std::string& key, std::size_t kept) {
            rejections_.Reject(source, line,
                               "duplicate spell (" + key + "), kept line " + std::to_string(kept));
        });

        // Pass 2: write the kept rows, comparing with what the table holds.
        odb::database& db = context_.db;
        std::unordered_map<std::string, std::int64_t> stored_ids;
        sdk::SnapshotApplier<ManagerSpell> snapshot(summary_, {[&db](const ManagerSpell& s) {
                                                                   ManagerSpell row = s;
                                                                   db.persist(row);
                                                               },
                                                               [&db](const ManagerSpell& s) { db.update(s); },
                                                               [&db, &stored_ids](const std::string& key) {
                                                                   db.erase<ManagerSpell>(stored_ids.at(key));
                                                               }});
        {
            std::vector<std::int64_t> repeated;
            odb::result<ManagerSpell> stored(db.query<ManagerSpell>());
            for (const ManagerSpell& spell : stored) {
                const std::string key = SpellKey(spell);
                if (!stored_ids.emplace(key, spell.id).second) {
                    repeated.push_back(spell.id);  // not written by this ingester: one per key stays
                    continue;
                }
                snapshot.AddStored(key, Fingerprint(spell));
            }
            for (const std::int64_t id : repeated) {
                db.erase<ManagerSpell>(id);
            }
            summary_.removed += repeated.size();
        }
        rows_.Stage(source + ": saving");
        sdk::CvmCsvReader reader(inputs_.Open(table.file));
        const Columns columns(reader);
        while (reader.Next()) {
            const std::size_t line = reader.Line();
            if (!by_key.IsKept(line)) {
                continue;
            }
            std::optional<ManagerSpell> parsed;
            try {
                parsed = Parse(reader, columns);
            } catch (const sdk::FieldError& error) {
                // Pass 1 accepted this line, so the file changed under us.
                throw sdk::IngestError(source, line, "changed while being read: " + error.Reason());
            } catch (const RowProblem& problem) {
                throw sdk::IngestError(source, line,
                                       std::string("changed while being read: ") + problem.what());
            }
            ManagerSpell& spell = *parsed;
            const std::string key = SpellKey(spell);
            if (auto it = stored_ids.find(key); it != stored_ids.end()) {
                spell.id = it->second;
            }
            snapshot.Apply(key, spell, Fingerprint(spell));
        }
        // A full snapshot: the spells the file no longer lists go.
        snapshot.RemoveUnseen();
    }

private:
    const sdk::IngestContext& context_;
    const sdk::IngestInputs& inputs_;
    sdk::IngestSummary& summary_;
    sdk::RowCounter rows_;
    sdk::RejectionLog rejections_;
};

}  // namespace

sdk::IngestSummary ManagerHistoryIngester::Run(const sdk::IngestContext& context) {
    const sdk::IngestInputs inputs(context.inputs);
    const sdk::DatasetFiles files(inputs, HistoryLayout());
    if (files.Tables().empty() && !files.Ignored().empty()) {
        // Only other members given loose ("no input files" would not say what is missing).
        throw sdk::IngestError(files.Ignored().front(), 0,
                               "no " + std::string(kManagerFileName) +
                                   " among the inputs: " + std::string(kManagerHistoryDataset) +
                                   " reads that member of " + std::string(kHistoryZipName) + " only");
    }
    files.RefuseRepeats();
    files.RequireComplete();

    sdk::IngestSummary summary;
    HistoryApplier applier(context, inputs, summary);
    // The zip's other 18 members are expected and left alone silently; anything else is named.
    for (const std::string& ignored : files.Ignored()) {
        const std::string name = ignored.substr(ignored.find_last_of(":/") + 1);
        if (!IsHistoryMember(name)) {
            applier.Rejections().Notice(ignored + ": ignored, not a member of " +
                                        std::string(kHistoryZipName));
        }
    }
    const sdk::TableFile& table = files.Tables().front();  // exactly one: RefuseRepeats, RequireComplete
    applier.Apply(table);

    // The release is the date CVM generated the file (the member's stored time, or the loose
    // file's), as for the registry: DT_REG is a fund's registration, not the data's date.
    const std::string date = sdk::LocalDate(inputs.ModifiedAt(table.file).value_or(context.now));
    summary.release_label = "cad_fi_hist-" + date;
    summary.as_of = date;
    summary.periods = std::nullopt;  // the aggregates attribute every month again
    return summary;
}

}  // namespace lastro::industry
