#include <lastro/sdk/testing/postgres_cluster.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace lastro::sdk::testing {
namespace {

namespace fs = std::filesystem;

void RequireExecutable(const fs::path& path) {
    if (access(path.c_str(), X_OK) != 0) {
        throw std::runtime_error(
            "PostgreSQL binary " + path.string() +
            " is missing: install postgresql-17 (or set LASTRO_E2E_PG_BINDIR). The end-to-end "
            "suite must prove both backends, so it fails instead of skipping");
    }
}

}  // namespace

std::uint16_t FreePort() {
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        throw std::runtime_error("socket failed");
    }
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    socklen_t size = sizeof address;
    if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) != 0) {
        close(fd);
        throw std::runtime_error("cannot bind a free port on 127.0.0.1");
    }
    close(fd);
    return ntohs(address.sin_port);
}

fs::path PostgresCluster::BinDir() {
    const char* env = std::getenv("LASTRO_E2E_PG_BINDIR");
    return env && *env ? fs::path(env) : fs::path("/usr/lib/postgresql/17/bin");
}

std::unique_ptr<PostgresCluster> PostgresCluster::Start() {
    std::unique_ptr<PostgresCluster> cluster(new PostgresCluster());
    cluster->bin_dir_ = BinDir();
    for (const char* tool : {"initdb", "postgres", "createdb"}) {
        RequireExecutable(cluster->bin_dir_ / tool);
    }
    if (geteuid() == 0) {
        const passwd* user = getpwnam("postgres");
        if (!user) {
            throw std::runtime_error("running as root, but there is no `postgres` user to run PostgreSQL as");
        }
        cluster->run_as_ = RunAs{user->pw_uid, user->pw_gid};
    }
    cluster->dir_ = MakeTempDir("lastro-e2e-pg-");
    if (cluster->run_as_ && chown(cluster->dir_.c_str(), cluster->run_as_->uid, cluster->run_as_->gid) != 0) {
        throw std::runtime_error("cannot chown " + cluster->dir_.string() + " to postgres");
    }
    CommandOptions as_postgres;
    as_postgres.run_as = cluster->run_as_;
    as_postgres.env = {"LC_ALL=C", "TZ=UTC"};
    const fs::path data = cluster->dir_ / "data";
    CommandResult init =
        RunCommand({(cluster->bin_dir_ / "initdb").string(), "-D", data.string(), "-U", "postgres",
                    "--auth=trust", "--encoding=UTF8", "--no-locale", "--no-sync", "--no-instructions"},
                   as_postgres);
    if (init.exit_code != 0) {
        throw std::runtime_error("initdb failed: " + init.Describe());
    }
    // The port is free when chosen; another process may take it first, so try a few.
    std::string last_output;
    for (int attempt = 0; attempt < 3 && !cluster->postmaster_; ++attempt) {
        cluster->port_ = FreePort();
        last_output = cluster->StartPostmaster();
    }
    if (!cluster->postmaster_) {
        throw std::runtime_error("postgres did not become ready:\n" + last_output);
    }
    return cluster;
}

std::string PostgresCluster::StartPostmaster() {
    CommandOptions as_postgres;
    as_postgres.run_as = run_as_;
    as_postgres.env = {"LC_ALL=C", "TZ=UTC"};
    auto postmaster = ChildProcess::Start(
        {(bin_dir_ / "postgres").string(), "-D", (dir_ / "data").string(), "-p", std::to_string(port_), "-c",
         "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=" + dir_.string(), "-c", "fsync=off",
         "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=60", "-c",
         "shared_buffers=32MB"},
        as_postgres);
    auto ready = postmaster->WaitForLine(
        [](std::string_view line) {
            return line.find("database system is ready to accept connections") != std::string_view::npos;
        },
        std::chrono::seconds(60));
    if (!ready) {
        const std::string output = postmaster->Output();
        postmaster->Kill();
        return output;
    }
    postmaster_ = std::move(postmaster);
    return "";
}

void PostgresCluster::Pause() {
    if (!postmaster_) {
        return;
    }
    ShutDownPostmaster();
}

void PostgresCluster::Resume() {
    if (postmaster_ || dir_.empty()) {
        return;
    }
    // Clients hold this port in their conninfo, so it cannot move; a fast shutdown leaves no
    // socket behind, so it is free unless another program took it meanwhile.
    const std::string output = StartPostmaster();
    if (!postmaster_) {
        throw std::runtime_error("postgres did not restart on port " + std::to_string(port_) + ":\n" +
                                 output);
    }
}

void PostgresCluster::ShutDownPostmaster() {
    // Fast shutdown, as `pg_ctl stop -m fast` asks for it; SIGKILL if it hangs.
    postmaster_->Signal(SIGINT);
    if (!postmaster_->WaitForExit(std::chrono::seconds(30))) {
        postmaster_->Kill();
    }
    earlier_log_ += postmaster_->Output();
    postmaster_.reset();
}

PausedPostgres::PausedPostgres(PostgresCluster& cluster) : cluster_(cluster) {
    cluster_.Pause();
}

PausedPostgres::~PausedPostgres() {
    try {
        Resume();
    } catch (const std::exception& e) {
        ADD_FAILURE() << e.what();
    }
}

void PausedPostgres::Resume() {
    if (!resumed_) {
        resumed_ = true;
        cluster_.Resume();
    }
}

std::vector<pid_t> PostgresCluster::ServerProcesses() const {
    std::vector<pid_t> tree;
    if (!postmaster_) {
        return tree;
    }
    // Parent of every process, from /proc/PID/stat's fourth field (after the parenthesized name).
    std::multimap<pid_t, pid_t> children;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) {
            continue;
        }
        std::ifstream stat(entry.path() / "stat");
        std::string line;
        if (!std::getline(stat, line) || line.rfind(')') == std::string::npos) {
            continue;  // gone meanwhile
        }
        std::istringstream rest(line.substr(line.rfind(')') + 1));
        std::string state;
        pid_t parent = 0;
        rest >> state >> parent;
        children.emplace(parent, static_cast<pid_t>(std::stol(name)));
    }
    tree.push_back(postmaster_->Pid());
    for (std::size_t i = 0; i < tree.size(); ++i) {
        const auto [first, last] = children.equal_range(tree[i]);
        for (auto it = first; it != last; ++it) {
            tree.push_back(it->second);
        }
    }
    return tree;
}

FrozenPostgres::FrozenPostgres(PostgresCluster& cluster) {
    // Twice: a backend forked while the first list was being stopped is in the second.
    for (int pass = 0; pass < 2; ++pass) {
        for (const pid_t pid : cluster.ServerProcesses()) {
            if (std::find(frozen_.begin(), frozen_.end(), pid) == frozen_.end()) {
                ::kill(pid, SIGSTOP);
                frozen_.push_back(pid);
            }
        }
    }
}

FrozenPostgres::~FrozenPostgres() {
    Thaw();
}

void FrozenPostgres::Thaw() {
    for (const pid_t pid : frozen_) {
        ::kill(pid, SIGCONT);
    }
    frozen_.clear();
}

PostgresCluster::~PostgresCluster() {
    Stop();
}

std::string PostgresCluster::CreateDatabase(const std::string& name, const std::string& from) {
    std::vector<std::string> argv{(bin_dir_ / "createdb").string(),
                                  "-h",
                                  "127.0.0.1",
                                  "-p",
                                  std::to_string(port_),
                                  "-U",
                                  "postgres",
                                  "-E",
                                  "UTF8"};
    if (!from.empty()) {
        argv.insert(argv.end(), {"-T", from});
    }
    argv.push_back(name);
    CommandResult created =
        RunCommand(argv, CommandOptions{{"LC_ALL=C"}, std::nullopt, std::chrono::seconds(60)});
    if (created.exit_code != 0) {
        throw std::runtime_error("createdb failed: " + created.Describe());
    }
    return "postgresql://postgres@127.0.0.1:" + std::to_string(port_) + "/" + name;
}

std::string PostgresCluster::Conninfo(const std::string& name) const {
    return "host=127.0.0.1 port=" + std::to_string(port_) + " user=postgres dbname=" + name;
}

std::string PostgresCluster::LogTail(std::size_t bytes) const {
    const std::string log = earlier_log_ + (postmaster_ ? postmaster_->Output() : "");
    return log.size() > bytes ? "..." + log.substr(log.size() - bytes) : log;
}

void PostgresCluster::Stop() {
    if (postmaster_) {
        ShutDownPostmaster();
    }
    if (!dir_.empty()) {
        std::error_code ignored;
        fs::remove_all(dir_, ignored);
        dir_.clear();
    }
}

}  // namespace lastro::sdk::testing
