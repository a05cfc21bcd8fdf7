// Shared by the fuzz targets (fuzz/README.md): the fuzzer's bytes as a ByteSource, and the rule
// every target checks: bad input may only end in the error type the API documents for it. Any
// other exception escaping is a finding too (a user would get an unclear message or a 500), so
// it aborts, which libFuzzer reports as a crash and keeps the input.
#pragma once

#include <lastro/sdk/byte_source.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <typeinfo>

namespace lastro::fuzz {

// Hands the bytes out in chunks of `chunk`, so line ends fall on the readers' buffer edges.
class MemorySource final : public sdk::ByteSource {
public:
    MemorySource(const std::uint8_t* data, std::size_t size, std::size_t chunk, std::string name)
        : data_(data), size_(size), chunk_(std::max<std::size_t>(chunk, 1)), name_(std::move(name)) {}

    std::size_t Read(char* buffer, std::size_t size) override {
        const std::size_t n = std::min({size, chunk_, size_ - pos_});
        if (n > 0) {
            std::memcpy(buffer, data_ + pos_, n);
        }
        pos_ += n;
        return n;
    }
    const std::string& Name() const override { return name_; }

private:
    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t chunk_;
    std::size_t pos_ = 0;
    std::string name_;
};

[[noreturn]] inline void UnexpectedException(const char* target, const std::exception& e) {
    std::fprintf(stderr, "%s: unexpected exception %s: %s\n", target, typeid(e).name(), e.what());
    std::abort();
}

// Runs `body`; the documented error `Expected` is an answer, anything else aborts.
template <typename Expected, typename Body>
void ExpectOnly(const char* target, Body&& body) {
    try {
        body();
    } catch (const Expected&) {
    } catch (const std::exception& e) {
        UnexpectedException(target, e);
    }
}

}  // namespace lastro::fuzz
