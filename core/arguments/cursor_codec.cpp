#include "core/arguments/cursor_codec.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <boost/json.hpp>

#include <algorithm>
#include <stdexcept>

namespace lastro::arguments {
namespace {

constexpr std::size_t kSignatureBytes = 16;  // 128 bits of HMAC-SHA256 is plenty for a cursor

}  // namespace

std::string Base64UrlEncode(const std::string& bytes) {
    std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
    int n =
        EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                        reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
    out.resize(static_cast<std::size_t>(n));
    while (!out.empty() && out.back() == '=') {
        out.pop_back();
    }
    std::replace(out.begin(), out.end(), '+', '-');
    std::replace(out.begin(), out.end(), '/', '_');
    return out;
}

std::optional<std::string> Base64UrlDecode(const std::string& text) {
    if (text.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") !=
        std::string::npos) {
        return std::nullopt;
    }
    std::string b64 = text;
    std::replace(b64.begin(), b64.end(), '-', '+');
    std::replace(b64.begin(), b64.end(), '_', '/');
    std::size_t padding = (4 - b64.size() % 4) % 4;
    if (padding == 3) {
        return std::nullopt;
    }
    b64.append(padding, '=');
    std::string out(b64.size() / 4 * 3, '\0');
    int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                            reinterpret_cast<const unsigned char*>(b64.data()), static_cast<int>(b64.size()));
    if (n < 0) {
        return std::nullopt;
    }
    out.resize(static_cast<std::size_t>(n) - padding);
    return out;
}

CursorCodec::CursorCodec(std::vector<std::string> secrets) : secrets_(std::move(secrets)) {
    if (secrets_.empty()) {
        throw std::invalid_argument("a cursor codec needs a secret");
    }
}

std::string CursorCodec::Sign(const std::string& secret, const std::string& data) {
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
         reinterpret_cast<const unsigned char*>(data.data()), data.size(), mac, &size);
    return std::string(reinterpret_cast<char*>(mac), kSignatureBytes);
}

std::string CursorCodec::Encode(const CursorPayload& payload) const {
    boost::json::object o;
    o["o"] = payload.operation;
    o["f"] = payload.filters;
    o["k"] = payload.key_id;
    o["t"] = static_cast<std::int64_t>(payload.issued_at);
    if (payload.paid_limit) {
        o["l"] = *payload.paid_limit;
    }
    o["p"] = payload.position;
    const std::string body = Base64UrlEncode(boost::json::serialize(o));
    return body + "." + Base64UrlEncode(Sign(secrets_.front(), body));
}

std::variant<CursorPayload, CursorError> CursorCodec::Decode(const std::string& cursor,
                                                             const std::string& operation,
                                                             const std::string& filters, std::int64_t key_id,
                                                             std::time_t now) const {
    const auto dot = cursor.find('.');
    if (dot == std::string::npos) {
        return CursorError::kMalformed;
    }
    const std::string body = cursor.substr(0, dot);
    auto signature = Base64UrlDecode(cursor.substr(dot + 1));
    // Every accepted secret is tried (at most two: kMaxCursorSecrets).
    const bool signed_by_us =
        signature && std::any_of(secrets_.begin(), secrets_.end(), [&](const auto& secret) {
            const std::string expected = Sign(secret, body);
            return signature->size() == expected.size() &&
                   CRYPTO_memcmp(signature->data(), expected.data(), expected.size()) == 0;
        });
    if (!signed_by_us) {
        return CursorError::kMalformed;
    }
    auto json = Base64UrlDecode(body);
    if (!json) {
        return CursorError::kMalformed;
    }
    boost::system::error_code ec;
    boost::json::value v = boost::json::parse(*json, ec);
    if (ec || !v.is_object()) {
        return CursorError::kMalformed;
    }
    const auto& o = v.as_object();
    const auto* op = o.if_contains("o");
    const auto* f = o.if_contains("f");
    const auto* k = o.if_contains("k");
    const auto* t = o.if_contains("t");
    const auto* l = o.if_contains("l");
    const auto* p = o.if_contains("p");
    if (!op || !op->is_string() || !f || !f->is_string() || !k || !k->is_int64() || !t || !t->is_int64() ||
        (l && !l->is_int64()) || !p) {
        return CursorError::kMalformed;
    }
    if (op->as_string() != operation) {
        return CursorError::kOtherOperation;
    }
    if (k->as_int64() != key_id) {
        return CursorError::kOtherKey;
    }
    if (f->as_string() != filters) {
        return CursorError::kOtherFilters;
    }
    const auto issued_at = static_cast<std::time_t>(t->as_int64());
    if (issued_at > now + kCursorClockSkewSeconds) {
        return CursorError::kFuture;
    }
    return CursorPayload{operation,
                         filters,
                         k->as_int64(),
                         issued_at,
                         l ? std::optional<std::int64_t>(l->as_int64()) : std::nullopt,
                         *p};
}

}  // namespace lastro::arguments
