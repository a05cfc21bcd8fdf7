// The ABI identity the build generated is the hash of the SDK headers as they are now
// (cmake/header_identity.cmake): recomputed here independently, so a stale or wrongly
// generated identity fails the build's tests rather than letting mismatched plugins load.
#include <lastro/sdk/abi.hpp>

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace lastro::sdk {
namespace {

namespace fs = std::filesystem;

std::string HeaderMaterial(const fs::path& root) {
    std::vector<std::string> relative;
    for (const auto& entry : fs::recursive_directory_iterator(root / "lastro" / "sdk")) {
        const std::string rel = fs::relative(entry.path(), root).generic_string();
        if (entry.is_regular_file() && entry.path().extension() == ".hpp" &&
            rel.rfind("lastro/sdk/testing/", 0) != 0) {
            relative.push_back(rel);
        }
    }
    std::sort(relative.begin(), relative.end());
    std::string material;
    for (const std::string& rel : relative) {
        std::ifstream in(root / rel, std::ios::binary);
        material += rel + "\n" + std::string(std::istreambuf_iterator<char>(in), {}) + "\n";
    }
    return material;
}

std::string Sha256Hex(const std::string& bytes) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    EVP_Digest(bytes.data(), bytes.size(), digest, &size, EVP_sha256(), nullptr);
    static const char* kHex = "0123456789abcdef";
    std::string hex;
    for (unsigned int i = 0; i < size; ++i) {
        hex.push_back(kHex[digest[i] >> 4]);
        hex.push_back(kHex[digest[i] & 0x0F]);
    }
    return hex;
}

TEST(AbiIdentityTest, IsTheHashOfTheSdkHeadersAsTheyAreNow) {
    const std::string expected = Sha256Hex(HeaderMaterial(LASTRO_SDK_HEADER_ROOT)).substr(0, 16);
    EXPECT_EQ(std::string(kAbiIdentity), expected);
}

}  // namespace
}  // namespace lastro::sdk
