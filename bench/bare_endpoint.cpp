// The baseline for bench/run.sh: a bare Pistache endpoint that answers every request with a
// small fixed JSON body (or one of ?bytes=N), with the same threads and the same Connection fix as lastrod,
// so a comparison measures Lastro's own work and not reconnects.
//
// With a third argument it is instead the floor of any billed design on the machine: every
// request is handed to one writer thread, which appends a small record per request to that
// file and answers a whole group after one fdatasync, as lastrod's ledger writer does, but
// with no key, no admission, no database and no JSON. "-" as the file: the same hand-over to
// the writer, with nothing written (what the hand-over alone costs).
#include <pistache/endpoint.h>
#include <pistache/http.h>

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace {

using namespace Pistache;

// The journal is a ring of this size, written once before serving, so that a group's sync
// writes its data and no file size or block allocation (SQLite's WAL is reused the same way).
constexpr std::size_t kRingBytes = 64 << 20;

constexpr const char* kBody = R"({"data":[],"meta":{"row_count":0}})";

void KeepAlive(const Http::Request& request, Http::ResponseWriter& response) {
    if (request.version() == Http::Version::Http11) {
        response.headers().remove<Http::Header::Connection>();
        response.headers().add<Http::Header::Connection>(Http::ConnectionControl::KeepAlive);
    }
}

class BareHandler : public Http::Handler {
public:
    HTTP_PROTOTYPE(BareHandler)

    void onRequest(const Http::Request& request, Http::ResponseWriter response) override {
        KeepAlive(request, response);
        // ?bytes=N: a JSON body of N bytes (at most 4 MiB), the floor for an answer of that size.
        const auto bytes = request.query().get("bytes");
        if (bytes) {
            const std::size_t size =
                std::min<std::size_t>(std::strtoul(bytes->c_str(), nullptr, 10), 4 << 20);
            std::string body = "{\"data\":\"";
            body.append(size > body.size() + 2 ? size - body.size() - 2 : 0, 'x');
            body += "\"}";
            response.send(Http::Code::Ok, body, MIME(Application, Json));
            return;
        }
        response.send(Http::Code::Ok, kBody, MIME(Application, Json));
    }
};

// One thread that makes each group of requests durable (fd >= 0) before answering them.
class GroupCommitter {
public:
    explicit GroupCommitter(int fd) : fd_(fd), thread_([this] { Run(); }) {}
    ~GroupCommitter() {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        wake_.notify_one();
        thread_.join();
    }

    void Submit(Http::ResponseWriter response, std::string record) {
        {
            std::lock_guard lock(mutex_);
            queue_.push_back({std::move(response), std::move(record)});
        }
        wake_.notify_one();
    }

private:
    struct Pending {
        Http::ResponseWriter response;
        std::string record;
    };

    void Run() {
        pthread_setname_np(pthread_self(), "group-commit");
        std::deque<Pending> batch;
        std::string bytes;
        for (;;) {
            {
                std::unique_lock lock(mutex_);
                wake_.wait(lock, [this] { return stop_ || !queue_.empty(); });
                if (queue_.empty()) {
                    return;
                }
                batch.swap(queue_);
            }
            if (fd_ >= 0) {
                bytes.clear();
                for (const Pending& p : batch) {
                    bytes += p.record;
                }
                if (offset_ + bytes.size() > kRingBytes) {
                    offset_ = 0;
                }
                if (::pwrite(fd_, bytes.data(), bytes.size(), static_cast<off_t>(offset_)) !=
                        static_cast<ssize_t>(bytes.size()) ||
                    ::fdatasync(fd_) != 0) {
                    std::perror("bare_endpoint: journal");
                    std::_Exit(1);
                }
                offset_ += bytes.size();
            }
            for (Pending& p : batch) {
                p.response.send(Http::Code::Ok, kBody, MIME(Application, Json));
            }
            batch.clear();
        }
    }

    int fd_;
    std::size_t offset_ = 0;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Pending> queue_;
    bool stop_ = false;
    std::thread thread_;
};

// The journal at `path`, written in full (kRingBytes of zeros) and synced; -1 with errno set
// when that fails.
int OpenJournal(const char* path) {
    const int fd = ::open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        return -1;
    }
    const std::string zeros(1 << 20, '\0');
    for (std::size_t done = 0; done < kRingBytes; done += zeros.size()) {
        if (::write(fd, zeros.data(), zeros.size()) != static_cast<ssize_t>(zeros.size())) {
            const int error = errno != 0 ? errno : ENOSPC;  // a short write sets none
            ::close(fd);
            errno = error;
            return -1;
        }
    }
    if (::fsync(fd) != 0) {
        const int error = errno;
        ::close(fd);
        errno = error;
        return -1;
    }
    return fd;
}

GroupCommitter* committer = nullptr;
std::atomic<std::uint64_t> sequence{0};

class GroupCommitHandler : public Http::Handler {
public:
    HTTP_PROTOTYPE(GroupCommitHandler)

    void onRequest(const Http::Request& request, Http::ResponseWriter response) override {
        KeepAlive(request, response);
        // About what a ledger entry holds: an id, a key, an operation, a price and a time.
        char record[96];
        const int n =
            std::snprintf(record, sizeof record, "%020llu key=1 op=funds.resolve price=1 t=%ld\n",
                          static_cast<unsigned long long>(++sequence), static_cast<long>(::time(nullptr)));
        committer->Submit(std::move(response), std::string(record, static_cast<std::size_t>(n)));
    }
};

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3 || argc > 4) {
        std::fprintf(stderr, "usage: bare_endpoint PORT THREADS [JOURNAL_FILE|-]\n");
        return 2;
    }
    const int port = std::atoi(argv[1]);
    const int threads = std::atoi(argv[2]);
    if (port <= 0 || port > 65535 || threads <= 0) {
        std::fprintf(stderr, "bare_endpoint: PORT must be 1..65535 and THREADS at least 1\n");
        return 2;
    }
    int journal = -1;
    if (argc == 4 && std::strcmp(argv[3], "-") != 0) {
        journal = OpenJournal(argv[3]);
        if (journal < 0) {
            std::fprintf(stderr, "bare_endpoint: cannot prepare journal %s: %s\n", argv[3],
                         std::strerror(errno));
            return 1;
        }
    }
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop, nullptr);
    std::unique_ptr<GroupCommitter> group;
    Http::Endpoint endpoint(Address(Ipv4::loopback(), Port(static_cast<std::uint16_t>(port))));
    endpoint.init(Http::Endpoint::options().threads(threads).flags(Tcp::Options::ReuseAddr));
    if (argc == 4) {
        group = std::make_unique<GroupCommitter>(journal);
        committer = group.get();
        endpoint.setHandler(Http::make_handler<GroupCommitHandler>());
    } else {
        endpoint.setHandler(Http::make_handler<BareHandler>());
    }
    endpoint.serveThreaded();
    std::fprintf(stderr, "bare endpoint on 127.0.0.1:%d\n", port);
    int signal = 0;
    sigwait(&stop, &signal);
    endpoint.shutdown();
    group.reset();
    if (journal >= 0) {
        ::close(journal);
    }
    return 0;
}
