// API keys: "lst_" followed by 48 hexadecimal digits (192 bits from the OS CSPRNG). Only the
// SHA-256 of a key is stored; lookups go by that hash and the final comparison is constant
// time (docs/billing.md, "Keys").
#pragma once

#include "core/storage/core_model.hxx"

#include <odb/database.hxx>

#include <chrono>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace lastro::auth {

inline constexpr const char* kKeyPrefix = "lst_";

struct NewKeyRequest {
    std::string name;
    std::optional<std::int64_t> monthly_credits;
    std::optional<std::int64_t> calls_per_minute;
    std::vector<std::string> scopes;  // empty: every scope ("*")
};

struct CreatedKey {
    std::int64_t id = 0;
    std::string secret;  // shown once, never stored
};

// The identity a request carries after authentication.
struct Principal {
    std::int64_t key_id = 0;
    std::set<std::string> scopes;
    bool all_scopes = false;
    std::optional<std::int64_t> monthly_credits;
    std::optional<std::int64_t> calls_per_minute;

    bool HasScope(const std::string& scope) const { return all_scopes || scopes.count(scope) != 0; }
};

std::string HashKey(const std::string& secret);
// True for the shape of a key ("lst_" + 48 lower-case hex digits).
bool LooksLikeKey(const std::string& text);

class KeyStore {
public:
    // `reply_timeout`, when set, bounds how long an authentication waits for PostgreSQL
    // (storage/reply_deadline.hpp): a server that stops answering costs a 503, not a hung call.
    explicit KeyStore(odb::database& db, std::chrono::milliseconds reply_timeout = {})
        : db_(db), reply_timeout_(reply_timeout) {}

    CreatedKey Create(const NewKeyRequest& request);
    std::vector<storage::ApiKey> List();
    // False when no key has that id; revoking twice keeps the first revocation time.
    bool Revoke(std::int64_t id);
    // The key's principal, or nullopt for a malformed, unknown or revoked key.
    std::optional<Principal> Authenticate(const std::string& secret);
    // The same for a key already hashed with HashKey() (KeyCache hashes once).
    std::optional<Principal> AuthenticateHash(const std::string& hash);

private:
    odb::database& db_;
    std::chrono::milliseconds reply_timeout_;
};

}  // namespace lastro::auth
