// The clients of the soak (bench/soak.sh; bench/README.md, "soak"). One program, two modes:
//
//   soak_client load PORT KEY PATH RATE CONNECTIONS SECONDS
//     Normal billed clients: CONNECTIONS keep-alive connections with at most one request in
//     flight on each, GET PATH paced at RATE requests a second for SECONDS. The schedule is
//     open: a request's latency counts from the moment it was due, so a server that falls
//     behind shows in p99 instead of slowing the schedule down (wrk cannot pace, and wrk2 is
//     not in Debian). At the end it stops sending, gives the answers in flight a few seconds
//     and closes.
//   soak_client abuse PORT COUNT SECONDS NEVER_READING_KEY HALF_CLOSING_KEY SLOWLORIS_KEY
//     COUNT connections of each abusive kind for SECONDS, each opened again when it ends:
//     never-reading, half-closing, CRLF flood and slowloris (described at each one below).
//     Each kind bills its own key, so that a ledger that does not add up names the kind.
//
// Both print "name value" lines on stdout at the end: the answers received whole (status line,
// headers and every byte of the Content-Length body) by status class, and the sum of their
// X-Credits-Charged, which the credit ledger must equal.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// The big static document served by lastrod (core/catalog/docs_page.cpp): 1.7 MB, unbilled.
constexpr std::string_view kLargeDocument = "/docs/swagger-ui-bundle.js";
// What the abusers ask when they ask for a billed answer: a larger one than the normal clients'.
constexpr std::string_view kAbuserBilledPath = "/v1/fundos?limit=100";

long long MsBetween(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration_cast<milliseconds>(to - from).count();
}

// ---------------------------------------------------------------------------------------------
// Answers

struct Answer {
    int status = 0;
    long long charged = 0;  // X-Credits-Charged, 0 when absent (an unbilled answer)
    bool close = false;     // Connection: close: the server ends the connection after it
    std::size_t length = 0;
};

bool EqualNoCase(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

std::string_view Trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) {
        s.remove_prefix(1);
    }
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) {
        s.remove_suffix(1);
    }
    return s;
}

template <typename Number>
bool ParseNumber(std::string_view text, Number& out) {
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
    return error == std::errc() && end == text.data() + text.size();
}

// A response head without its final empty line. Header names are matched without case: the
// connection layer that writes them is being rewritten, and HTTP does not fix their case.
bool ParseHead(std::string_view head, Answer& out) {
    out = Answer{};
    if (!head.starts_with("HTTP/1.") || head.size() < 12 || head[8] != ' ' ||
        !ParseNumber(head.substr(9, 3), out.status)) {
        return false;
    }
    bool has_length = false;
    std::size_t at = head.find("\r\n");
    while (at != std::string_view::npos) {
        at += 2;
        const std::size_t eol = head.find("\r\n", at);
        const std::string_view line = head.substr(at, eol == std::string_view::npos ? eol : eol - at);
        at = eol;
        const std::size_t colon = line.find(':');
        if (colon == std::string_view::npos) {
            return false;
        }
        const std::string_view name = line.substr(0, colon);
        const std::string_view value = Trim(line.substr(colon + 1));
        if (EqualNoCase(name, "Content-Length")) {
            has_length = ParseNumber(value, out.length);
        } else if (EqualNoCase(name, "X-Credits-Charged")) {
            if (!ParseNumber(value, out.charged)) {
                return false;
            }
        } else if (EqualNoCase(name, "Connection")) {
            out.close = EqualNoCase(value, "close");
        }
    }
    // Every answer to a GET carries a Content-Length: it is what tells an answer received whole.
    return has_length;
}

// Cuts a connection's bytes into whole answers: a head up to its empty line, then as many bytes
// of body as its Content-Length says, skipped as they come (a 1.7 MB document is never held).
class AnswerStream {
public:
    // Calls on_answer(const Answer&) for each answer completed by these bytes. False: the bytes
    // are not HTTP answers (nothing more can be read from this connection).
    template <typename OnAnswer>
    bool Feed(const char* data, std::size_t size, OnAnswer&& on_answer) {
        while (size > 0) {
            if (in_body_) {
                const std::size_t take = std::min(size, body_left_);
                body_left_ -= take;
                body_read_ += take;
                data += take;
                size -= take;
                if (body_left_ == 0) {
                    in_body_ = false;
                    on_answer(current_);
                }
                continue;
            }
            const std::size_t before = head_.size();
            head_.append(data, size);
            const std::size_t end = head_.find("\r\n\r\n", before >= 3 ? before - 3 : 0);
            if (end == std::string::npos) {
                return head_.size() <= kMaxHead;
            }
            const std::size_t used = end + 4 - before;  // of these bytes, the head's
            if (!ParseHead(std::string_view(head_).substr(0, end), current_)) {
                return false;
            }
            head_.clear();
            data += used;
            size -= used;
            body_left_ = current_.length;
            body_read_ = 0;
            in_body_ = body_left_ > 0;
            if (!in_body_) {
                on_answer(current_);
            }
        }
        return true;
    }

    bool MidAnswer() const { return in_body_ || !head_.empty(); }
    // Body bytes read of the answer being read.
    std::size_t BodyRead() const { return in_body_ ? body_read_ : 0; }

private:
    static constexpr std::size_t kMaxHead = 64 * 1024;
    std::string head_;
    Answer current_;
    bool in_body_ = false;
    std::size_t body_left_ = 0;
    std::size_t body_read_ = 0;
};

// Whole answers by status class and their charged credits. Atomic: abusers' threads share one.
struct Tally {
    std::atomic<long long> whole{0}, s2xx{0}, s4xx{0}, s5xx{0}, other{0}, charged{0}, malformed{0};

    void Count(const Answer& answer) {
        ++whole;
        charged += answer.charged;
        if (answer.status >= 200 && answer.status < 300) {
            ++s2xx;
        } else if (answer.status >= 400 && answer.status < 500) {
            ++s4xx;
        } else if (answer.status >= 500 && answer.status < 600) {
            ++s5xx;
        } else {
            ++other;
        }
    }

    void Print(const char* prefix) const {
        std::printf("%swhole %lld\n%sstatus_2xx %lld\n%sstatus_4xx %lld\n%sstatus_5xx %lld\n", prefix,
                    whole.load(), prefix, s2xx.load(), prefix, s4xx.load(), prefix, s5xx.load());
        std::printf("%sstatus_other %lld\n%scharged %lld\n%smalformed %lld\n", prefix, other.load(), prefix,
                    charged.load(), prefix, malformed.load());
    }
};

// Latencies in microseconds, 32 buckets per power of two (about 3 % apart): p50 and p99 of a
// half-hour soak without keeping every sample.
class Histogram {
public:
    void Record(Clock::duration latency) {
        auto us = static_cast<std::uint64_t>(
            std::max<long long>(0, std::chrono::duration_cast<std::chrono::microseconds>(latency).count()));
        us = std::min<std::uint64_t>(us, std::uint64_t{1} << 36);  // 19 hours: far past any soak
        ++counts_[Index(us)];
        ++total_;
        max_us_ = std::max(max_us_, us);
    }

    // The latency under which a fraction q of the samples lie, in milliseconds.
    double Quantile(double q) const {
        if (total_ == 0) {
            return 0;
        }
        const auto rank = static_cast<long long>(q * static_cast<double>(total_ - 1)) + 1;
        long long seen = 0;
        for (std::size_t i = 0; i < counts_.size(); ++i) {
            seen += counts_[i];
            if (seen >= rank) {
                return static_cast<double>(Value(i)) / 1000.0;
            }
        }
        return static_cast<double>(max_us_) / 1000.0;
    }
    double MaxMs() const { return static_cast<double>(max_us_) / 1000.0; }

private:
    static std::size_t Index(std::uint64_t us) {
        if (us < 64) {
            return us;
        }
        const int shift = static_cast<int>(std::bit_width(us)) - 6;  // keeps us >> shift in [32, 64)
        return 32 * static_cast<std::size_t>(shift) + (us >> shift);
    }
    // The smallest latency of bucket i.
    static std::uint64_t Value(std::size_t i) {
        if (i < 64) {
            return i;
        }
        const std::size_t shift = i / 32 - 1;
        return (i % 32 + 32) << shift;
    }

    std::array<long long, 32 * 40> counts_{};
    long long total_ = 0;
    std::uint64_t max_us_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Sockets

// A blocking connection to 127.0.0.1:port; rcvbuf > 0 sets a receive buffer that small (and
// turns off the kernel's tuning of it). Sends and the connect itself time out after 2 s, so no
// call of this program waits for the server unbounded. -1 when it cannot connect.
int Connect(int port, int rcvbuf = 0) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return -1;
    }
    if (rcvbuf > 0) {
        ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
    }
    const timeval limit{2, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

// Every byte on a blocking socket (each send bounded by SO_SNDTIMEO); false on an error.
bool SendAll(int fd, std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return false;
        }
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

std::string Get(std::string_view path, int port, const std::string& key) {
    std::string request = "GET ";
    request += path;
    request += " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) + "\r\n";
    if (!key.empty()) {
        request += "Authorization: Bearer " + key + "\r\n";
    }
    request += "\r\n";
    return request;
}

std::string Repeat(const std::string& s, int times) {
    std::string out;
    for (int i = 0; i < times; ++i) {
        out += s;
    }
    return out;
}

// The Content-Length of GET path, asked once; 0 when it cannot be had.
std::size_t BodyLength(int port, std::string_view path) {
    const int fd = Connect(port);
    if (fd < 0) {
        return 0;
    }
    std::size_t length = 0;
    std::array<char, 4096> buffer;
    const timeval limit{5, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
    if (SendAll(fd, Get(path, port, ""))) {
        // The head is all it needs: Feed reports an answer only once whole, so parse it here.
        std::string head;
        while (head.find("\r\n\r\n") == std::string::npos && head.size() < 65536) {
            const ssize_t n = ::recv(fd, buffer.data(), buffer.size(), 0);
            if (n <= 0) {
                break;
            }
            head.append(buffer.data(), static_cast<std::size_t>(n));
        }
        Answer answer;
        const std::size_t end = head.find("\r\n\r\n");
        if (end != std::string::npos && ParseHead(std::string_view(head).substr(0, end), answer)) {
            length = answer.length;
        }
    }
    ::close(fd);
    return length;
}

// The most a socket's send buffer can grow to (the kernel tunes it up to tcp_wmem's third
// field): what lastrod can hand to the kernel for a client that does not read.
std::size_t SendBufferCeiling() {
    std::size_t low = 0, initial = 0, ceiling = 0;
    if (FILE* f = std::fopen("/proc/sys/net/ipv4/tcp_wmem", "r")) {
        if (std::fscanf(f, "%zu %zu %zu", &low, &initial, &ceiling) != 3) {
            ceiling = 0;
        }
        std::fclose(f);
    }
    return ceiling > 0 ? ceiling : std::size_t{4} << 20;
}

// ---------------------------------------------------------------------------------------------
// load: the normal billed clients

class Load {
public:
    Load(int port, std::string request, double rate, int connections, double seconds)
        : port_(port),
          request_(std::move(request)),
          rate_(rate),
          seconds_(seconds),
          connections_(static_cast<std::size_t>(connections)) {}

    int Run() {
        epoll_ = ::epoll_create1(EPOLL_CLOEXEC);
        if (epoll_ < 0) {
            std::perror("soak_client: epoll_create1");
            return 1;
        }
        start_ = Clock::now();
        for (std::size_t i = 0; i < connections_.size(); ++i) {
            Open(i, start_);
        }
        const auto end =
            start_ + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds_));
        const auto total = static_cast<long long>(rate_ * seconds_);
        auto next_report = start_ + std::chrono::seconds(60);
        std::array<epoll_event, 64> events{};
        for (auto now = Clock::now(); now < end; now = Clock::now()) {
            Reopen(now);
            const long long due = std::min(total, static_cast<long long>(Seconds(now - start_) * rate_));
            while (sent_ < due && Issue(DueAt(sent_))) {
                ++sent_;
            }
            max_behind_ = std::max(max_behind_, due - sent_);
            // Sleep until the next request is due, or, with every connection busy, until an
            // answer frees one (or 10 ms, to retry connections that could not open).
            int timeout = 10;
            if (sent_ == due && sent_ < total) {
                timeout = static_cast<int>(std::clamp<long long>(MsBetween(now, DueAt(sent_)) + 1, 0, 10));
            }
            const int n = ::epoll_wait(epoll_, events.data(), static_cast<int>(events.size()), timeout);
            for (int i = 0; i < n; ++i) {
                Handle(events[static_cast<std::size_t>(i)]);
            }
            if (now >= next_report) {
                next_report += std::chrono::seconds(60);
                std::fprintf(stderr,
                             "soak_client: %lld s: %lld answers whole, %lld 5xx, p99 %.1f ms, %lld behind\n",
                             static_cast<long long>(Seconds(now - start_)), tally_.whole.load(),
                             tally_.s5xx.load(), latency_.Quantile(0.99), due - sent_);
            }
        }
        // Nothing more is sent; the answers in flight have a few seconds to arrive whole, so
        // that the client's own close does not throw away answers the server already sent.
        const auto drain_end = Clock::now() + std::chrono::seconds(5);
        while (Busy() > 0 && Clock::now() < drain_end) {
            const int n = ::epoll_wait(epoll_, events.data(), static_cast<int>(events.size()), 50);
            for (int i = 0; i < n; ++i) {
                Handle(events[static_cast<std::size_t>(i)]);
            }
        }
        const long long in_flight = Busy();
        const double elapsed = Seconds(Clock::now() - start_);
        for (auto& c : connections_) {
            if (c.fd >= 0) {
                ::close(c.fd);
            }
        }
        ::close(epoll_);
        std::printf("target_rate %.1f\nseconds %.1f\nsent %lld\nachieved_rate %.1f\n", rate_, seconds_, sent_,
                    static_cast<double>(sent_) / seconds_);
        tally_.Print("");
        std::printf("cut %lld\nclosed_by_server %lld\nconnect_failures %lld\nin_flight_at_close %lld\n", cut_,
                    closed_by_server_, connect_failures_, in_flight);
        std::printf("max_behind %lld\np50_ms %.2f\np99_ms %.2f\nmax_ms %.2f\nelapsed %.1f\n", max_behind_,
                    latency_.Quantile(0.50), latency_.Quantile(0.99), latency_.MaxMs(), elapsed);
        return 0;
    }

private:
    struct Connection {
        int fd = -1;
        AnswerStream stream;
        bool busy = false;        // a request in flight
        bool queued = false;      // in free_
        Clock::time_point due;    // when the request in flight was due
        Clock::time_point retry;  // when to try again to open it
        std::string unsent;       // request bytes the socket has not taken yet
    };

    static double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

    Clock::time_point DueAt(long long index) const {
        return start_ + std::chrono::duration_cast<Clock::duration>(
                            std::chrono::duration<double>(static_cast<double>(index) / rate_));
    }

    long long Busy() const {
        return std::count_if(connections_.begin(), connections_.end(),
                             [](const Connection& c) { return c.busy; });
    }

    void Open(std::size_t i, Clock::time_point now) {
        Connection& c = connections_[i];
        c.fd = Connect(port_);
        c.stream = AnswerStream{};
        c.busy = false;
        c.unsent.clear();
        if (c.fd < 0) {
            ++connect_failures_;
            c.retry = now + milliseconds(100);
            return;
        }
        ::fcntl(c.fd, F_SETFL, ::fcntl(c.fd, F_GETFL) | O_NONBLOCK);
        epoll_event event{};
        event.events = EPOLLIN | EPOLLRDHUP;
        event.data.u64 = i;
        ::epoll_ctl(epoll_, EPOLL_CTL_ADD, c.fd, &event);
        Free(i);
    }

    void Reopen(Clock::time_point now) {
        for (std::size_t i = 0; i < connections_.size(); ++i) {
            if (connections_[i].fd < 0 && now >= connections_[i].retry) {
                Open(i, now);
            }
        }
    }

    void Free(std::size_t i) {
        if (!connections_[i].queued) {
            connections_[i].queued = true;
            free_.push_back(i);
        }
    }

    // The connection ended (by the server, or an error): an answer in flight is lost.
    void Drop(std::size_t i) {
        Connection& c = connections_[i];
        if (c.busy) {
            ++cut_;
        }
        ::close(c.fd);  // also leaves the epoll set
        c.fd = -1;
        c.busy = false;
        c.retry = Clock::now();
    }

    // Sends the next request on a free connection; false when none is free.
    bool Issue(Clock::time_point due) {
        while (!free_.empty()) {
            const std::size_t i = free_.front();
            free_.pop_front();
            Connection& c = connections_[i];
            c.queued = false;
            if (c.fd < 0 || c.busy) {
                continue;  // dropped since it was queued
            }
            c.busy = true;
            c.due = due;
            c.unsent = request_;
            Write(i);
            return true;
        }
        return false;
    }

    void Write(std::size_t i) {
        Connection& c = connections_[i];
        const ssize_t n = ::send(c.fd, c.unsent.data(), c.unsent.size(), MSG_NOSIGNAL);
        if (n < 0 && errno != EAGAIN && errno != EINTR) {
            Drop(i);
            return;
        }
        c.unsent.erase(0, n > 0 ? static_cast<std::size_t>(n) : 0);
        epoll_event event{};
        event.events = EPOLLIN | EPOLLRDHUP | (c.unsent.empty() ? 0u : static_cast<std::uint32_t>(EPOLLOUT));
        event.data.u64 = i;
        ::epoll_ctl(epoll_, EPOLL_CTL_MOD, c.fd, &event);
    }

    void Handle(const epoll_event& event) {
        const std::size_t i = event.data.u64;
        Connection& c = connections_[i];
        if (c.fd < 0) {
            return;
        }
        if ((event.events & EPOLLOUT) && !c.unsent.empty()) {
            Write(i);
            if (c.fd < 0) {
                return;
            }
        }
        if (!(event.events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))) {
            return;
        }
        std::array<char, 65536> buffer;
        for (;;) {
            const ssize_t n = ::recv(c.fd, buffer.data(), buffer.size(), 0);
            if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
                return;
            }
            if (n <= 0) {
                Drop(i);
                return;
            }
            bool close = false;
            const bool ok =
                c.stream.Feed(buffer.data(), static_cast<std::size_t>(n), [&](const Answer& answer) {
                    tally_.Count(answer);
                    if (c.busy) {
                        latency_.Record(Clock::now() - c.due);
                        c.busy = false;
                    }
                    close = close || answer.close;
                });
            if (!ok) {
                ++tally_.malformed;
                Drop(i);
                return;
            }
            if (close) {
                ++closed_by_server_;
                Drop(i);
                return;
            }
            if (!c.busy) {
                Free(i);
            }
        }
    }

    int port_;
    std::string request_;
    double rate_;
    double seconds_;
    std::vector<Connection> connections_;
    std::deque<std::size_t> free_;
    int epoll_ = -1;
    Clock::time_point start_;
    long long sent_ = 0;
    long long max_behind_ = 0;
    long long cut_ = 0;
    long long closed_by_server_ = 0;
    long long connect_failures_ = 0;
    Tally tally_;
    Histogram latency_;
};

// ---------------------------------------------------------------------------------------------
// abuse: one thread per abusive connection, blocking sockets, every wait bounded

struct Kind {
    explicit Kind(const char* kind_name) : name(kind_name) {}

    const char* name;
    std::atomic<long long> connections{0};  // opened
    std::atomic<long long> billed_sent{0};  // billed requests sent
    std::atomic<long long> ended{0};        // ended by the server (end of stream, reset)
    std::atomic<long long> short_ends{0};   // half-closing to the end: fewer answers than requests
    std::atomic<long long> read_on{0};  // half-closing early: read to the end, a billed answer being there
    std::atomic<long long> resets{0};   // half-closing early: connections reset with billed calls in flight
    std::atomic<long long> bytes_sent{0};
    Tally tally;  // whole answers it read
};

class Abuse {
public:
    Abuse(int port, int count, double seconds, std::string never_reading_key, std::string half_closing_key,
          std::string slowloris_key)
        : port_(port),
          count_(count),
          end_(Clock::now() +
               std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds))),
          never_reading_key_(std::move(never_reading_key)),
          half_closing_key_(std::move(half_closing_key)),
          slowloris_key_(std::move(slowloris_key)) {}

    int Run() {
        // Enough large documents ahead of the billed calls that their answers cannot reach the
        // kernel whole: more than the largest send buffer plus the client's receive buffer.
        const std::size_t document = BodyLength(port_, kLargeDocument);
        if (document == 0) {
            std::fprintf(stderr, "soak_client: GET %s gave no Content-Length\n", kLargeDocument.data());
            return 1;
        }
        blockers_ = static_cast<int>((SendBufferCeiling() + (512 << 10)) / document + 1);
        std::vector<std::thread> threads;
        for (int i = 0; i < count_; ++i) {
            threads.emplace_back([this] { NeverReading(); });
            threads.emplace_back([this, i] { HalfClosing(i); });
            threads.emplace_back([this] { CrlfFlood(); });
            threads.emplace_back([this] { Slowloris(); });
        }
        for (auto& thread : threads) {
            thread.join();
        }
        long long whole = 0, charged = 0, s5xx = 0;
        for (const Kind* kind : {&never_reading_, &half_closing_, &crlf_flood_, &slowloris_}) {
            const std::string prefix = std::string(kind->name) + ".";
            std::printf("%sconnections %lld\n%sbilled_sent %lld\n%sended_by_server %lld\n", prefix.c_str(),
                        kind->connections.load(), prefix.c_str(), kind->billed_sent.load(), prefix.c_str(),
                        kind->ended.load());
            std::printf("%sbytes_sent %lld\n", prefix.c_str(), kind->bytes_sent.load());
            kind->tally.Print(prefix.c_str());
            whole += kind->tally.whole;
            charged += kind->tally.charged;
            s5xx += kind->tally.s5xx;
        }
        std::printf("half_closing.short_ends %lld\nhalf_closing.read_on %lld\nhalf_closing.resets %lld\n",
                    half_closing_.short_ends.load(), half_closing_.read_on.load(),
                    half_closing_.resets.load());
        std::printf("blocking_documents %d\n", blockers_);
        std::printf("whole %lld\ncharged %lld\nstatus_5xx %lld\n", whole, charged, s5xx);
        return 0;
    }

private:
    bool Over() const { return Clock::now() >= end_; }

    // Sleeps until `until` or the end of the run, whichever comes first.
    void SleepUntil(Clock::time_point until) const { std::this_thread::sleep_until(std::min(until, end_)); }

    // Reads what the socket has within `wait_ms` into the stream, counting whole answers.
    // > 0 bytes read; 0 the server ended the stream (or reset it); -1 nothing within the wait;
    // -2 bytes that are not answers (the caller gives the connection up).
    int ReadSome(int fd, AnswerStream& stream, Kind& kind, int wait_ms, long long* answers = nullptr) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, wait_ms) <= 0) {
            return -1;
        }
        std::array<char, 65536> buffer;
        const ssize_t n = ::recv(fd, buffer.data(), buffer.size(), MSG_DONTWAIT);
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
            return -1;
        }
        if (n <= 0) {
            ++kind.ended;
            return 0;
        }
        const bool ok = stream.Feed(buffer.data(), static_cast<std::size_t>(n), [&](const Answer& answer) {
            kind.tally.Count(answer);
            if (answers != nullptr) {
                ++*answers;
            }
        });
        if (!ok) {
            ++kind.tally.malformed;
            return -2;
        }
        return static_cast<int>(n);
    }

    // Never-reading: a small receive buffer, large documents (blockers_) then eight billed calls
    // pipelined in one write, and never a read. The billed answers queue behind more bytes than
    // the socket can take, so none of them can reach the kernel whole: lastrod must not charge
    // them. The connection lives until the server ends it (a reset shows without reading) or
    // for 20 s, past lastrod's keep-alive timeout (15 s), which closes a connection that reads
    // nothing; then it is closed with its bytes unread (a reset) and opened again.
    void NeverReading() {
        const std::string batch = Repeat(Get(kLargeDocument, port_, ""), blockers_) +
                                  Repeat(Get(kAbuserBilledPath, port_, never_reading_key_), 8);
        while (!Over()) {
            const auto opened = Clock::now();
            const int fd = Connect(port_, 4096);
            if (fd < 0) {
                SleepUntil(opened + milliseconds(200));
                continue;
            }
            ++never_reading_.connections;
            if (SendAll(fd, batch)) {
                never_reading_.billed_sent += 8;
                never_reading_.bytes_sent += static_cast<long long>(batch.size());
            }
            const auto life_end = std::min(opened + std::chrono::seconds(20), end_);
            for (auto now = Clock::now(); now < life_end; now = Clock::now()) {
                pollfd p{fd, POLLRDHUP, 0};  // POLLERR and POLLHUP are always reported
                const int wait = static_cast<int>(std::min<long long>(1000, MsBetween(now, life_end) + 1));
                if (::poll(&p, 1, wait) > 0 && (p.revents & (POLLERR | POLLHUP | POLLRDHUP))) {
                    ++never_reading_.ended;
                    break;
                }
            }
            ::close(fd);
            SleepUntil(opened + std::chrono::seconds(1));
        }
    }

    // Half-closing: calls pipelined, shutdown(SHUT_WR), then, by turns:
    //  - to the end: four billed calls; reads every answer until the server ends the stream
    //    (lastrod answers what it took, then closes); fewer answers than calls counts in
    //    `short_ends`;
    //  - early: GET /health, then three billed calls; reads the /health answer (unbilled, so it
    //    comes at once), takes what else has arrived, and resets the connection (SO_LINGER 0)
    //    while the billed calls still wait for their charge's commit: lastrod can hand their
    //    answers to no one, and must not charge them. When a billed answer has begun to arrive
    //    by then, this client was slower than a commit (a busy machine): an answer landing
    //    between its last read and the reset would be charged rightly and lost here, so it
    //    reads on to the end of the stream instead (counted in `read_on`).
    // Every answer read whole counts, for the ledger. One cycle every half second at most.
    void HalfClosing(int slot) {
        const std::string billed = Get(kAbuserBilledPath, port_, half_closing_key_);
        const std::string to_the_end_batch = Repeat(billed, 4);
        const std::string early_batch = Get("/health", port_, "") + Repeat(billed, 3);
        for (long long cycle = slot; !Over(); ++cycle) {
            const auto opened = Clock::now();
            const bool to_the_end = cycle % 2 == 0;
            const int fd = Connect(port_);
            if (fd < 0) {
                SleepUntil(opened + milliseconds(200));
                continue;
            }
            ++half_closing_.connections;
            if (!to_the_end) {
                const linger reset{1, 0};  // close() sends a reset, not a FIN
                ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
            }
            const std::string& batch = to_the_end ? to_the_end_batch : early_batch;
            const int calls = to_the_end ? 4 : 3;
            if (!SendAll(fd, batch) || ::shutdown(fd, SHUT_WR) != 0) {
                ::close(fd);
                SleepUntil(opened + milliseconds(500));
                continue;
            }
            half_closing_.billed_sent += calls;
            half_closing_.bytes_sent += static_cast<long long>(batch.size());
            // A cycle's own limits, not the run's end: a cycle cut by the end of the run would
            // throw away answers the server had sent, which the ledger cannot tell apart.
            AnswerStream stream;
            long long answers = 0;
            bool reset = !to_the_end;
            const auto limit = opened + std::chrono::seconds(30);
            while (Clock::now() < limit) {
                const int n = ReadSome(fd, stream, half_closing_, 500, &answers);
                if (n == 0 || n == -2) {
                    break;
                }
                if (reset && answers >= 1) {
                    while (ReadSome(fd, stream, half_closing_, 0, &answers) > 0) {
                    }
                    if (answers == 1 && !stream.MidAnswer()) {
                        break;  // nothing billed has arrived: reset now
                    }
                    reset = false;
                    ++half_closing_.read_on;
                }
            }
            if (to_the_end && answers < calls) {
                ++half_closing_.short_ends;
            }
            if (reset) {
                ++half_closing_.resets;
            }
            ::close(fd);
            SleepUntil(opened + milliseconds(500));
        }
    }

    // CRLF flood: empty lines as fast as the socket takes them, reading (and counting) whatever
    // the server answers, until it ends the connection; at most ten connections a second.
    void CrlfFlood() {
        std::string lines;
        for (int i = 0; i < 8192; ++i) {
            lines += "\r\n";
        }
        while (!Over()) {
            const auto opened = Clock::now();
            const int fd = Connect(port_);
            if (fd < 0) {
                SleepUntil(opened + milliseconds(200));
                continue;
            }
            ++crlf_flood_.connections;
            AnswerStream stream;
            while (!Over()) {
                pollfd p{fd, POLLIN | POLLOUT, 0};
                if (::poll(&p, 1, 1000) <= 0) {
                    continue;
                }
                if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
                    const int n = ReadSome(fd, stream, crlf_flood_, 0);
                    if (n == 0 || n == -2) {
                        break;
                    }
                }
                if (p.revents & POLLOUT) {
                    const ssize_t n = ::send(fd, lines.data(), lines.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
                    if (n < 0 && errno != EAGAIN && errno != EINTR) {
                        ++crlf_flood_.ended;
                        break;
                    }
                    crlf_flood_.bytes_sent += std::max<ssize_t>(n, 0);
                }
            }
            ::close(fd);
            SleepUntil(opened + milliseconds(100));
        }
    }

    // Slowloris: a billed request's head, one byte every 3 s, reading whatever the server
    // answers (a 408 once the head outlives server.header_timeout_ms), until it ends the
    // connection; then again.
    void Slowloris() {
        const std::string head = Get("/v1/fundos?limit=10", port_, slowloris_key_);
        while (!Over()) {
            const auto opened = Clock::now();
            const int fd = Connect(port_);
            if (fd < 0) {
                SleepUntil(opened + milliseconds(200));
                continue;
            }
            ++slowloris_.connections;
            AnswerStream stream;
            bool open = true;
            for (std::size_t i = 0; open && !Over(); ++i) {
                if (::send(fd, &head[i % head.size()], 1, MSG_NOSIGNAL) != 1) {
                    ++slowloris_.ended;
                    break;
                }
                ++slowloris_.bytes_sent;
                if (i % head.size() == head.size() - 1) {
                    ++slowloris_.billed_sent;  // a whole head at last (not within lastrod's limits)
                }
                const auto next = Clock::now() + std::chrono::seconds(3);
                for (auto now = Clock::now(); now < std::min(next, end_); now = Clock::now()) {
                    const int n = ReadSome(fd, stream, slowloris_,
                                           static_cast<int>(MsBetween(now, std::min(next, end_)) + 1));
                    if (n == 0 || n == -2) {
                        open = false;
                        break;
                    }
                }
            }
            ::close(fd);
            SleepUntil(opened + std::chrono::seconds(1));
        }
    }

    int port_;
    int count_;
    Clock::time_point end_;
    std::string never_reading_key_;
    std::string half_closing_key_;
    std::string slowloris_key_;
    int blockers_ = 0;
    Kind never_reading_{"never_reading"};
    Kind half_closing_{"half_closing"};
    Kind crlf_flood_{"crlf_flood"};
    Kind slowloris_{"slowloris"};
};

int Usage() {
    std::fprintf(stderr,
                 "usage: soak_client load PORT KEY PATH RATE CONNECTIONS SECONDS\n"
                 "       soak_client abuse PORT COUNT SECONDS NEVER_READING_KEY HALF_CLOSING_KEY "
                 "SLOWLORIS_KEY\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    std::signal(SIGPIPE, SIG_IGN);  // every send says MSG_NOSIGNAL; this is for the rest
    const std::vector<std::string_view> args(argv + 1, argv + argc);
    int port = 0;
    if (args.size() < 2 || !ParseNumber(args[1], port) || port <= 0 || port > 65535) {
        return Usage();
    }
    if (args[0] == "load" && args.size() == 7) {
        double rate = std::atof(std::string(args[4]).c_str());
        int connections = 0;
        double seconds = std::atof(std::string(args[6]).c_str());
        if (!ParseNumber(args[5], connections) || connections < 1 || connections > 10000 || rate <= 0 ||
            seconds <= 0) {
            return Usage();
        }
        Load load(port, Get(args[3], port, std::string(args[2])), rate, connections, seconds);
        return load.Run();
    }
    if (args[0] == "abuse" && args.size() == 7) {
        int count = 0;
        double seconds = std::atof(std::string(args[3]).c_str());
        if (!ParseNumber(args[2], count) || count < 0 || count > 1000 || seconds <= 0) {
            return Usage();
        }
        Abuse abuse(port, count, seconds, std::string(args[4]), std::string(args[5]), std::string(args[6]));
        return abuse.Run();
    }
    return Usage();
}
