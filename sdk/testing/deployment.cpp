#include <lastro/sdk/testing/deployment.hpp>

#include "command_text.hpp"

#include <lastro/sdk/testing/temp_dir.hpp>

#include <gtest/gtest.h>
#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <csignal>
#include <stdexcept>

namespace lastro::sdk::testing {

namespace fs = std::filesystem;

namespace {

// A SQLite database file (and its write-ahead log, if the last writer left one) copied to `to`.
void CopySqliteDatabase(const fs::path& from, const fs::path& to) {
    fs::copy_file(from, to, fs::copy_options::overwrite_existing);
    const fs::path wal = from.string() + "-wal";
    if (fs::exists(wal)) {
        fs::copy_file(wal, to.string() + "-wal", fs::copy_options::overwrite_existing);
    }
}

}  // namespace

std::unique_ptr<Lastrod> Lastrod::Start(const fs::path& config, const std::vector<std::string>& env) {
    auto server = std::make_unique<Lastrod>();
    CommandOptions options;
    options.env = {"LASTRO_CONFIG=" + config.string()};
    options.env.insert(options.env.end(), env.begin(), env.end());
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

Deployment::Deployment(Backend backend, const std::string& label, DeploymentOptions options)
    : backend_(backend), options_(std::move(options)) {
    if (options_.plugin_dirs.empty()) {
        throw std::invalid_argument("deployment " + label + ": DeploymentOptions::plugin_dirs is empty");
    }
    if (options_.sample_plugin_dirs.empty()) {
        options_.sample_plugin_dirs = options_.plugin_dirs;
    }
    SharedResources& shared = SharedResources::Get();
    dir_ = shared.TempRoot() / (label + "-" + BackendName(backend));
    fs::create_directories(dir_);
    access_log_ = dir_ / "access.log";
    instance_ = "e2e-" + label + "-" + BackendName(backend);
    try {
        // A database with the sample already ingested is a copy of the one made for these plugins.
        const auto loaded = [&] {
            return shared.LoadedDatabase(backend, options_.plugin_dirs, options_.sample_plugin_dirs);
        };
        if (backend == Backend::kSqlite) {
            const fs::path database =
                (options_.sqlite_dir.empty() ? dir_ : options_.sqlite_dir) / "lastro.db";
            if (options_.ingest_sample) {
                CopySqliteDatabase(loaded(), database);
            }
            database_yaml_ = DatabaseYaml(backend, database.string());
        } else {
            const std::string from = options_.ingest_sample ? loaded() : "";
            database_yaml_ = DatabaseYaml(backend, shared.Postgres().CreateDatabase("lastro_" + label, from));
        }
        config_file_ = WriteConfig("lastro.yaml", access_log_, "", instance_);
        Require(Lastro({"db", "migrate"}), "lastro db migrate");
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

const fs::path& Deployment::SampleDir() const {
    return SharedResources::Get().SampleDir(options_.sample_plugin_dirs);
}

void Deployment::IngestSample() const {
    // Every dataset of the sample through the real CLI, as ./dev run does.
    Require(Lastro({"ingest", "--sample", SampleDir().string()}), "lastro ingest --sample");
}

std::vector<std::string> Deployment::SampleFiles(const std::string& prefix,
                                                 const std::string& extension) const {
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(SampleDir())) {
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
    text += "  manifest_dirs: [" + QuotedList(options_.plugin_dirs) + "]\n";
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

std::vector<boost::json::object> Deployment::AllItems(const std::string& path, const std::string& query,
                                                      int limit) {
    if (!paging_key_) {
        paging_key_ = RoomyKey();
    }
    std::vector<boost::json::object> items;
    std::optional<std::string> cursor;
    const std::string base =
        path + "?" + query + (query.empty() ? "" : "&") + "limit=" + std::to_string(limit);
    for (int page = 0; page < 10000; ++page) {
        const std::string target = base + (cursor ? "&cursor=" + UrlEncode(*cursor) : "");
        HttpResponse response = Get(target, paging_key_);
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
    throw std::runtime_error(path + "?" + query + " did not end within 10000 pages");
}

}  // namespace lastro::sdk::testing
