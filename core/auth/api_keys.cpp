#include "core/auth/api_keys.hpp"

#include "core/storage/reply_deadline.hpp"

#include "core/storage/database.hpp"
#include "core_model-odb.hxx"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <odb/transaction.hxx>

#include <ctime>
#include <sstream>
#include <stdexcept>

namespace lastro::auth {
namespace {

std::string Hex(const unsigned char* bytes, std::size_t size) {
    static const char* kDigits = "0123456789abcdef";
    std::string out;
    out.reserve(size * 2);
    for (std::size_t i = 0; i < size; ++i) {
        out.push_back(kDigits[bytes[i] >> 4]);
        out.push_back(kDigits[bytes[i] & 0x0F]);
    }
    return out;
}

std::string JoinScopes(const std::vector<std::string>& scopes) {
    if (scopes.empty()) {
        return "*";
    }
    std::string joined;
    for (const auto& s : scopes) {
        joined += (joined.empty() ? "" : ",") + s;
    }
    return joined;
}

}  // namespace

std::string HashKey(const std::string& secret) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    if (EVP_Digest(secret.data(), secret.size(), digest, &size, EVP_sha256(), nullptr) != 1) {
        throw std::runtime_error("SHA-256 failed");
    }
    return Hex(digest, size);
}

bool LooksLikeKey(const std::string& text) {
    constexpr std::size_t kPrefix = 4;  // "lst_"
    if (text.size() != kPrefix + 48 || text.compare(0, kPrefix, kKeyPrefix) != 0) {
        return false;
    }
    for (std::size_t i = kPrefix; i < text.size(); ++i) {
        const char c = text[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
            return false;
        }
    }
    return true;
}

CreatedKey KeyStore::Create(const NewKeyRequest& request) {
    unsigned char random[24];
    if (RAND_bytes(random, sizeof random) != 1) {
        throw std::runtime_error("the system's random number generator failed");
    }
    CreatedKey created;
    created.secret = std::string(kKeyPrefix) + Hex(random, sizeof random);
    storage::ApiKey key;
    key.name = request.name;
    key.display_prefix = created.secret.substr(0, 12);
    key.secret_hash = HashKey(created.secret);
    key.scopes = JoinScopes(request.scopes);
    key.monthly_credits = request.monthly_credits;
    key.calls_per_minute = request.calls_per_minute;
    key.created_at = storage::Rfc3339(std::time(nullptr));
    storage::WithWriteTransaction(db_, [&] { db_.persist(key); });
    created.id = key.id;
    return created;
}

std::vector<storage::ApiKey> KeyStore::List() {
    std::vector<storage::ApiKey> keys;
    odb::transaction t(db_.begin());
    auto result =
        db_.query<storage::ApiKey>(odb::query<storage::ApiKey>("ORDER BY" + odb::query<storage::ApiKey>::id));
    for (const auto& key : result) {
        keys.push_back(key);
    }
    t.commit();
    return keys;
}

bool KeyStore::Revoke(std::int64_t id) {
    bool found = false;
    storage::WithWriteTransaction(db_, [&] {
        std::unique_ptr<storage::ApiKey> key(db_.find<storage::ApiKey>(id));
        found = key != nullptr;
        if (key && !key->revoked_at) {
            key->revoked_at = storage::Rfc3339(std::time(nullptr));
            db_.update(*key);
        }
    });
    return found;
}

std::optional<Principal> KeyStore::Authenticate(const std::string& secret) {
    if (!LooksLikeKey(secret)) {
        return std::nullopt;
    }
    return AuthenticateHash(HashKey(secret));
}

std::optional<Principal> KeyStore::AuthenticateHash(const std::string& hash) {
    using Query = odb::query<storage::ApiKey>;
    std::optional<storage::ApiKey> key;
    {
        odb::connection_ptr connection(db_.connection());
        std::optional<storage::ReplyDeadline> bound;
        if (reply_timeout_.count() > 0) {
            bound.emplace(*connection, std::chrono::steady_clock::now() + reply_timeout_);
        }
        odb::transaction t(connection->begin());
        auto result = db_.query<storage::ApiKey>(Query::secret_hash == hash);
        for (const auto& k : result) {
            key = k;
        }
        t.commit();
    }
    // The index lookup finds the row; the comparison that decides is constant time.
    if (!key || key->secret_hash.size() != hash.size() ||
        CRYPTO_memcmp(key->secret_hash.data(), hash.data(), hash.size()) != 0 || key->revoked_at) {
        return std::nullopt;
    }
    Principal principal;
    principal.key_id = key->id;
    principal.monthly_credits = key->monthly_credits;
    principal.calls_per_minute = key->calls_per_minute;
    std::stringstream scopes(key->scopes);
    std::string scope;
    while (std::getline(scopes, scope, ',')) {
        if (scope == "*") {
            principal.all_scopes = true;
        } else if (!scope.empty()) {
            principal.scopes.insert(scope);
        }
    }
    return principal;
}

}  // namespace lastro::auth
