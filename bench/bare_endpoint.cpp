// The baseline for bench/run.sh: a bare Pistache endpoint that answers every request with a
// small fixed JSON body, with the same threads and the same Connection fix as lastrod, so a
// comparison measures Lastro's own work and not reconnects.
#include <pistache/endpoint.h>
#include <pistache/http.h>

#include <pthread.h>
#include <csignal>
#include <cstdio>
#include <cstdlib>

namespace {

using namespace Pistache;

class BareHandler : public Http::Handler {
public:
    HTTP_PROTOTYPE(BareHandler)

    void onRequest(const Http::Request& request, Http::ResponseWriter response) override {
        if (request.version() == Http::Version::Http11) {
            response.headers().remove<Http::Header::Connection>();
            response.headers().add<Http::Header::Connection>(Http::ConnectionControl::KeepAlive);
        }
        response.send(Http::Code::Ok, R"({"data":[],"meta":{"row_count":0}})", MIME(Application, Json));
    }
};

}  // namespace

int main(int argc, char** argv) {
    const int port = argc > 1 ? std::atoi(argv[1]) : 8090;
    const int threads = argc > 2 ? std::atoi(argv[2]) : 2;
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop, nullptr);
    Http::Endpoint endpoint(Address(Ipv4::loopback(), Port(static_cast<std::uint16_t>(port))));
    endpoint.init(Http::Endpoint::options().threads(threads).flags(Tcp::Options::ReuseAddr));
    endpoint.setHandler(Http::make_handler<BareHandler>());
    endpoint.serveThreaded();
    std::fprintf(stderr, "bare endpoint on 127.0.0.1:%d\n", port);
    int signal = 0;
    sigwait(&stop, &signal);
    endpoint.shutdown();
    return 0;
}
