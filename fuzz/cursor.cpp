// Fuzz target: the pagination cursor decoder (core/arguments/cursor_codec.cpp). A client may send any
// text as `cursor`; it must come back as a CursorError, never a crash or an exception. Most
// inputs stop at the signature, so each input is also tried as a cursor body signed with the
// secret (as a cursor of ours that a future version could have written), which reaches the
// base64 and JSON reading behind it; a payload that decodes must encode and decode to itself.
#include "fuzz_support.hpp"

#include "core/arguments/cursor_codec.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <variant>

using namespace lastro;

namespace {

const std::string kSecret = "fuzz-secret";
const std::string kOperation = "funds.search";
const std::string kFilters = "F1";
constexpr std::int64_t kKeyId = 1;
constexpr std::time_t kNow = 2000000000;  // 2033: fuzzed issue times may be before or after it

// The codec's signature (HMAC-SHA256 of the body, 16 bytes, base64url), written again here so
// the fuzzer can sign bodies; Init checks it still agrees with CursorCodec::Encode.
std::string SignBody(const std::string& body) {
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    HMAC(EVP_sha256(), kSecret.data(), static_cast<int>(kSecret.size()),
         reinterpret_cast<const unsigned char*>(body.data()), body.size(), mac, &size);
    return arguments::Base64UrlEncode(std::string(reinterpret_cast<char*>(mac), 16));
}

void Check(const arguments::CursorCodec& codec, const std::string& cursor) {
    try {
        auto decoded = codec.Decode(cursor, kOperation, kFilters, kKeyId, kNow);
        if (auto* payload = std::get_if<arguments::CursorPayload>(&decoded)) {
            const std::string again = codec.Encode(*payload);
            auto redecoded = codec.Decode(again, kOperation, kFilters, kKeyId, kNow);
            auto* same = std::get_if<arguments::CursorPayload>(&redecoded);
            if (!same || same->key_id != payload->key_id || same->issued_at != payload->issued_at ||
                same->paid_limit != payload->paid_limit || same->position != payload->position) {
                std::fprintf(stderr, "cursor: a decoded payload did not survive Encode and Decode\n");
                std::abort();
            }
        }
    } catch (const std::exception& e) {
        fuzz::UnexpectedException("cursor", e);
    }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    arguments::CursorCodec codec(kSecret);
    const std::string cursor =
        codec.Encode({kOperation, kFilters, kKeyId, 2, 10, boost::json::object{{"a", 1}}});
    const auto dot = cursor.find('.');
    if (dot == std::string::npos || cursor.substr(dot + 1) != SignBody(cursor.substr(0, dot))) {
        std::fprintf(stderr, "cursor: fuzz/cursor.cpp's SignBody no longer matches CursorCodec; update it\n");
        std::abort();
    }
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const arguments::CursorCodec codec(kSecret);
    const std::string text(reinterpret_cast<const char*>(data), size);
    Check(codec, text);                                         // as sent
    Check(codec, text + "." + SignBody(text));                  // a signed body of any text
    const std::string body = arguments::Base64UrlEncode(text);  // a signed body holding any JSON text
    Check(codec, body + "." + SignBody(body));
    return 0;
}
