// Opaque, signed pagination cursors (docs/api.md, "Pagination"). A cursor carries the operation, a
// digest of the request's filters, the key it was issued to, when and with what limit the page
// that paid for the included pages was answered, and the plugin's keyset position, signed with
// HMAC-SHA256 under a secret shared by every instance (runtime/cursor_secret.hpp).
#pragma once

#include <boost/json/value.hpp>

#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace lastro::arguments {

struct CursorPayload {
    std::string operation;
    std::string filters;  // FiltersDigest() of the request that produced it
    std::int64_t key_id = 0;
    // When the last charged page of the chain was answered: included pages are counted from it.
    std::time_t issued_at = 0;
    // That page's limit: an included page may not ask for more rows. Absent in the cursors of
    // versions before it was added (such a later page is charged).
    std::optional<std::int64_t> paid_limit;
    boost::json::value position;
};

// How far ahead of this instance's clock a cursor's issue time may be: the clocks of instances on
// one database differ by this much at most (they run NTP, docs/billing.md).
inline constexpr std::time_t kCursorClockSkewSeconds = 5;

enum class CursorError {
    kMalformed,       // not a cursor of ours, or tampered with (bad signature)
    kOtherOperation,  // issued by another operation
    kOtherFilters,    // the filters differ from those of the first page
    kOtherKey,        // issued to another API key
    kFuture,          // issued later than now (beyond kCursorClockSkewSeconds): forged
};

class CursorCodec {
public:
    // `secrets`: the first signs, every one verifies (the previous secret during a rotation).
    explicit CursorCodec(std::vector<std::string> secrets);
    explicit CursorCodec(std::string secret) : CursorCodec(std::vector<std::string>{std::move(secret)}) {}

    std::string Encode(const CursorPayload& payload) const;
    // The cursor's payload when it is ours, untouched, and was issued for this operation,
    // filters and key, not after `now` (give or take kCursorClockSkewSeconds).
    std::variant<CursorPayload, CursorError> Decode(const std::string& cursor, const std::string& operation,
                                                    const std::string& filters, std::int64_t key_id,
                                                    std::time_t now) const;

private:
    static std::string Sign(const std::string& secret, const std::string& data);
    std::vector<std::string> secrets_;
};

std::string Base64UrlEncode(const std::string& bytes);
std::optional<std::string> Base64UrlDecode(const std::string& text);

}  // namespace lastro::arguments
