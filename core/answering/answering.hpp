// The answering part of the request pipeline: a call's answer from its operation's handler, run
// in a read transaction of its own, or from the response cache while no ingest has committed
// since (response_cache.hpp). Owns the response cache, what handlers keep between calls and the
// releases remembered per generation (ingest/release_cache.hpp), and the newest release id seen.
// A billed call may be answered from memory at the newest id seen without reading the database;
// its answer then names a precondition for its settlement: this part, as a billing::VersionSource,
// reads the newest release id on the ledger writer's connection in the settlement's batch (no
// wait of its own). When a newer release replaced it, the call is answered anew on this part's
// own thread (answers_anew.hpp). Shared by every request thread.
#pragma once

#include "core/answering/answers_anew.hpp"
#include "core/answering/negotiation.hpp"
#include "core/answering/response_cache.hpp"
#include "core/arguments/arguments.hpp"
#include "core/billing/precondition.hpp"
#include "core/ingest/release_cache.hpp"
#include "core/plugins/manifest.hpp"
#include "core/request/refusal.hpp"

#include <lastro/sdk/plugin.hpp>

#include <odb/connection.hxx>
#include <odb/database.hxx>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lastro::answering {

// What answers an operation: its manifest entry, its handler, the meta member
// ,"field_sources":{...} of every answer ("" when it declares none), and what names the code
// that answers it (the server's and the plugin's versions), part of every answer's ETag.
struct Operation {
    const plugins::OperationSpec* spec = nullptr;
    const sdk::Handler* handler = nullptr;
    const std::string* field_sources = nullptr;
    const std::string* build = nullptr;
};

// How a call's answer is represented (docs/api.md, "On the wire"): JSON or CSV (format=, else
// Accept), in gzip or not (Accept-Encoding), and the entity tags the client holds (If-None-Match).
struct Representation {
    arguments::Format format = arguments::Format::kJson;
    Coding coding = Coding::kIdentity;
    std::optional<std::string> if_none_match;
};

// Answers smaller than this go without compression: gzip would save a few bytes of one packet.
inline constexpr std::size_t kGzipThresholdBytes = 1024;

struct Answer {
    // The answer's content: `body`, or `shared_body`, which lies in an answer kept for every
    // call (a CSV table) that `shared_owner` keeps alive. Empty for a 304.
    std::string body;
    std::string_view shared_body;
    std::shared_ptr<const void> shared_owner;
    const char* content_type = "application/json";
    // ETag, Vary, Cache-Control, and by representation Content-Encoding, X-Row-Count and
    // X-Data-Release.
    std::vector<std::pair<std::string, std::string>> headers;
    bool not_modified = false;  // If-None-Match named its ETag: answered 304
    // A CSV page of a cursor operation that has a next page: that page's cursor, for the Link
    // header (the transport's part: it knows the request's address).
    std::optional<std::string> next_cursor;
    std::optional<request::Refusal> refusal;  // the handler's problem, or 500/503
    // "hit" or "miss" when the response cache was asked.
    const char* cache = nullptr;
    // Set when the answer came from memory at a generation without reading the database: the
    // call's settlement must check that generation is still the newest.
    std::optional<billing::Precondition> settle_only_if;
};

struct AnsweringSettings {
    std::size_t response_cache_bytes = 0;  // 0: no response cache
    std::chrono::milliseconds reply_timeout{0};
};

class Answering : public billing::VersionSource {
public:
    Answering(odb::database& db, const AnsweringSettings& settings)
        : db_(db), settings_(settings), answers_(settings.response_cache_bytes) {}

    // Issues the cursor of the page after a position (arguments::ArgumentReader::NextCursor).
    using NextCursor = std::function<std::string(const boost::json::value& next_position)>;

    // The answer of `operation` for `arguments`, its envelope carrying `request_id`. With
    // `checked_at_settlement` (the call will be settled), an answer in memory at the newest
    // generation seen may be taken without reading the database.
    Answer Run(const Operation& operation, const arguments::Arguments& arguments,
               const Representation& representation, const std::string& request_id,
               bool checked_at_settlement, const NextCursor& next_cursor);

    // The newest release id, read now on `connection` (the ledger writer's, when billing shares
    // the data's database; else on one of the data's); remembered as seen, so that calls
    // answered after an ingest start at its release.
    std::int64_t Current(odb::connection& connection) override;

    // Where a call whose settlement came back `outdated` is answered anew.
    AnswersAnew& Anew() { return anew_; }

private:
    void SawRelease(std::int64_t id);  // raises newest_seen_
    // `answer` as `representation` asks, into `call`.
    void Represent(const plugins::OperationSpec& op, const arguments::Arguments& arguments,
                   const Representation& representation, const std::string& request_id,
                   std::shared_ptr<const FrozenAnswer> answer, const NextCursor& next_cursor,
                   Answer& call) const;

    odb::database& db_;
    AnsweringSettings settings_;
    std::atomic<std::int64_t> newest_seen_{0};  // the newest release id a read has seen
    ingest::ReleaseCache releases_;  // the releases at newest_seen_, where statements are round trips
    ingest::KeptData kept_;          // what handlers keep between calls
    ResponseCache answers_;
    AnswersAnew anew_;
};

}  // namespace lastro::answering
