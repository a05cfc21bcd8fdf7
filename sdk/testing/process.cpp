#include <lastro/sdk/testing/process.hpp>

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace lastro::sdk::testing {
namespace {

using Clock = std::chrono::steady_clock;

// Variables of the caller that would change what the children do: the configuration
// overrides of lastro/lastrod and libpq's defaults.
bool Inherited(std::string_view entry) {
    return entry.rfind("LASTRO_", 0) != 0 && entry.rfind("PG", 0) != 0;
}

int DecodeStatus(int status) {
    if (WIFEXITED(status)) {
        return WEXITSTATUS(status);
    }
    if (WIFSIGNALED(status)) {
        return 128 + WTERMSIG(status);
    }
    return -1;
}

int Milliseconds(Clock::time_point deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return left <= 0 ? 0 : static_cast<int>(std::min<long long>(left, 1000000));
}

// waitpid() with a deadline: a pidfd when the kernel has them, else bounded polling.
std::optional<int> WaitPid(pid_t pid, Clock::time_point deadline) {
    const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
    for (int round = 0; round < 1000000; ++round) {
        int status = 0;
        const pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid) {
            if (pidfd >= 0) {
                close(pidfd);
            }
            return DecodeStatus(status);
        }
        if (done < 0 && errno != EINTR) {
            if (pidfd >= 0) {
                close(pidfd);
            }
            return -1;
        }
        if (Clock::now() >= deadline) {
            break;
        }
        if (pidfd >= 0) {
            pollfd p{pidfd, POLLIN, 0};
            poll(&p, 1, Milliseconds(deadline));
        } else {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    }
    if (pidfd >= 0) {
        close(pidfd);
    }
    return std::nullopt;
}

struct Pipe {
    int read = -1;
    int write = -1;
};

Pipe MakePipe() {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        throw std::runtime_error(std::string("pipe2: ") + std::strerror(errno));
    }
    return {fds[0], fds[1]};
}

void CloseFd(int& fd) {
    if (fd >= 0) {
        close(fd);
        fd = -1;
    }
}

// Forks and execs argv with stdout and stderr on the given descriptors. Everything the child
// needs is prepared before fork(): between fork and exec it only makes system calls.
pid_t Spawn(const std::vector<std::string>& argv, const CommandOptions& options, int out_fd, int err_fd) {
    if (argv.empty()) {
        throw std::runtime_error("Spawn: empty command");
    }
    std::vector<std::string> env_strings;
    for (char** e = environ; e && *e; ++e) {
        if (Inherited(*e)) {
            env_strings.emplace_back(*e);
        }
    }
    env_strings.insert(env_strings.end(), options.env.begin(), options.env.end());
    std::vector<char*> envp;
    for (auto& s : env_strings) {
        envp.push_back(s.data());
    }
    envp.push_back(nullptr);
    std::vector<std::string> argv_strings = argv;
    std::vector<char*> args;
    for (auto& s : argv_strings) {
        args.push_back(s.data());
    }
    args.push_back(nullptr);

    const int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devnull < 0) {
        throw std::runtime_error(std::string("open /dev/null: ") + std::strerror(errno));
    }
    Pipe exec_status = MakePipe();  // the child writes errno here when exec fails
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0) {
        const int error = errno;
        close(devnull);
        CloseFd(exec_status.read);
        CloseFd(exec_status.write);
        throw std::runtime_error(std::string("fork: ") + std::strerror(error));
    }
    if (pid == 0) {
        int stage_errno = 0;
        if (options.run_as) {
            const gid_t gid = options.run_as->gid;
            if (setgroups(1, &gid) != 0 || setgid(gid) != 0 || setuid(options.run_as->uid) != 0) {
                stage_errno = errno;
            }
        }
        // After the credentials change, which would clear it.
        if (stage_errno == 0 && (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)) {
            _exit(125);
        }
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        signal(SIGPIPE, SIG_DFL);
        if (stage_errno == 0 && (dup2(devnull, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0)) {
            stage_errno = errno;
        }
        if (stage_errno == 0) {
            execve(args[0], args.data(), envp.data());
            stage_errno = errno;
        }
        (void)!write(exec_status.write, &stage_errno, sizeof stage_errno);
        _exit(127);
    }
    close(devnull);
    CloseFd(exec_status.write);
    int child_errno = 0;
    ssize_t n = 0;
    do {
        n = read(exec_status.read, &child_errno, sizeof child_errno);
    } while (n < 0 && errno == EINTR);
    CloseFd(exec_status.read);
    if (n == static_cast<ssize_t>(sizeof child_errno)) {
        WaitPid(pid, Clock::now() + std::chrono::seconds(5));
        throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(child_errno));
    }
    return pid;
}

}  // namespace

std::string JoinCommand(const std::vector<std::string>& argv) {
    std::string text;
    for (const std::string& a : argv) {
        if (!text.empty()) {
            text += ' ';
        }
        if (a.find_first_of(" \t'\"") != std::string::npos || a.empty()) {
            text += "'" + a + "'";
        } else {
            text += a;
        }
    }
    return text;
}

std::string CommandResult::Describe() const {
    std::string text = "`" + command + "` ";
    text += timed_out ? "timed out" : "exited " + std::to_string(exit_code);
    text += "\n--- stdout ---\n" + out + "\n--- stderr ---\n" + err;
    return text;
}

CommandResult RunCommand(const std::vector<std::string>& argv, const CommandOptions& options) {
    CommandResult result;
    result.command = JoinCommand(argv);
    Pipe out = MakePipe();
    Pipe err = MakePipe();
    pid_t pid = -1;
    try {
        pid = Spawn(argv, options, out.write, err.write);
    } catch (...) {
        CloseFd(out.read);
        CloseFd(out.write);
        CloseFd(err.read);
        CloseFd(err.write);
        throw;
    }
    CloseFd(out.write);
    CloseFd(err.write);
    const auto deadline = Clock::now() + options.timeout;
    char buffer[8192];
    while ((out.read >= 0 || err.read >= 0) && Clock::now() < deadline) {
        pollfd fds[2] = {{out.read, POLLIN, 0}, {err.read, POLLIN, 0}};
        const int ready = poll(fds, 2, Milliseconds(deadline));
        if (ready < 0 && errno != EINTR) {
            break;
        }
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) {
                continue;
            }
            const ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
            if (n > 0) {
                (i == 0 ? result.out : result.err).append(buffer, static_cast<std::size_t>(n));
            } else if (n == 0 || errno != EINTR) {
                CloseFd(i == 0 ? out.read : err.read);
            }
        }
    }
    CloseFd(out.read);
    CloseFd(err.read);
    if (auto code = WaitPid(pid, deadline)) {
        result.exit_code = *code;
    } else {
        kill(pid, SIGKILL);
        result.timed_out = true;
        result.exit_code = WaitPid(pid, Clock::now() + std::chrono::seconds(10)).value_or(-1);
    }
    return result;
}

std::unique_ptr<ChildProcess> ChildProcess::Start(const std::vector<std::string>& argv,
                                                  const CommandOptions& options) {
    std::unique_ptr<ChildProcess> child(new ChildProcess());
    child->command_ = JoinCommand(argv);
    Pipe output = MakePipe();
    try {
        child->pid_ = Spawn(argv, options, output.write, output.write);
    } catch (...) {
        CloseFd(output.read);
        CloseFd(output.write);
        throw;
    }
    CloseFd(output.write);
    child->output_fd_ = output.read;
    child->reader_ = std::thread([c = child.get()] { c->ReadLoop(); });
    return child;
}

ChildProcess::~ChildProcess() {
    Kill();
    {
        std::lock_guard lock(mutex_);
        stop_reading_ = true;
    }
    if (reader_.joinable()) {
        reader_.join();
    }
    CloseFd(output_fd_);
}

void ChildProcess::ReadLoop() {
    char buffer[8192];
    // Polls in slices so that the destructor can stop it even when a grandchild still holds
    // the pipe open.
    for (;;) {
        {
            std::lock_guard lock(mutex_);
            if (stop_reading_) {
                break;
            }
        }
        pollfd p{output_fd_, POLLIN, 0};
        const int ready = poll(&p, 1, 100);
        if (ready <= 0) {
            continue;
        }
        const ssize_t n = read(output_fd_, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        std::lock_guard lock(mutex_);
        if (n <= 0) {
            output_closed_ = true;
            changed_.notify_all();
            break;
        }
        output_.append(buffer, static_cast<std::size_t>(n));
        changed_.notify_all();
    }
}

std::optional<std::string> ChildProcess::WaitForLine(const std::function<bool(std::string_view)>& match,
                                                     std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    std::unique_lock lock(mutex_);
    for (;;) {
        std::string_view text(output_);
        std::size_t start = 0;
        for (std::size_t end = text.find('\n'); end != std::string_view::npos; end = text.find('\n', start)) {
            std::string_view line = text.substr(start, end - start);
            if (match(line)) {
                return std::string(line);
            }
            start = end + 1;
        }
        if (output_closed_) {
            return std::nullopt;
        }
        if (changed_.wait_until(lock, deadline) == std::cv_status::timeout && Clock::now() >= deadline) {
            return std::nullopt;
        }
    }
}

std::string ChildProcess::Output() const {
    std::lock_guard lock(mutex_);
    return output_;
}

bool ChildProcess::Signal(int signal) {
    if (Exited()) {
        return false;
    }
    return kill(pid_, signal) == 0;
}

std::optional<int> ChildProcess::WaitForExit(std::chrono::milliseconds timeout) {
    if (!exit_code_) {
        exit_code_ = WaitPid(pid_, Clock::now() + timeout);
    }
    return exit_code_;
}

bool ChildProcess::Exited() {
    return WaitForExit(std::chrono::milliseconds(0)).has_value();
}

void ChildProcess::Kill() {
    if (pid_ <= 0 || Exited()) {
        return;
    }
    kill(pid_, SIGKILL);
    WaitForExit(std::chrono::seconds(30));
}

}  // namespace lastro::sdk::testing
