// One TCP connection to a real lastrod, written and read byte for byte: for what an HTTP client
// library would hide (the status line, the framing, pipelined requests, half-closes, resets).
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <optional>
#include <string>

namespace lastro::e2e {

class RawConnection {
public:
    // `receive_buffer` (bytes, 0 for the system's default) bounds what the server can send
    // before this side reads.
    explicit RawConnection(std::uint16_t port, int receive_buffer = 0)
        : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
        timeval timeout{10, 0};  // a missing answer fails the test instead of hanging it
        ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
        if (receive_buffer > 0) {
            ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
        }
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    }
    ~RawConnection() {
        if (fd_ >= 0) {
            ::close(fd_);
        }
    }
    RawConnection(const RawConnection&) = delete;
    RawConnection& operator=(const RawConnection&) = delete;

    bool Connected() const { return connected_; }
    // Bounds each Write (seconds): a server that stops reading fails it instead of hanging it.
    void SendTimeout(int seconds) {
        timeval timeout{seconds, 0};
        ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    }
    // Ends this side's sending (a FIN); HTTP lets the client still read its answers.
    void HalfClose() { ::shutdown(fd_, SHUT_WR); }
    // Closes at once, unread answers and all (a reset when anything is left unread).
    void Abort() {
        linger off{1, 0};
        ::setsockopt(fd_, SOL_SOCKET, SO_LINGER, &off, sizeof off);
        ::close(fd_);
        fd_ = -1;
    }
    // Reads up to `bytes` of what the server sent, and keeps them for Read().
    std::size_t ReadSome(std::size_t bytes) {
        std::string chunk(bytes, '\0');
        const ssize_t got = ::recv(fd_, chunk.data(), chunk.size(), 0);
        if (got <= 0) {
            return 0;
        }
        buffer_.append(chunk.data(), static_cast<std::size_t>(got));
        return static_cast<std::size_t>(got);
    }
    bool Write(const std::string& bytes) {
        return ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size());
    }

    struct Answer {
        std::string head;  // status line and headers, without the blank line
        std::string body;
        std::string StatusLine() const { return head.substr(0, head.find("\r\n")); }
        // The value of header `name` (as lastrod writes it: "Name: value"), or nullopt.
        std::optional<std::string> Header(const std::string& name) const {
            const std::string field = "\r\n" + name + ": ";
            const std::size_t at = head.find(field);
            if (at == std::string::npos) {
                return std::nullopt;
            }
            const std::size_t from = at + field.size();
            return head.substr(from, head.find("\r\n", from) - from);
        }
        bool HasHeader(const std::string& line) const {
            return head.find("\r\n" + line + "\r\n") != std::string::npos || head.ends_with("\r\n" + line);
        }
    };
    // The next answer, framed by its Content-Length (or, with `head_only`, just its head, as
    // the answer to HEAD); nullopt when none arrives in time.
    std::optional<Answer> Read(bool head_only = false) {
        for (;;) {
            const std::size_t end = buffer_.find("\r\n\r\n");
            if (end != std::string::npos) {
                Answer answer{buffer_.substr(0, end), {}};
                if (head_only) {
                    buffer_.erase(0, end + 4);
                    return answer;
                }
                const std::string field = "\r\nContent-Length: ";
                const std::size_t at = answer.head.find(field);
                if (at == std::string::npos) {
                    return std::nullopt;
                }
                const std::size_t length = std::stoul(answer.head.substr(at + field.size()));
                if (buffer_.size() >= end + 4 + length) {
                    answer.body = buffer_.substr(end + 4, length);
                    buffer_.erase(0, end + 4 + length);
                    return answer;
                }
            }
            char chunk[4096];
            const ssize_t got = ::recv(fd_, chunk, sizeof chunk, 0);
            if (got <= 0) {
                return std::nullopt;
            }
            buffer_.append(chunk, static_cast<std::size_t>(got));
        }
    }

    // Whether the server closes the connection (end of stream) before the receive timeout,
    // reading past anything it still sends.
    bool ClosedByServer() {
        char chunk[4096];
        for (;;) {
            const ssize_t got = ::recv(fd_, chunk, sizeof chunk, 0);
            if (got == 0) {
                return true;
            }
            if (got < 0) {
                return false;
            }
        }
    }

private:
    int fd_;
    bool connected_ = false;
    std::string buffer_;
};

// The resident memory of process `pid` in kB (VmRSS), or -1.
inline std::int64_t ResidentKb(pid_t pid) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0) {
            return std::stoll(line.substr(6));
        }
    }
    return -1;
}

}  // namespace lastro::e2e
