#include "core/sync/sync_runner.hpp"

#include "core/ingest/run_outcomes.hpp"

#include <boost/json.hpp>

#include <openssl/evp.h>

#include <unistd.h>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace lastro::sync {

namespace {

namespace fs = std::filesystem;

// What the last successful sync kept of one URL.
struct Known {
    Validators validators;
    std::string sha256;
};

class State {
public:
    explicit State(fs::path file) : file_(std::move(file)) {
        std::ifstream in(file_, std::ios::binary);
        if (!in) {
            return;  // the first run
        }
        std::stringstream text;
        text << in.rdbuf();
        boost::system::error_code ec;
        const boost::json::value parsed = boost::json::parse(text.str(), ec);
        if (ec || !parsed.is_object()) {
            throw SyncError(file_.string() +
                            ": not the sync state lastro writes (delete it to fetch everything again)");
        }
        for (const auto& [url, entry] : parsed.as_object()) {
            const boost::json::object* o = entry.if_object();
            if (!o) {
                continue;
            }
            Known known;
            const auto text_of = [o](const char* name) -> std::optional<std::string> {
                const boost::json::value* v = o->if_contains(name);
                return v && v->is_string() ? std::optional<std::string>(v->get_string()) : std::nullopt;
            };
            known.validators.etag = text_of("etag");
            known.validators.last_modified = text_of("last_modified");
            known.sha256 = text_of("sha256").value_or("");
            urls_[std::string(url)] = std::move(known);
        }
    }

    const Known* Find(const std::string& url) const {
        auto it = urls_.find(url);
        return it == urls_.end() ? nullptr : &it->second;
    }
    void Set(const std::string& url, Known known) { urls_[url] = std::move(known); }

    // Written whole (a temporary file renamed over the old one), never half.
    void Save() const {
        boost::json::object o;
        for (const auto& [url, known] : urls_) {
            boost::json::object entry;
            if (known.validators.etag) {
                entry["etag"] = *known.validators.etag;
            }
            if (known.validators.last_modified) {
                entry["last_modified"] = *known.validators.last_modified;
            }
            entry["sha256"] = known.sha256;
            o[url] = std::move(entry);
        }
        const fs::path temporary = file_.string() + ".tmp";
        {
            std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
            out << boost::json::serialize(o) << '\n';
            if (!out.flush()) {
                throw SyncError(temporary.string() + ": cannot write");
            }
        }
        fs::rename(temporary, file_);
    }

private:
    fs::path file_;
    std::map<std::string, Known> urls_;
};

std::string Sha256Of(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr);
    char buffer[1 << 16];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
        EVP_DigestUpdate(ctx.get(), buffer, static_cast<std::size_t>(in.gcount()));
    }
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_DigestFinal_ex(ctx.get(), digest, &length);
    static const char* kHex = "0123456789abcdef";
    std::string hex;
    for (unsigned int i = 0; i < length; ++i) {
        hex += kHex[digest[i] >> 4];
        hex += kHex[digest[i] & 0x0F];
    }
    return hex;
}

}  // namespace

SyncResult RunSync(runtime::Runtime& runtime, const std::vector<std::string>& datasets,
                   const std::string& today, const Fetcher& fetcher, const SyncOutput& output) {
    // What to sync, in plugin load order then manifest order, as ingest --sample does.
    std::vector<const plugins::DatasetSpec*> plan;
    std::set<std::string> named(datasets.begin(), datasets.end());
    for (const auto& plugin : runtime.plugins->Plugins()) {
        for (const plugins::DatasetSpec& dataset : plugin->manifest.datasets) {
            const bool asked = named.erase(dataset.id) > 0;
            if (asked && !dataset.sync) {
                throw SyncError(dataset.id +
                                ": its manifest declares no sync: (nothing to fetch; use lastro ingest)");
            }
            if (dataset.sync && (datasets.empty() || asked)) {
                plan.push_back(&dataset);
            }
        }
    }
    if (!named.empty()) {
        throw SyncError(*named.begin() + ": no loaded plugin declares this dataset (see lastro plugins)");
    }

    const fs::path root = runtime.config.data_dir / "sync";
    fs::create_directories(root);
    State state(root / "state.json");
    SyncResult result;
    for (const plugins::DatasetSpec* dataset : plan) {
        const fs::path dir = root / dataset->id;
        fs::create_directories(dir);
        std::vector<fs::path> changed;
        std::map<std::string, Known> to_remember;  // URL -> what to keep once ingested
        const SyncResult before = result;
        for (const plugins::SyncSpec::Target& target : dataset->sync->Targets(today)) {
            const std::string& url = target.url;
            const fs::path file = dir / target.file_name;
            const Known* known = state.Find(target.key);
            // A conditional request only when the file it describes is still here to ingest.
            const Validators ask = known && fs::exists(file) ? known->validators : Validators{};
            try {
                const Fetched fetched = fetcher.Fetch(url, ask, dataset->sync->format, file);
                const std::string tries =
                    fetched.attempts > 1 ? ", " + std::to_string(fetched.attempts) + " attempts" : "";
                if (fetched.status == Fetched::Status::kNotModified) {
                    ++result.unchanged;
                    output.line(dataset->id + ": " + url + ": unchanged (304" + tries + ")");
                } else if (fetched.status == Fetched::Status::kNotFound) {
                    ++result.not_published;
                    output.line(dataset->id + ": " + url + ": not published (404" + tries + ")");
                } else {
                    const std::string sha = Sha256Of(file);
                    if (known && known->sha256 == sha) {
                        ++result.unchanged;
                        state.Set(target.key, Known{fetched.validators, sha});
                        output.line(dataset->id + ": " + url + ": unchanged (same bytes" + tries + ")");
                    } else {
                        ++result.fetched;
                        changed.push_back(file);
                        to_remember[target.key] = Known{fetched.validators, sha};
                        output.line(dataset->id + ": " + url + ": fetched (" + std::to_string(fetched.bytes) +
                                    " bytes" + tries + ")");
                    }
                }
            } catch (const std::exception& e) {
                result.errors.push_back(dataset->id + ": " + e.what());
            }
        }
        const auto added = [](std::size_t now, std::size_t was) {
            return static_cast<std::int64_t>(now - was);
        };
        ingest::RecordRunOutcomes(
            *runtime.db, "sync", dataset->id,
            {{"fetched", added(result.fetched, before.fetched)},
             {"unchanged", added(result.unchanged, before.unchanged)},
             {"not_published", added(result.not_published, before.not_published)},
             {"failed", added(result.errors.size(), before.errors.size())}},
            result.errors.size() > before.errors.size() ? result.errors[before.errors.size()] : "");
        if (changed.empty()) {
            continue;
        }
        try {
            ingest::ConsoleProgress progress(isatty(STDERR_FILENO) != 0);
            output.ingested(ingest::RunIngest(*runtime.db, *runtime.plugins, dataset->id, changed, progress));
        } catch (const std::exception& e) {
            result.errors.push_back(dataset->id + ": ingest failed, nothing of it was written: " + e.what());
            continue;  // not remembered: the next run fetches and ingests it again
        }
        for (auto& [key, known] : to_remember) {
            state.Set(key, std::move(known));
        }
        state.Save();
    }
    state.Save();
    return result;
}

}  // namespace lastro::sync
