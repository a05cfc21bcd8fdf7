// Opaque, signed pagination cursors (docs/api.md, "Pagination"). A cursor carries the operation, a
// digest of the request's filters, the key and time it was issued, and the plugin's keyset
// position, signed with HMAC-SHA256 under a secret shared by every instance (core_setting).
#pragma once

#include <boost/json/value.hpp>

#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <variant>

namespace lastro::http {

struct CursorPayload {
    std::string operation;
    std::string filters;  // FiltersDigest() of the request that produced it
    std::int64_t key_id = 0;
    std::time_t issued_at = 0;
    boost::json::value position;
};

enum class CursorError {
    kMalformed,       // not a cursor of ours, or tampered with (bad signature)
    kOtherOperation,  // issued by another operation
    kOtherFilters,    // the filters differ from those of the first page
};

class CursorCodec {
public:
    explicit CursorCodec(std::string secret) : secret_(std::move(secret)) {}

    std::string Encode(const CursorPayload& payload) const;
    std::variant<CursorPayload, CursorError> Decode(const std::string& cursor, const std::string& operation,
                                                    const std::string& filters) const;

private:
    std::string Sign(const std::string& data) const;
    std::string secret_;
};

std::string Base64UrlEncode(const std::string& bytes);
std::optional<std::string> Base64UrlDecode(const std::string& text);

}  // namespace lastro::http
