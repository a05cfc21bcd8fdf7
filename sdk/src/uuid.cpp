#include <lastro/sdk/uuid.hpp>

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>

namespace lastro::sdk {

namespace {

using UuidBytes = std::array<unsigned char, 16>;

int HexValue(char c) {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

bool IsHyphenPosition(std::size_t i) {
    return i == 8 || i == 13 || i == 18 || i == 23;
}

UuidBytes ParseUuid(std::string_view text) {
    if (!IsUuid(text)) {
        throw std::invalid_argument("not a UUID: '" + std::string(text) + "'");
    }
    UuidBytes bytes{};
    std::size_t out = 0;
    for (std::size_t i = 0; i < text.size(); i += IsHyphenPosition(i) ? 1 : 2) {
        if (!IsHyphenPosition(i)) {
            bytes[out++] = static_cast<unsigned char>(HexValue(text[i]) * 16 + HexValue(text[i + 1]));
        }
    }
    return bytes;
}

// Stamps the version and the RFC 9562 variant (0b10) and writes the canonical lower-case form.
std::string Finish(UuidBytes bytes, unsigned version) {
    bytes[6] = static_cast<unsigned char>((bytes[6] & 0x0F) | (version << 4));
    bytes[8] = static_cast<unsigned char>((bytes[8] & 0x3F) | 0x80);
    static constexpr char kHex[] = "0123456789abcdef";
    std::string text;
    text.reserve(36);
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) {
            text.push_back('-');
        }
        text.push_back(kHex[bytes[i] >> 4]);
        text.push_back(kHex[bytes[i] & 0x0F]);
    }
    return text;
}

}  // namespace

std::string UuidV5(std::string_view namespace_uuid, std::string_view name) {
    const UuidBytes space = ParseUuid(namespace_uuid);
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int digest_size = 0;
    EVP_MD_CTX* context = EVP_MD_CTX_new();
    const bool ok = context != nullptr && EVP_DigestInit_ex(context, EVP_sha1(), nullptr) == 1 &&
                    EVP_DigestUpdate(context, space.data(), space.size()) == 1 &&
                    EVP_DigestUpdate(context, name.data(), name.size()) == 1 &&
                    EVP_DigestFinal_ex(context, digest, &digest_size) == 1;
    EVP_MD_CTX_free(context);
    if (!ok || digest_size < 16) {
        throw std::runtime_error("UuidV5: SHA-1 failed (OpenSSL)");
    }
    UuidBytes bytes;
    std::copy(digest, digest + bytes.size(), bytes.begin());
    return Finish(bytes, 5);
}

std::string UuidV4() {
    UuidBytes bytes;
    if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
        throw std::runtime_error("UuidV4: the random generator failed (OpenSSL RAND_bytes)");
    }
    return Finish(bytes, 4);
}

std::string UuidV7(std::uint64_t unix_ms) {
    UuidBytes bytes;
    if (RAND_bytes(bytes.data() + 6, static_cast<int>(bytes.size() - 6)) != 1) {
        throw std::runtime_error("UuidV7: the random generator failed (OpenSSL RAND_bytes)");
    }
    for (int i = 0; i < 6; ++i) {
        bytes[i] = static_cast<unsigned char>(unix_ms >> (8 * (5 - i)));
    }
    return Finish(bytes, 7);
}

bool IsUuid(std::string_view text) {
    if (text.size() != 36) {
        return false;
    }
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (IsHyphenPosition(i) ? text[i] != '-' : HexValue(text[i]) < 0) {
            return false;
        }
    }
    return true;
}

}  // namespace lastro::sdk
