// lastro: the admin command line (docs/cli.md). Errors are one line on stderr and a non-zero
// exit; `keys create` prints only the new key on stdout so scripts can capture it.
#include "core/auth/api_keys.hpp"
#include "core/billing/credit_ledger.hpp"
#include "core/catalog/openapi_document.hpp"
#include "core/ingest/ingest_runner.hpp"
#include "core/ingest/release_catalog.hpp"
#include "core/runtime/cursor_secret.hpp"
#include "core/runtime/runtime.hpp"
#include "core/sample/sample_set.hpp"
#include "core/storage/billing_model.hxx"
#include "core/storage/core_model.hxx"
#include "core/storage/database.hpp"
#include "core/sync/sync_runner.hpp"

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/json_text.hpp>

#include <CLI/CLI.hpp>
#include <odb/transaction.hxx>

#include <unistd.h>
#include <charconv>
#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

namespace {

using lastro::runtime::Boot;

int Migrate() {
    auto runtime = Boot();
    for (const auto& r : lastro::runtime::MigrateAll(*runtime)) {
        if (r.from == r.to) {
            std::fprintf(stderr, "schema %s: at version %llu\n", r.schema.c_str(), r.to);
        } else if (r.from == 0) {
            std::fprintf(stderr, "schema %s: created at version %llu\n", r.schema.c_str(), r.to);
        } else {
            std::fprintf(stderr, "schema %s: migrated %llu -> %llu\n", r.schema.c_str(), r.from, r.to);
        }
    }
    return 0;
}

// The OpenAPI document lastrod serves at /openapi.json, from the manifests alone (no database):
// what ./dev clients generates the typed clients from (docs/clients.md).
int PrintOpenApi() {
    auto runtime = Boot(false);
    std::printf("%s\n", lastro::sdk::WriteJson(lastro::catalog::OpenApiDocument(
                                                   *runtime->plugins, runtime->config.server.base_url))
                            .c_str());
    return 0;
}

int ListPlugins() {
    auto runtime = Boot(false);
    for (const auto& p : runtime->plugins->Plugins()) {
        const auto& m = p->manifest;
        std::printf("%s %s  (%s)\n", m.name.c_str(), m.version.c_str(), m.file.string().c_str());
        for (const auto& r : m.requires_plugins) {
            std::printf("  requires  %-22s %s\n", r.plugin.c_str(), r.versions.Text().c_str());
        }
        for (const auto& [name, service] : runtime->plugins->Services()) {
            if (service.plugin == m.name) {
                std::printf("  service   %-22s identity %s\n", name.c_str(), service.identity.c_str());
            }
        }
        for (const auto& op : m.operations) {
            std::printf("  operation %-22s GET %-50s price %-3lld scope %s\n", op.id.c_str(), op.path.c_str(),
                        static_cast<long long>(op.price), op.scope.c_str());
        }
        for (const auto& ds : m.datasets) {
            std::string from;
            for (const auto& source : ds.derived_from) {
                from += (from.empty() ? " (derived from " : ", ") + source;
            }
            std::printf("  dataset   %-22s %s%s\n", ds.id.c_str(), ds.description.c_str(),
                        from.empty() ? "" : (from + ")").c_str());
        }
    }
    return 0;
}

// The paths the configuration resolves to (environment overrides applied), one "name value" per
// line: what an operator checks, and what ./dev checks against what it shares with the build
// root. A PostgreSQL connection string is not printed (it may hold a password).
int ShowConfig() {
    const lastro::config::Config config = lastro::config::LoadConfig(lastro::runtime::kDefaultConfigFile);
    std::printf("config %s\n", config.file.string().c_str());
    std::printf("data_dir %s\n", config.data_dir.string().c_str());
    if (config.database.backend == lastro::config::Backend::kSqlite) {
        std::printf("database sqlite\nsqlite_path %s\nsqlite_billing_path %s\n",
                    config.database.sqlite_path.string().c_str(),
                    config.database.sqlite_billing_path.string().c_str());
    } else {
        std::printf("database pgsql\n");
    }
    for (const auto& dir : config.plugins.manifest_dirs) {
        std::printf("manifest_dir %s\n", dir.string().c_str());
    }
    std::printf("cursor_secret_file %s\n", config.cursors.secret_file.string().c_str());
    if (config.log.access_log != "stderr" && config.log.access_log != "off") {
        std::printf("access_log %s\n", config.log.access_log.c_str());
    }
    return 0;
}

// A new cursor signing secret; the previous one stays accepted unless `no_overlap` (a leaked
// secret). Running lastrod instances read the file at start (docs/operations.md).
int RotateCursors(bool no_overlap) {
    auto runtime = Boot();
    lastro::runtime::RequireMigrated(*runtime);
    const auto& file = runtime->config.cursors.secret_file;
    lastro::runtime::EnsureCursorSecrets(*runtime->db, file, false);
    const auto secrets = lastro::runtime::RotateCursorSecrets(file, !no_overlap);
    std::fprintf(
        stderr,
        "lastro: a new cursor secret signs in %s%s; copy the file to every instance on this database "
        "and restart each lastrod\n",
        file.string().c_str(),
        secrets.size() > 1 ? " (the previous one is still accepted until the next rotation)"
                           : " (cursors issued before are refused)");
    return 0;
}

int CreateKey(const lastro::auth::NewKeyRequest& request) {
    auto runtime = Boot();
    lastro::runtime::RequireMigrated(*runtime);
    lastro::auth::KeyStore keys(*runtime->db);
    auto created = keys.Create(request);
    std::fprintf(stderr, "created key %lld (%s)\n", static_cast<long long>(created.id), request.name.c_str());
    std::printf("%s\n", created.secret.c_str());
    return 0;
}

int ListKeys() {
    auto runtime = Boot();
    lastro::runtime::RequireMigrated(*runtime);
    lastro::auth::KeyStore keys(*runtime->db);
    std::printf("%-5s %-20s %-14s %-16s %-10s %-8s %-21s %s\n", "ID", "NAME", "PREFIX", "SCOPES", "CREDITS",
                "RATE", "CREATED", "REVOKED");
    for (const auto& k : keys.List()) {
        std::printf("%-5lld %-20s %-14s %-16s %-10s %-8s %-21s %s\n", static_cast<long long>(k.id),
                    k.name.c_str(), (k.display_prefix + "...").c_str(), k.scopes.c_str(),
                    k.monthly_credits ? std::to_string(*k.monthly_credits).c_str() : "default",
                    k.calls_per_minute ? std::to_string(*k.calls_per_minute).c_str() : "default",
                    k.created_at.c_str(), k.revoked_at.value_or("-").c_str());
    }
    return 0;
}

int RevokeKey(long long id) {
    auto runtime = Boot();
    lastro::runtime::RequireMigrated(*runtime);
    lastro::auth::KeyStore keys(*runtime->db);
    if (!keys.Revoke(id)) {
        std::fprintf(stderr, "lastro: no key with id %lld\n", id);
        return 1;
    }
    std::fprintf(stderr, "revoked key %lld\n", id);
    return 0;
}

int CheckKey(const std::string& secret) {
    auto runtime = Boot();
    lastro::runtime::RequireMigrated(*runtime);
    lastro::auth::KeyStore keys(*runtime->db);
    if (!keys.Authenticate(secret)) {
        std::fprintf(stderr, "lastro: the key is not valid (unknown, revoked or malformed)\n");
        return 1;
    }
    return 0;
}

// "YYYY-MM" as given, or the current UTC month; throws on anything else.
std::string MonthArgument(const std::string& month) {
    if (month.empty()) {
        return lastro::billing::MonthOf(std::time(nullptr));
    }
    const bool shaped = month.size() == 7 && month[4] == '-' &&
                        month.find_first_not_of("0123456789", 0) == 4 &&
                        month.find_first_not_of("0123456789", 5) == std::string::npos;
    if (!shaped || month.substr(5) < "01" || month.substr(5) > "12") {
        throw std::runtime_error("--month must be YYYY-MM, found '" + month + "'");
    }
    return month;
}

// The month's credits of one key: what the usage row says and what the ledger adds up to (the
// two agree unless something is wrong; docs/billing.md).
int KeyUsage(long long id, const std::string& month_text) {
    const std::string month = MonthArgument(month_text);
    auto runtime = Boot();
    lastro::runtime::RequireMigrated(*runtime);
    const auto usage = lastro::billing::UsageOf(runtime->Billing(), id, month);
    std::printf("key %lld month %s\n", id, month.c_str());
    std::printf("charged %lld\nreserved %lld\nleased %lld\n", static_cast<long long>(usage.charged),
                static_cast<long long>(usage.reserved), static_cast<long long>(usage.leased));
    std::printf("ledger_charged %lld\nledger_reserved %lld\nledger_entries %lld\n",
                static_cast<long long>(usage.ledger_charged), static_cast<long long>(usage.ledger_reserved),
                static_cast<long long>(usage.calls));
    return 0;
}

// The month's ledger entries, tab-separated with a header line, for audits and support.
int Ledger(const std::string& month_text, std::optional<long long> key) {
    const std::string month = MonthArgument(month_text);
    auto runtime = Boot();
    lastro::runtime::RequireMigrated(*runtime);
    std::printf("request_id\tkey_id\toperation\tprice\tstate\tstatus\treserved_at\tsettled_at\tinstance\n");
    for (const auto& e : lastro::billing::EntriesOf(runtime->Billing(), month, key)) {
        std::printf("%s\t%lld\t%s\t%lld\t%s\t%s\t%s\t%s\t%s\n", e.request_id.c_str(),
                    static_cast<long long>(e.key_id), e.operation.c_str(), static_cast<long long>(e.price),
                    e.state.c_str(), e.status ? std::to_string(*e.status).c_str() : "-",
                    e.reserved_at.c_str(), e.settled_at.value_or("-").c_str(),
                    e.instance.value_or("-").c_str());
    }
    return 0;
}

void PrintOutcomes(const lastro::ingest::IngestOutcomes& outcomes) {
    for (const auto& outcome : outcomes) {
        const auto& s = outcome.summary;
        if (outcome.source.empty()) {
            std::fprintf(stderr, "%s: release %s (%.2f s): ", outcome.dataset.c_str(),
                         outcome.release_label.c_str(), outcome.seconds);
        } else {
            std::fprintf(stderr, "%s: derived from %s, release %s (%.2f s): ", outcome.dataset.c_str(),
                         outcome.source.c_str(), outcome.release_label.c_str(), outcome.seconds);
        }
        std::fprintf(stderr,
                     "%zu rows read, %zu inserted, %zu updated, %zu unchanged, %zu removed, %zu rejected",
                     s.rows_read, s.inserted, s.updated, s.unchanged, s.removed, s.rejected);
        std::fprintf(stderr, "; periods: %s\n", lastro::ingest::DescribePeriods(s.periods).c_str());
        for (const auto& reason : s.rejections) {
            std::fprintf(stderr, "  rejected: %s\n", reason.c_str());
        }
        if (s.rejected > s.rejections.size()) {
            std::fprintf(stderr, "  ... and %zu more rejections\n", s.rejected - s.rejections.size());
        }
    }
}

// A runtime ready to write data: migrated, and its plugins started (derivations may use
// services, which plugins set up when they start).
std::unique_ptr<lastro::runtime::Runtime> BootForData() {
    auto runtime = Boot();
    lastro::runtime::RequireMigrated(*runtime);
    runtime->plugins->StartAll();
    return runtime;
}

// One dataset's ingest (and what derives from it), then the summary on stderr.
void IngestAndReport(lastro::runtime::Runtime& runtime, const std::string& dataset,
                     const std::vector<std::filesystem::path>& inputs) {
    lastro::ingest::IngestOutcomes outcomes;
    {
        lastro::ingest::ConsoleProgress progress(isatty(STDERR_FILENO) != 0);
        outcomes = lastro::ingest::RunIngest(*runtime.db, *runtime.plugins, dataset, inputs, progress);
    }
    PrintOutcomes(outcomes);
}

int Ingest(const std::string& dataset, const std::vector<std::string>& paths) {
    auto runtime = BootForData();
    IngestAndReport(*runtime, dataset, std::vector<std::filesystem::path>(paths.begin(), paths.end()));
    return 0;
}

// Fetches what the manifests' sync: declare and ingests what changed (docs/sync.md). Exit 0
// when every file was fetched, unchanged or not published yet; 1 when any failed.
int Sync(const std::vector<std::string>& datasets) {
    auto runtime = BootForData();
    const lastro::sync::Fetcher fetcher(runtime->config.sync);
    lastro::sync::SyncOutput output;
    output.line = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
    output.ingested = [](const lastro::ingest::IngestOutcomes& outcomes) { PrintOutcomes(outcomes); };
    const lastro::sync::SyncResult result = lastro::sync::RunSync(
        *runtime, datasets, lastro::storage::FormatUtc(std::time(nullptr), "%Y-%m-%d"), fetcher, output);
    for (const std::string& error : result.errors) {
        std::fprintf(stderr, "lastro: %s\n", error.c_str());
    }
    std::fprintf(stderr, "sync: %zu fetched, %zu unchanged, %zu not published, %zu failed\n", result.fetched,
                 result.unchanged, result.not_published, result.errors.size());
    return result.errors.empty() ? 0 : 1;
}

int Derive(const std::string& dataset) {
    auto runtime = BootForData();
    lastro::ingest::IngestOutcomes outcomes;
    {
        lastro::ingest::ConsoleProgress progress(isatty(STDERR_FILENO) != 0);
        outcomes = lastro::ingest::RunDerivation(*runtime->db, *runtime->plugins, dataset, progress);
    }
    PrintOutcomes(outcomes);
    return 0;
}

// Every dataset of a sample directory that declares `scale`, in dependency order, each in its
// own transaction; with `skip_ingested`, datasets that have a data release already are left alone.
int IngestSample(const std::string& dir, lastro::sdk::SampleScale scale, bool skip_ingested) {
    auto runtime = BootForData();
    for (const auto& input : lastro::sample::FindSampleInputs(*runtime->plugins, dir, scale)) {
        if (skip_ingested) {
            odb::transaction t(runtime->db->begin());
            const auto release = lastro::ingest::ReleaseCatalog(*runtime->db).LatestRelease(input.dataset);
            t.commit();
            if (release) {
                std::fprintf(stderr, "%s: already ingested (release %s), skipped\n", input.dataset.c_str(),
                             release->label.c_str());
                continue;
            }
        }
        IngestAndReport(*runtime, input.dataset, input.files);
    }
    return 0;
}

// `--months N`: a whole number from 1 to sdk::kMaxSampleMonths; nullopt when not given.
std::optional<int> SampleMonths(const std::string& text) {
    if (text.empty()) {
        return std::nullopt;
    }
    int months = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), months);
    if (error != std::errc() || end != text.data() + text.size() || months < 1 ||
        months > lastro::sdk::kMaxSampleMonths) {
        throw std::runtime_error("--months takes a whole number of months from 1 to " +
                                 std::to_string(lastro::sdk::kMaxSampleMonths) + ", not '" + text + "'");
    }
    return months;
}

// Every loaded plugin's sample writer, then what each wrote.
int Sample(const std::string& out, std::uint64_t seed, lastro::sdk::SampleScale scale,
           std::optional<int> months) {
    auto runtime = Boot(false);
    std::size_t files = 0;
    lastro::sdk::SampleRequest request{out, seed, scale, months};
    for (const auto& sample : lastro::sample::WriteSamples(*runtime->plugins, request)) {
        std::string counts;
        for (const auto& count : sample.report.counts) {
            counts += (counts.empty() ? ": " : ", ") + std::to_string(count.count) + " " + count.name;
        }
        std::fprintf(stderr, "%s%s (%zu files)\n", sample.plugin.c_str(), counts.c_str(),
                     sample.report.files.size());
        for (const auto& note : sample.report.notes) {
            std::fprintf(stderr, "  %s\n", note.c_str());
        }
        files += sample.report.files.size();
    }
    const std::string months_text = months ? ", " + std::to_string(*months) + " months" : "";
    std::fprintf(stderr, "sample written to %s: %zu files, scale %s, seed %llu%s\n", out.c_str(), files,
                 std::string(lastro::sdk::SampleScaleName(scale)).c_str(),
                 static_cast<unsigned long long>(seed), months_text.c_str());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"lastro: administer a Lastro server (database, keys, plugins, data)"};
    app.require_subcommand(1);
    std::function<int()> action;

    auto* db = app.add_subcommand("db", "Database schema");
    db->require_subcommand(1);
    db->add_subcommand("migrate", "Create or migrate the core and plugin schemas")->callback([&] {
        action = Migrate;
    });

    app.add_subcommand("config", "Print the paths the configuration resolves to (environment applied)")
        ->callback([&] { action = ShowConfig; });

    app.add_subcommand("plugins",
                       "List plugins, their operations and datasets; non-zero exit on any invalid manifest")
        ->callback([&] { action = ListPlugins; });
    app.add_subcommand("openapi", "Print the OpenAPI document lastrod serves at /openapi.json (no database)")
        ->callback([&] { action = PrintOpenApi; });

    auto* keys = app.add_subcommand("keys", "API keys");
    keys->require_subcommand(1);
    lastro::auth::NewKeyRequest request;
    std::string scopes;
    auto* create = keys->add_subcommand("create", "Create a key and print it (only it) on stdout");
    create->add_option("--name", request.name, "A name for the key")->required();
    create
        ->add_option("--credits", request.monthly_credits, "Monthly credit allowance (default: the policy's)")
        ->check(CLI::NonNegativeNumber);
    create->add_option("--rate", request.calls_per_minute, "Calls per minute (default: the policy's)")
        ->check(CLI::PositiveNumber);
    create->add_option("--scopes", scopes, "Comma-separated scopes (default: every scope)");
    create->callback([&] {
        std::stringstream in(scopes);
        std::string scope;
        while (std::getline(in, scope, ',')) {
            if (!scope.empty())
                request.scopes.push_back(scope);
        }
        action = [&] { return CreateKey(request); };
    });
    keys->add_subcommand("list", "List keys (never their secrets)")->callback([&] { action = ListKeys; });
    long long revoke_id = 0;
    auto* revoke = keys->add_subcommand("revoke", "Revoke a key by id");
    revoke->add_option("ID", revoke_id, "Key id (see keys list)")->required();
    revoke->callback([&] { action = [&] { return RevokeKey(revoke_id); }; });
    std::string check_secret;
    auto* check = keys->add_subcommand("check", "Exit 0 when KEY is a valid, unrevoked key");
    check->add_option("KEY", check_secret)->required();
    check->callback([&] { action = [&] { return CheckKey(check_secret); }; });

    long long usage_id = 0;
    std::string usage_month;
    auto* usage = keys->add_subcommand("usage", "A key's credits for a month: usage row and ledger sums");
    usage->add_option("ID", usage_id, "Key id (see keys list)")->required();
    usage->add_option("--month", usage_month, "YYYY-MM (default: this month, UTC)");
    usage->callback([&] { action = [&] { return KeyUsage(usage_id, usage_month); }; });

    auto* cursors = app.add_subcommand("cursors", "The secret that signs pagination cursors");
    cursors->require_subcommand(1);
    bool no_overlap = false;
    auto* rotate = cursors->add_subcommand(
        "rotate", "Make a new signing secret; the previous one stays accepted until the next rotation");
    rotate->add_flag("--no-overlap", no_overlap,
                     "Accept only the new secret (a leaked secret): every cursor issued before is refused");
    rotate->callback([&] { action = [&] { return RotateCursors(no_overlap); }; });

    std::string ledger_month;
    std::optional<long long> ledger_key;
    auto* ledger = app.add_subcommand("ledger", "Print a month's billed calls, one per line (tab-separated)");
    ledger->add_option("--month", ledger_month, "YYYY-MM (default: this month, UTC)");
    ledger->add_option("--key", ledger_key, "Only this key id");
    ledger->callback([&] { action = [&] { return Ledger(ledger_month, ledger_key); }; });

    std::string dataset;
    std::vector<std::string> paths;
    std::string sample_dir;
    std::string ingest_scale = "sample";
    bool skip_ingested = false;
    auto* ingest = app.add_subcommand("ingest", "Load a dataset from its official files, or a whole sample");
    ingest->add_option("DATASET", dataset, "Dataset id (see lastro plugins)");
    ingest->add_option("PATH", paths, "Files (zip or CSV) as published");
    auto* ingest_sample =
        ingest->add_option("--sample", sample_dir,
                           "A directory `lastro sample` wrote: every dataset that declares sample files, in "
                           "dependency order, instead of DATASET PATH...");
    ingest->add_option("--scale", ingest_scale, "The sample's scale: sample (default) or full")
        ->check(CLI::IsMember({"sample", "full"}))
        ->needs(ingest_sample);
    ingest->add_flag("--skip-ingested", skip_ingested, "Leave out datasets that have a data release already")
        ->needs(ingest_sample);
    ingest->callback([&] {
        if (!sample_dir.empty()) {
            if (!dataset.empty()) {
                throw CLI::ValidationError("--sample", "takes no DATASET or PATH");
            }
            action = [&] {
                return IngestSample(sample_dir, *lastro::sdk::ParseSampleScale(ingest_scale), skip_ingested);
            };
        } else {
            if (dataset.empty() || paths.empty()) {
                throw CLI::RequiredError("DATASET and PATH (or --sample DIR)");
            }
            action = [&] { return Ingest(dataset, paths); };
        }
    });

    std::vector<std::string> sync_datasets;
    auto* sync = app.add_subcommand(
        "sync", "Fetch the datasets' files from their official URLs and ingest what changed");
    sync->add_option("DATASET", sync_datasets,
                     "Datasets to sync (default: every dataset whose manifest declares sync:)");
    sync->callback([&] { action = [&] { return Sync(sync_datasets); }; });

    std::string derived;
    auto* derive = app.add_subcommand(
        "derive", "Rebuild a derived dataset whole from its sources (and what derives from it)");
    derive->add_option("DATASET", derived, "A dataset the manifests declare with derived_from")->required();
    derive->callback([&] { action = [&] { return Derive(derived); }; });

    std::string out;
    std::uint64_t seed = lastro::sdk::kDefaultSampleSeed;
    auto* sample = app.add_subcommand(
        "sample", "Write every plugin's deterministic sample data in the datasets' real file formats");
    sample->add_option("--out", out, "Output directory")->required();
    sample->add_option("--seed", seed, "Seed (same seed, same bytes)");
    std::string scale = "sample";
    sample
        ->add_option("--scale", scale,
                     "sample (default): small, every dataset; full: the size of the real files, for "
                     "benchmarks (the datasets whose manifests declare it)")
        ->check(CLI::IsMember({"sample", "full"}));
    std::string months;
    sample->add_option("--months", months,
                       "Months of history, ending at the reference month, that the monthly datasets cover (1 "
                       "to 240; default: each plugin's)");
    sample->callback([&] {
        action = [&] {
            const std::optional<int> history = SampleMonths(months);  // before anything is written
            return Sample(out, seed, *lastro::sdk::ParseSampleScale(scale), history);
        };
    });

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    try {
        return action ? action() : 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "lastro: %s\n", e.what());
        return 1;
    }
}
