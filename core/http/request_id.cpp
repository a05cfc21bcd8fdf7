#include "core/http/request_id.hpp"

#include <openssl/rand.h>

#include <array>
#include <cstdint>
#include <stdexcept>

namespace lastro::http {

std::string NewRequestId(std::chrono::system_clock::time_point now) {
    std::array<unsigned char, 16> b{};
    if (RAND_bytes(b.data() + 6, 10) != 1) {
        throw std::runtime_error("request id: the random generator failed (OpenSSL RAND_bytes)");
    }
    const auto ms = static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count());
    for (int i = 0; i < 6; ++i) {
        b[i] = static_cast<unsigned char>(ms >> (8 * (5 - i)));
    }
    b[6] = static_cast<unsigned char>((b[6] & 0x0F) | 0x70);  // version 7
    b[8] = static_cast<unsigned char>((b[8] & 0x3F) | 0x80);  // variant 10
    static const char* kHex = "0123456789abcdef";
    std::string text;
    text.reserve(36);
    for (std::size_t i = 0; i < b.size(); ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) {
            text.push_back('-');
        }
        text.push_back(kHex[b[i] >> 4]);
        text.push_back(kHex[b[i] & 0x0F]);
    }
    return text;
}

}  // namespace lastro::http
