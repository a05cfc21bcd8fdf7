// Fuzz target: the SDK's zip reader (sdk/src/zip_archive.cpp over libzip): open the archive,
// list its members, their times, and stream each one to its end (a bounded amount of it, as a
// zip bomb is libzip's to inflate, not ours to wait for). ZipArchive reads a path, so each input
// is written to one file of this process first. Only IngestError may come out.
#include "fuzz_support.hpp"

#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/zip_archive.hpp>

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

using namespace lastro;

namespace {

constexpr std::size_t kReadLimit = 1 << 20;  // per member

std::filesystem::path ScratchFile() {
    const char* tmp = std::getenv("TMPDIR");
    return std::filesystem::path(tmp && *tmp ? tmp : "/tmp") /
           ("lastro-fuzz-zip-" + std::to_string(::getpid()) + ".zip");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::filesystem::path path = ScratchFile();
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
        if (!out) {
            std::abort();  // the harness's own failure, not the reader's
        }
    }
    fuzz::ExpectOnly<sdk::IngestError>("zip_reader", [&] {
        sdk::ZipArchive archive(path);
        char buffer[1 << 14];
        for (const std::string& member : archive.Members()) {
            (void)archive.Has(member);
            (void)archive.ModifiedAt(member);
            fuzz::ExpectOnly<sdk::IngestError>("zip_reader", [&] {
                auto source = archive.Open(member);
                std::size_t total = 0;
                while (total < kReadLimit) {
                    const std::size_t n = source->Read(buffer, sizeof buffer);
                    if (n == 0) {
                        break;
                    }
                    total += n;
                }
            });
        }
        fuzz::ExpectOnly<sdk::IngestError>("zip_reader", [&] { (void)archive.Open("no such member"); });
    });
    return 0;
}
