#include "support/deployment.hpp"

#include <gtest/gtest.h>
#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace lastro::e2e {
namespace {

namespace fs = std::filesystem;

// A YAML double-quoted scalar.
std::string Quote(const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') {
            out.push_back('\\');
        }
        out.push_back(c);
    }
    return out + "\"";
}

void Require(const CommandResult& result, const std::string& what) {
    if (result.exit_code != 0 || result.timed_out) {
        throw std::runtime_error(what + " failed: " + result.Describe());
    }
}

void WriteFile(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) {
        throw std::runtime_error("cannot write " + path.string());
    }
}

}  // namespace

std::string BackendName(Backend backend) {
    return backend == Backend::kSqlite ? "sqlite" : "postgres";
}

void PrintTo(Backend backend, std::ostream* os) {
    *os << BackendName(backend);
}

fs::path BinaryPath(const std::string& name) {
    return fs::path(LASTRO_BINARY_DIR) / "bin" / name;
}

SharedResources& SharedResources::Get() {
    static SharedResources shared;
    return shared;
}

const fs::path& SharedResources::TempRoot() {
    if (root_.empty()) {
        root_ = MakeTempDir("lastro-e2e-");
    }
    return root_;
}

const fs::path& SharedResources::SampleDir() {
    if (sample_.empty()) {
        // `lastro sample` runs the sample writers of the plugins its configuration loads.
        const fs::path config = TempRoot() / "sample.yaml";
        WriteFile(config, "plugins:\n  manifest_dirs: [" + Quote(LASTRO_PLUGIN_DIR) + "]\n");
        const fs::path dir = TempRoot() / "sample";
        CommandOptions options;
        options.env = {"LASTRO_CONFIG=" + config.string()};
        Require(RunCommand({BinaryPath("lastro").string(), "sample", "--out", dir.string()}, options),
                "lastro sample");
        sample_ = dir;
    }
    return sample_;
}

PostgresCluster& SharedResources::Postgres() {
    if (postgres_error_) {
        throw std::runtime_error(*postgres_error_);
    }
    if (!postgres_) {
        try {
            postgres_ = PostgresCluster::Start();
        } catch (const std::exception& e) {
            postgres_error_ = std::string("PostgreSQL could not be started: ") + e.what();
            throw std::runtime_error(*postgres_error_);
        }
    }
    return *postgres_;
}

void SharedResources::Release() {
    postgres_.reset();  // fast shutdown, then its directory is deleted
    if (!root_.empty()) {
        const char* keep = std::getenv("LASTRO_E2E_KEEP");
        if (keep && *keep && std::string(keep) != "0") {
            std::fprintf(stderr, "e2e: kept %s (LASTRO_E2E_KEEP)\n", root_.c_str());
        } else {
            std::error_code ignored;
            fs::remove_all(root_, ignored);
        }
        root_.clear();
        sample_.clear();
    }
}

std::unique_ptr<Lastrod> Lastrod::Start(const fs::path& config) {
    auto server = std::make_unique<Lastrod>();
    CommandOptions options;
    options.env = {"LASTRO_CONFIG=" + config.string()};
    server->process_ = ChildProcess::Start({BinaryPath("lastrod").string()}, options);
    static constexpr std::string_view kListening = ": listening on http://127.0.0.1:";
    auto line = server->process_->WaitForLine(
        [](std::string_view l) {
            return l.rfind("lastrod ", 0) == 0 && l.find(kListening) != std::string_view::npos;
        },
        std::chrono::seconds(60));
    if (!line) {
        server->process_->Kill();
        throw std::runtime_error("lastrod did not report its port:\n" + server->process_->Output());
    }
    const std::size_t at = line->find(kListening);
    server->version_ = line->substr(8, at - 8);
    const std::string port = line->substr(at + kListening.size());
    if (port.empty() || port.find_first_not_of("0123456789") != std::string::npos || port.size() > 5) {
        throw std::runtime_error("lastrod reported no port: " + *line);
    }
    server->port_ = static_cast<std::uint16_t>(std::stoi(port));
    return server;
}

std::optional<int> Lastrod::Terminate(std::chrono::milliseconds timeout) {
    process_->Signal(SIGTERM);
    return process_->WaitForExit(timeout);
}

std::optional<int> Lastrod::Kill() {
    process_->Signal(SIGKILL);
    return process_->WaitForExit(std::chrono::seconds(30));
}

Deployment::Deployment(Backend backend, const std::string& label, const fs::path& sqlite_dir,
                       const std::vector<fs::path>& extra_plugin_dirs)
    : backend_(backend) {
    plugin_dirs_.push_back(LASTRO_PLUGIN_DIR);
    plugin_dirs_.insert(plugin_dirs_.end(), extra_plugin_dirs.begin(), extra_plugin_dirs.end());
    SharedResources& shared = SharedResources::Get();
    dir_ = shared.TempRoot() / (label + "-" + BackendName(backend));
    fs::create_directories(dir_);
    access_log_ = dir_ / "access.log";
    instance_ = "e2e-" + label + "-" + BackendName(backend);
    if (backend == Backend::kSqlite) {
        const fs::path database = (sqlite_dir.empty() ? dir_ : sqlite_dir) / "lastro.db";
        database_yaml_ =
            "database:\n  backend: sqlite\n  sqlite:\n    path: " + Quote(database.string()) + "\n";
    } else {
        const std::string uri = shared.Postgres().CreateDatabase("lastro_" + label);
        database_yaml_ = "database:\n  backend: pgsql\n  pgsql:\n    conninfo: " + Quote(uri) + "\n";
    }
    config_file_ = WriteConfig("lastro.yaml", access_log_, "", instance_);
    try {
        Require(Lastro({"db", "migrate"}), "lastro db migrate");
        IngestSample();
        server_ = Lastrod::Start(config_file_);
    } catch (const std::exception& e) {
        if (backend == Backend::kSqlite) {
            throw;
        }
        throw std::runtime_error(std::string(e.what()) + "\n--- PostgreSQL log ---\n" +
                                 shared.Postgres().LogTail());
    }
    http_ = std::make_unique<HttpClient>(server_->Port());
}

Deployment::~Deployment() {
    http_.reset();
    if (server_ && !server_->Terminate(std::chrono::seconds(15))) {
        server_->Process().Kill();
    }
}

Deployment::ServerAside Deployment::SetServerAsideOnSqlite() {
    if (backend_ != Backend::kSqlite) {
        return ServerAside(nullptr);
    }
    http_.reset();
    if (!server_->Terminate(std::chrono::seconds(15))) {
        server_->Process().Kill();
    }
    server_.reset();
    return ServerAside(this);
}

Deployment::ServerAside::~ServerAside() {
    if (!d_) {
        return;
    }
    try {
        d_->server_ = Lastrod::Start(d_->config_file_);
        d_->http_ = std::make_unique<HttpClient>(d_->server_->Port());
    } catch (const std::exception& e) {
        ADD_FAILURE() << "the deployment's lastrod did not start again: " << e.what();
    }
}

void Deployment::IngestSample() const {
    // Every dataset of the sample through the real CLI, as ./dev run does.
    Require(Lastro({"ingest", "--sample", SharedResources::Get().SampleDir().string()}),
            "lastro ingest --sample");
}

std::vector<std::string> SampleFiles(const std::string& prefix, const std::string& extension) {
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(SharedResources::Get().SampleDir())) {
        const std::string name = entry.path().filename().string();
        if (name.rfind(prefix, 0) == 0 && entry.path().extension() == extension) {
            files.push_back(name);
        }
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) {
        throw std::runtime_error("the sample has no " + prefix + "*" + extension + " file");
    }
    return files;
}

fs::path Deployment::SampleZip() const {
    return SharedResources::Get().SampleDir() / "registro_fundo_classe.zip";
}

std::string Deployment::ConfigText(const fs::path& access_log, const std::string& instance) const {
    std::string text;
    text += "server:\n";
    text += "  listen: \"127.0.0.1:0\"\n";
    text += "  threads: 2\n";
    text += "  base_url: " + Quote(kBaseUrl) + "\n";
    text += "  instance: " + Quote(instance.empty() ? instance_ : instance) + "\n";
    text += "data_dir: " + Quote((dir_ / "var").string()) + "\n";
    text += database_yaml_;
    text += "plugins:\n";
    std::string dirs;
    for (const fs::path& dir : plugin_dirs_) {
        dirs += (dirs.empty() ? "" : ", ") + Quote(dir.string());
    }
    text += "  manifest_dirs: [" + dirs + "]\n";
    text += "credits:\n";
    text += "  monthly_allowance: " + std::to_string(kMonthlyAllowance) + "\n";
    text += "  calls_per_minute: " + std::to_string(kCallsPerMinute) + "\n";
    text += "auth:\n";
    text += "  key_cache_ms: " + std::to_string(kKeyCacheMs) + "\n";
    text += "log:\n";
    text += "  access_log: " + Quote(access_log.string()) + "\n";
    return text;
}

fs::path Deployment::WriteConfig(const std::string& name, const fs::path& access_log,
                                 const std::string& extra, const std::string& instance) const {
    const fs::path path = dir_ / name;
    const std::string own = instance.empty() ? instance_ + "-" + path.stem().string() : instance;
    WriteFile(path, ConfigText(access_log, own) + extra);
    return path;
}

CommandResult Deployment::Lastro(const std::vector<std::string>& args) const {
    std::vector<std::string> argv{BinaryPath("lastro").string()};
    argv.insert(argv.end(), args.begin(), args.end());
    CommandOptions options;
    options.env = {"LASTRO_CONFIG=" + config_file_.string()};
    return RunCommand(argv, options);
}

CreatedKey Deployment::CreateKeyWithId(const KeySpec& spec) {
    std::vector<std::string> args{"keys", "create", "--name",
                                  spec.name.empty() ? "e2e-" + std::to_string(++key_counter_) : spec.name};
    if (spec.credits) {
        args.insert(args.end(), {"--credits", std::to_string(*spec.credits)});
    }
    if (spec.rate) {
        args.insert(args.end(), {"--rate", std::to_string(*spec.rate)});
    }
    if (!spec.scopes.empty()) {
        args.insert(args.end(), {"--scopes", spec.scopes});
    }
    CommandResult result = Lastro(args);
    Require(result, "lastro keys create");
    std::string key = result.out;
    while (!key.empty() && (key.back() == '\n' || key.back() == '\r')) {
        key.pop_back();
    }
    if (key.empty() || key.find_first_of(" \n") != std::string::npos) {
        throw std::runtime_error("lastro keys create printed more than a key: " + result.Describe());
    }
    static constexpr std::string_view kCreated = "created key ";
    const std::size_t at = result.err.find(kCreated);
    const std::size_t digits = at == std::string::npos ? at : at + kCreated.size();
    const std::size_t end =
        digits == std::string::npos ? digits : result.err.find_first_not_of("0123456789", digits);
    if (digits == std::string::npos || end == digits || end == std::string::npos || end - digits > 18) {
        throw std::runtime_error("lastro keys create did not report the key's id: " + result.Describe());
    }
    return {key, std::stoll(result.err.substr(digits, end - digits))};
}

std::vector<boost::json::object> Deployment::AllFunds(const std::string& query, int limit) {
    if (!funds_key_) {
        funds_key_ = RoomyKey();
    }
    std::vector<boost::json::object> items;
    std::optional<std::string> cursor;
    const std::string base =
        "/v1/fundos?" + query + (query.empty() ? "" : "&") + "limit=" + std::to_string(limit);
    for (int page = 0; page < 10000; ++page) {
        const std::string target = base + (cursor ? "&cursor=" + UrlEncode(*cursor) : "");
        HttpResponse response = Get(target, funds_key_);
        if (response.status != 200) {
            throw std::runtime_error("unexpected answer: " + response.Describe());
        }
        const boost::json::object body = response.Json().as_object();
        for (const boost::json::value& item : body.at("data").as_array()) {
            items.push_back(item.as_object());
        }
        const boost::json::object& pagination = body.at("meta").at("pagination").as_object();
        if (!pagination.at("has_more").as_bool()) {
            return items;
        }
        cursor = std::string(pagination.at("next_cursor").as_string());
    }
    throw std::runtime_error("/v1/fundos?" + query + " did not end within 10000 pages");
}

}  // namespace lastro::e2e
