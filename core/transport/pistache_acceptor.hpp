// Pistache as lastrod's acceptor, and nothing more: its Tcp::Listener binds, listens and accepts;
// each accepted socket is handed at once to `on_socket` (a connection loop), before Pistache's
// reactor has read a byte of it. The only file that includes Pistache's server headers.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace lastro::transport {

class PistacheAcceptor {
public:
    // Called on Pistache's reactor thread with a connected, non-blocking socket it now owns.
    using OnSocket = std::function<void(int fd, std::string client_address)>;

    PistacheAcceptor(std::string host, std::uint16_t port, OnSocket on_socket);
    ~PistacheAcceptor();
    PistacheAcceptor(const PistacheAcceptor&) = delete;
    PistacheAcceptor& operator=(const PistacheAcceptor&) = delete;

    // Binds and accepts on Pistache's threads; returns the bound port.
    std::uint16_t Start();
    // Stops accepting; connections already handed over are not touched.
    void Stop();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace lastro::transport
