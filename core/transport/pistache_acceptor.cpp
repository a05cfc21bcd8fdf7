#include "core/transport/pistache_acceptor.hpp"

#include <pistache/listener.h>
#include <pistache/net.h>
#include <pistache/peer.h>
#include <pistache/tcp.h>
#include <pistache/transport.h>

#include <fcntl.h>
#include <sys/socket.h>

#include <utility>
#include <vector>

namespace lastro::transport {
namespace {

using namespace Pistache;

// Pistache's reactor calls a handler for input it reads; it never reads ours (HandOver).
class NoInput : public Tcp::Handler {
public:
    void onInput(const char*, size_t, const std::shared_ptr<Tcp::Peer>&) override {}
    std::shared_ptr<Tcp::Handler> clone() const override { return std::make_shared<NoInput>(); }
};

// Pistache's transport for one reactor thread. Its own onReady registers each accepted peer with
// the reactor; right after, in the same call (so before the reactor polls again), the peer's
// socket is duplicated for `on_socket` and Pistache's side removed (out of its epoll, its
// descriptor closed): Pistache keeps no connection, and lastrod's loop is the socket's one
// reader and writer.
class HandOver : public Tcp::Transport {
public:
    HandOver(const std::shared_ptr<Tcp::Handler>& handler,
             std::shared_ptr<const PistacheAcceptor::OnSocket> on_socket)
        : Tcp::Transport(handler), handler_(handler), on_socket_(std::move(on_socket)) {}

    void onReady(const Aio::FdSet& fds) override {
        Tcp::Transport::onReady(fds);
        if (peers.empty()) {
            return;
        }
        std::vector<std::shared_ptr<Tcp::Peer>> accepted;
        for (const auto& [fd, peer] : peers) {
            accepted.push_back(peer);
        }
        for (const auto& peer : accepted) {
            const int fd = ::fcntl(peer->fd(), F_DUPFD_CLOEXEC, 0);
            std::string address = peer->address().host();
            removePeer(peer);  // out of Pistache's epoll, its descriptor closed
            if (fd >= 0) {
                (*on_socket_)(fd, std::move(address));
            }  // else: out of descriptors; the client sees its connection closed
        }
    }

    std::shared_ptr<Aio::Handler> clone() const override {
        return std::make_shared<HandOver>(handler_->clone(), on_socket_);
    }

private:
    std::shared_ptr<Tcp::Handler> handler_;
    std::shared_ptr<const PistacheAcceptor::OnSocket> on_socket_;
};

}  // namespace

struct PistacheAcceptor::Impl {
    std::string host;
    std::uint16_t port = 0;
    std::shared_ptr<const OnSocket> on_socket;
    std::unique_ptr<Tcp::Listener> listener;
};

PistacheAcceptor::PistacheAcceptor(std::string host, std::uint16_t port, OnSocket on_socket)
    : impl_(std::make_unique<Impl>()) {
    impl_->host = std::move(host);
    impl_->port = port;
    impl_->on_socket = std::make_shared<const OnSocket>(std::move(on_socket));
}

PistacheAcceptor::~PistacheAcceptor() {
    Stop();
}

std::uint16_t PistacheAcceptor::Start() {
    impl_->listener = std::make_unique<Tcp::Listener>(Address(impl_->host, Port(impl_->port)));
    // One reactor thread: it only moves accepted sockets to the loops.
    Flags<Tcp::Options> options(Tcp::Options::ReuseAddr);
    options.setFlag(Tcp::Options::CloseOnExec);
    impl_->listener->init(1, options, "http-acceptor");
    auto handler = std::make_shared<NoInput>();
    impl_->listener->setHandler(handler);
    impl_->listener->setTransportFactory(
        [handler, on_socket = impl_->on_socket] { return std::make_shared<HandOver>(handler, on_socket); });
    impl_->listener->bind();
    impl_->listener->runThreaded();
    return static_cast<std::uint16_t>(impl_->listener->getPort());
}

void PistacheAcceptor::Stop() {
    if (impl_->listener) {
        impl_->listener->shutdown();
        impl_->listener.reset();
    }
}

}  // namespace lastro::transport
