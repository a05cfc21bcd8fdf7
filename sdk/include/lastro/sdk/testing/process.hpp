// Child processes for tests: one-shot commands whose output is captured, and
// long-running children (lastrod, postgres) whose output is read by a thread and can be
// waited on. Every child gets a clean environment (no LASTRO_* or PG* variables from the
// caller), stdin from /dev/null, and dies with the test process (PR_SET_PDEATHSIG), so a
// crashed test never leaves a server behind. Every wait is bounded.
#pragma once

#include <lastro/sdk/testing/temp_dir.hpp>

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace lastro::sdk::testing {

// Credentials to run a child as (PostgreSQL refuses to run as root).
struct RunAs {
    uid_t uid = 0;
    gid_t gid = 0;
};

struct CommandOptions {
    std::vector<std::string> env;  // "NAME=value", added to the cleaned environment
    std::optional<RunAs> run_as;
    std::chrono::milliseconds timeout{120000};
};

struct CommandResult {
    int exit_code = -1;  // the exit status, or 128 + the signal that ended the child
    bool timed_out = false;
    std::string out;
    std::string err;

    // "`cmd` exited 1; stderr: ..." for assertion messages.
    std::string Describe() const;
    std::string command;
};

// Runs argv[0] (a path) with argv and waits at most options.timeout; a child still running
// then is killed and reported with timed_out. Throws std::runtime_error when it cannot start.
CommandResult RunCommand(const std::vector<std::string>& argv, const CommandOptions& options = {});

// A long-running child. Its stdout and stderr go to one pipe that a thread drains into a
// buffer, so the child never blocks on a full pipe and the test can wait for a line.
class ChildProcess {
public:
    static std::unique_ptr<ChildProcess> Start(const std::vector<std::string>& argv,
                                               const CommandOptions& options = {});
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    pid_t Pid() const { return pid_; }
    const std::string& Command() const { return command_; }

    // The first complete output line for which `match` is true, waiting until it appears,
    // the child closes its output, or `timeout` passes (then nullopt).
    std::optional<std::string> WaitForLine(const std::function<bool(std::string_view)>& match,
                                           std::chrono::milliseconds timeout);
    std::string Output() const;

    // Sends `signal` to this child (only while it has not been reaped).
    bool Signal(int signal);
    // The exit code (128 + signal when killed) once the child ended within `timeout`.
    std::optional<int> WaitForExit(std::chrono::milliseconds timeout);
    bool Exited();
    // SIGKILL and reap, if still running.
    void Kill();

private:
    ChildProcess() = default;
    void ReadLoop();

    pid_t pid_ = -1;
    int output_fd_ = -1;
    std::optional<int> exit_code_;
    std::string command_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::string output_;
    bool output_closed_ = false;
    bool stop_reading_ = false;
    std::thread reader_;
};

// "a b 'c d'" for messages.
std::string JoinCommand(const std::vector<std::string>& argv);

}  // namespace lastro::sdk::testing
