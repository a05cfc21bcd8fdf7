#include "core/answering/answering.hpp"

#include "core/ingest/release_catalog.hpp"
#include "core/request/problem.hpp"
#include "core/storage/backend_traits.hpp"
#include "core/storage/database.hpp"
#include "core/storage/reply_deadline.hpp"

#include <lastro/sdk/serving/json_text.hpp>

#include <openssl/evp.h>
#include <boost/json.hpp>
#include <odb/transaction.hxx>

#include <cstdio>
#include <ctime>
#include <stdexcept>

namespace lastro::answering {
namespace {

// What identifies a handler's answer besides the data: the operation, every parameter (defaults
// included, the cursor replaced by the position it carries).
std::string AnswerKey(const plugins::OperationSpec& op, const sdk::Params& params,
                      const std::optional<boost::json::value>& position) {
    std::string key = op.id;
    for (const auto& [name, value] : params.All()) {
        if (name == "cursor")
            continue;
        key += '\n';
        key += name;
        key += '=';
        key += arguments::ParamText(value);
    }
    if (position) {
        key += "\n@";
        key += boost::json::serialize(*position);
    }
    return key;
}

// A handler's result as the JSON text that every call answered by it shares, with the
// operation's field_sources member (Route::field_sources) after the handler's own members.
std::shared_ptr<FrozenAnswer> Freeze(sdk::Result result, const Operation& operation) {
    if (result.meta.extra.contains("field_sources")) {
        throw std::logic_error("the handler of " + operation.spec->id +
                               " sets meta.field_sources; the host answers it from the manifest's "
                               "response fields (source:)");
    }
    auto frozen = std::make_shared<FrozenAnswer>();
    boost::json::object meta;
    meta["data_release"] = result.meta.data_release ? boost::json::value(*result.meta.data_release) : nullptr;
    meta["as_of"] = result.meta.as_of ? boost::json::value(*result.meta.as_of) : nullptr;
    meta["row_count"] = result.data.is_array()
                            ? result.data.as_array().size()
                            : result.meta.row_count.value_or(result.data.is_null() ? 0 : 1);
    boost::json::array sources;
    for (const sdk::Source& s : result.meta.sources) {
        sources.push_back(boost::json::object{{"provider", s.provider}, {"dataset", s.dataset}});
    }
    meta["sources"] = std::move(sources);
    for (const auto& [key, value] : result.meta.extra) {
        meta[key] = value;
    }
    const std::string members = sdk::WriteJson(meta);  // "{...}", never empty: data_release is always there
    frozen->meta = "," + members.substr(1, members.size() - 2) + *operation.field_sources;
    if (result.data_json) {
        if (!result.data.is_null()) {
            throw std::logic_error("the handler of " + operation.spec->id + " sets both data and data_json");
        }
        frozen->data = std::move(*result.data_json);
    } else {
        frozen->data = sdk::WriteJson(result.data);
    }
    frozen->next_position = std::move(result.meta.next_position);
    frozen->data_release = std::move(result.meta.data_release);
    return frozen;
}

// An RFC 3339 UTC time ("2026-11-30T07:46:43Z") as an HTTP date (RFC 9110, 5.6.7: IMF-fixdate);
// "" when it is not one.
std::string HttpDate(const std::optional<std::string>& rfc3339) {
    std::tm parts{};
    if (!rfc3339 || !strptime(rfc3339->c_str(), "%Y-%m-%dT%H:%M:%SZ", &parts)) {
        return "";
    }
    const std::time_t at = timegm(&parts);
    std::tm utc{};
    gmtime_r(&at, &utc);
    static constexpr const char* kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                              "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    char text[32];
    std::snprintf(text, sizeof text, "%s, %02d %s %04d %02d:%02d:%02d GMT", kDays[utc.tm_wday], utc.tm_mday,
                  kMonths[utc.tm_mon], utc.tm_year + 1900, utc.tm_hour, utc.tm_min, utc.tm_sec);
    return text;
}

// 16 hex digits naming an answer: the code that answered (the server's and plugin's versions),
// the operation and its parameters (AnswerKey), the newest release when the data was read.
// Any change of these changes it; nothing else does (docs/api.md, "Conditional requests").
std::string AnswerTag(const std::string& build, const std::string& key, std::int64_t generation) {
    const std::string named = build + '\n' + key + '\n' + std::to_string(generation);
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    EVP_Digest(named.data(), named.size(), digest, &size, EVP_sha256(), nullptr);
    static constexpr char kHex[] = "0123456789abcdef";
    std::string tag;
    for (int i = 0; i < 8; ++i) {
        tag += kHex[digest[i] >> 4];
        tag += kHex[digest[i] & 0xf];
    }
    return tag;
}

}  // namespace

void Answering::SawRelease(std::int64_t id) {
    std::int64_t seen = newest_seen_.load(std::memory_order_relaxed);
    while (seen < id && !newest_seen_.compare_exchange_weak(seen, id, std::memory_order_relaxed)) {
    }
}

std::int64_t Answering::Current(odb::connection& connection) {
    std::int64_t newest = 0;
    if (&connection.database() == &db_) {
        newest = ingest::ReleaseCatalog::NewestReleaseIdNow(db_, connection);
    } else {
        odb::connection_ptr data(db_.connection());
        newest = ingest::ReleaseCatalog::NewestReleaseIdNow(db_, *data);
    }
    SawRelease(newest);
    return newest;
}

Answer Answering::Run(const Operation& operation, const arguments::Arguments& arguments,
                      const Representation& representation, const std::string& request_id,
                      bool checked_at_settlement, const NextCursor& next_cursor) {
    const plugins::OperationSpec& op = *operation.spec;
    const sdk::Params& params = arguments.params;
    const std::optional<boost::json::value>& position = arguments.position;
    Answer call;
    try {
        const std::string key = AnswerKey(op, params, position);
        std::int64_t generation = 0;
        std::shared_ptr<const FrozenAnswer> answer;
        bool computed = false;  // by the handler, on this call
        if (answers_.Enabled() && checked_at_settlement) {
            // No database read at all: the settlement's batch reads the newest release id once
            // for all its calls (docs/performance.md, "Response cache").
            const std::int64_t seen = newest_seen_.load(std::memory_order_relaxed);
            answer = answers_.Find(key, seen);
            if (answer) {
                call.cache = "hit";
                call.settle_only_if = billing::Precondition{this, seen};
            }
        }
        // Every read below is on this connection, bounded on PostgreSQL: a server that stops
        // answering costs the call a 503 (storage/reply_deadline.hpp).
        odb::connection_ptr connection;
        std::optional<storage::ReplyDeadline> bound;
        if (!answer) {
            connection = db_.connection();
            if (settings_.reply_timeout.count() > 0) {
                bound.emplace(*connection, std::chrono::steady_clock::now() + settings_.reply_timeout);
            }
        }
        if (!answer && answers_.Enabled() && storage::StatementsAreRoundTrips(db_) &&
            !checked_at_settlement) {
            // A call not settled (an included page) checks the release itself: a hit needs
            // only the newest id, one round trip outside any transaction (a transaction is three). A miss
            // reads it again below, in the handler's transaction, so that the answer stored is of the release
            // it is stored under.
            const std::int64_t newest = ingest::ReleaseCatalog::NewestReleaseIdNow(db_, *connection);
            SawRelease(newest);
            answer = answers_.Find(key, newest);
            call.cache = answer ? "hit" : "miss";
        }
        if (!answer) {
            ingest::ReleaseCatalog releases(db_);
            odb::transaction t(storage::BeginRead(connection));
            // Read before the handler reads the data, in its transaction: on SQLite one
            // snapshot, so the answer is of the release it is stored under (and its ETag names);
            // on PostgreSQL (a statement a transaction) of that release or a newer one, never an
            // older.
            generation = releases.NewestReleaseId();
            if (answers_.Enabled()) {
                SawRelease(generation);
                answer = answers_.Find(key, generation);
                call.cache = answer ? "hit" : "miss";
            }
            // Without the cache the id only names the answer (its ETag): it is not taken as seen,
            // so that what handlers keep is still looked up at the newest id seen below, which
            // the settlement checks, as before there were ETags.
            if (!answer) {
                // On PostgreSQL the releases for meta, and what handlers keep, come from memory,
                // a round trip fewer each (release_cache.hpp): with the response cache at the id
                // just read; without it at the newest id seen, which this call's settlement
                // checks when something was remembered. On SQLite what handlers keep is of the
                // newest id in the call's snapshot.
                std::optional<ingest::CachedReleases> remembered;
                std::optional<ingest::SnapshotReleases> snapshot;
                const sdk::Host* host = &releases;
                const std::int64_t at =
                    answers_.Enabled() ? generation : newest_seen_.load(std::memory_order_relaxed);
                if (!storage::SnapshotPerTransaction(db_)) {
                    if (answers_.Enabled() || checked_at_settlement) {
                        host = &remembered.emplace(db_, releases_, kept_, at,
                                                   [this](std::int64_t id) { SawRelease(id); });
                    }
                } else {
                    host = &snapshot.emplace(db_, kept_,
                                             answers_.Enabled() ? std::optional(generation) : std::nullopt);
                }
                sdk::RequestContext context{op.id, request_id, params, db_, *host, position};
                auto frozen = Freeze((*operation.handler)(context), operation);
                frozen->tag = AnswerTag(*operation.build, key, generation);
                frozen->last_modified = HttpDate(releases.IngestedAt(generation));
                answer = std::move(frozen);
                computed = true;
                if (remembered && remembered->Remembered() && !answers_.Enabled()) {
                    call.settle_only_if = billing::Precondition{this, at};
                }
            }
            t.commit();
        }
        if (answers_.Enabled() && computed) {
            answers_.Store(key, generation, answer);
        }
        Represent(op, arguments, representation, request_id, std::move(answer), next_cursor, call);
    } catch (const sdk::Problem& p) {
        call.refusal = request::Refusal{request::StatusOf(p.Code()), p.what(), p.Parameter()};
    } catch (const std::exception& e) {
        if (storage::IsUnavailable(e)) {
            call.refusal = request::Unavailable(e.what());
        } else {
            call.refusal =
                request::Refusal{500, "an internal error occurred; quote request_id " + request_id};
            call.refusal->cause = e.what();
        }
    }
    return call;
}

void Answering::Represent(const plugins::OperationSpec& op, const arguments::Arguments& arguments,
                          const Representation& representation, const std::string& request_id,
                          std::shared_ptr<const FrozenAnswer> answer, const NextCursor& next_cursor,
                          Answer& call) const {
    const bool csv = representation.format == arguments::Format::kCsv;
    const FrozenAnswer::Csv* table = csv ? &answer->CsvForm(op.response.rows) : nullptr;
    const std::size_t size = csv ? table->text.size() : answer->data.size() + answer->meta.size();
    const bool gzip = representation.coding == Coding::kGzip && size >= kGzipThresholdBytes;
    // Strong: one tag per representation, so that a cache never takes the gzip bytes for the
    // plain ones (RFC 9110, 8.8.3.3).
    std::string etag = "\"" + answer->tag + (csv ? "-csv" : "") + (gzip ? "-gzip" : "") + "\"";
    const bool not_modified =
        representation.if_none_match && NoneMatchNames(*representation.if_none_match, etag);
    call.headers.emplace_back("ETag", std::move(etag));
    call.headers.emplace_back("Vary", "Accept, Accept-Encoding");
    call.headers.emplace_back("Cache-Control", "private, no-cache");
    if (!answer->last_modified.empty()) {
        call.headers.emplace_back("Last-Modified", answer->last_modified);
    }
    if (not_modified) {
        call.not_modified = true;
        return;
    }
    if (gzip) {
        call.headers.emplace_back("Content-Encoding", "gzip");
    }
    std::optional<std::string> cursor;
    if (op.pagination == plugins::Pagination::kCursor && answer->next_position) {
        cursor = next_cursor(*answer->next_position);
    }
    if (csv) {
        call.content_type = "text/csv; charset=utf-8; header=present";
        call.headers.emplace_back("X-Row-Count", std::to_string(table->rows));
        if (answer->data_release) {
            call.headers.emplace_back("X-Data-Release", *answer->data_release);
        }
        call.shared_body = gzip ? std::string_view(answer->CsvGzipForm(op.response.rows)) : table->text;
        call.shared_owner = std::move(answer);
        call.next_cursor = std::move(cursor);
        return;
    }
    // The envelope: what the answer keeps, and what is the call's own (request_id, pagination).
    const std::string opening = "{\"data\":";
    const std::string call_meta =
        ",\"meta\":{\"request_id\":" + sdk::WriteJson(boost::json::value(request_id));
    std::string closing;
    if (op.pagination == plugins::Pagination::kCursor) {
        boost::json::object pagination;
        pagination["limit"] = arguments.params.Integer("limit").value_or(0);
        pagination["has_more"] = cursor.has_value();
        pagination["next_cursor"] = cursor ? boost::json::value(*cursor) : boost::json::value(nullptr);
        closing = ",\"pagination\":" + sdk::WriteJson(pagination);
    }
    closing += "}}";
    if (gzip) {
        const FrozenAnswer::Deflated& deflated = answer->DeflatedForm();
        GzipMember member;
        member.Add(opening);
        member.Add(deflated.data);
        member.Add(call_meta);
        member.Add(deflated.meta);
        member.Add(closing);
        call.body = member.Finish();
        return;
    }
    std::string& body = call.body;
    body.reserve(answer->data.size() + answer->meta.size() + call_meta.size() + closing.size() + 16);
    body += opening;
    body += answer->data;
    body += call_meta;
    body += answer->meta;
    body += closing;
}

}  // namespace lastro::answering
