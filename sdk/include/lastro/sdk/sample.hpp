// Sample data for `lastro sample` (docs/sample-data.md): a plugin that declares `sample:` on its
// datasets registers one SampleWriter, which writes invented files in the datasets' real
// formats. The same seed and scale give the same bytes. The generic parts a writer needs
// (seeded streams, CSV tables, exact money, zip members) are in <lastro/sdk/sample/...>. A
// writer may publish what it generated as a typed SampleUniverse, which the writers of the
// plugins that require it read instead of its files.
#pragma once

#include <lastro/sdk/constant_text.hpp>

#include <boost/config.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <typeinfo>
#include <utility>
#include <vector>

namespace lastro::sdk {

enum class SampleScale {
    kSample,  // small and complete: what `./dev run` and the tests ingest
    kFull,    // the size of the real files, for benchmarks; a plugin may write fewer datasets
};

// "sample" | "full", as the manifest and the command line write them.
inline std::string_view SampleScaleName(SampleScale scale) {
    return scale == SampleScale::kFull ? "full" : "sample";
}
inline std::optional<SampleScale> ParseSampleScale(std::string_view text) {
    if (text == "sample") {
        return SampleScale::kSample;
    }
    if (text == "full") {
        return SampleScale::kFull;
    }
    return std::nullopt;
}

inline constexpr std::uint64_t kDefaultSampleSeed = 20261014;

// `lastro sample --months N` takes 1 to this many months.
inline constexpr int kMaxSampleMonths = 240;

// What a plugin's sample writer generated, typed, for the sample writers of the plugins that
// require it (docs/sample-data.md, "Sample universes"): they build on the same funds, companies
// or days instead of reading the provider's files back. Like a service (services.hpp), a
// provider declares its universe in a header it exports (e.g. <lastro/funds/sample_universe.hpp>)
// as a class T derived from SampleUniverseOf<T> with two constants:
//   static constexpr std::string_view kUniverseName = "funds.sample";  // <plugin>.<universe>
//   static constexpr std::string_view kUniverseIdentity = ...;         // a hash of that header
// and its writer returns one in SampleReport::universe. A dependent's writer reads it with
// SampleRequest::Get<T>(); the host passes a writer only the universes of the plugins it
// requires, written before it. A dependent built against another version of the header is
// refused with both identities named, instead of reading a mismatched layout.
class BOOST_SYMBOL_VISIBLE SampleUniverse {
public:
    virtual ~SampleUniverse() = default;
    // The name and identity of the class, as the code that made the object (the provider's)
    // was compiled.
    const std::string& Name() const { return name_; }
    const std::string& Identity() const { return identity_; }

protected:
    SampleUniverse(std::string name, std::string identity)
        : name_(std::move(name)), identity_(std::move(identity)) {}
    SampleUniverse(const SampleUniverse&) = default;
    SampleUniverse& operator=(const SampleUniverse&) = default;

private:
    std::string name_;
    std::string identity_;
};

// The base of a universe T: stamps it with T::kUniverseName and T::kUniverseIdentity, copied at
// compile time into the code that constructs it (CopyConstant).
template <class T>
class SampleUniverseOf : public SampleUniverse {
protected:
    SampleUniverseOf() : SampleUniverse(NameOf(), IdentityOf()) {}

private:
    static std::string NameOf() {
        constexpr auto name = CopyConstant<T::kUniverseName.size()>(T::kUniverseName);
        return std::string(name.View());
    }
    static std::string IdentityOf() {
        constexpr auto identity = CopyConstant<T::kUniverseIdentity.size()>(T::kUniverseIdentity);
        return std::string(identity.View());
    }
};

// A universe that is not there, or not the class the reader was built against.
class BOOST_SYMBOL_VISIBLE SampleUniverseError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct BOOST_SYMBOL_VISIBLE SampleRequest {
    std::filesystem::path out_dir;  // created by the host before the writer runs
    std::uint64_t seed = kDefaultSampleSeed;
    SampleScale scale = SampleScale::kSample;
    // How many months of history ending at the reference month the monthly datasets cover;
    // nullopt: the plugin's default. A writer without monthly datasets ignores it.
    std::optional<int> months = std::nullopt;
    // The universes the plugins this writer's plugin requires published (SampleReport::universe),
    // in load order; the host fills it. Read them with Get<T>().
    std::vector<std::shared_ptr<const SampleUniverse>> universes = {};

    // The universe T::kUniverseName. Throws SampleUniverseError naming it and the universes
    // this request has when it is not there, and both identities when it was built from another
    // version of T's header.
    template <class T>
    const T& Get() const {
        constexpr auto name = CopyConstant<T::kUniverseName.size()>(T::kUniverseName);
        constexpr auto identity = CopyConstant<T::kUniverseIdentity.size()>(T::kUniverseIdentity);
        const SampleUniverse& found = Find(name.View(), identity.View());
        const T* typed = dynamic_cast<const T*>(&found);
        if (!typed) {
            throw SampleUniverseError("sample universe '" + std::string(name.View()) + "' is not a " +
                                      std::string(typeid(T).name()) + " although its identity matches");
        }
        return *typed;
    }

private:
    const SampleUniverse& Find(std::string_view name, std::string_view identity) const {
        std::string published;
        for (const std::shared_ptr<const SampleUniverse>& universe : universes) {
            if (!universe) {
                continue;
            }
            if (universe->Name() != name) {
                published += (published.empty() ? "" : ", ") + universe->Name();
                continue;
            }
            if (universe->Identity() != identity) {
                throw SampleUniverseError(
                    "sample universe '" + std::string(name) + "' has identity " + universe->Identity() +
                    ", but this sample writer was built against " + std::string(identity) +
                    "; rebuild it against the installed headers of the plugin that "
                    "publishes it");
            }
            return *universe;
        }
        throw SampleUniverseError("no sample universe '" + std::string(name) +
                                  "' was passed to this sample writer (it has: " +
                                  (published.empty() ? std::string("none") : published) +
                                  "); `lastro sample` passes a writer the universes of the plugins its "
                                  "manifest requires, which their writers publish in SampleReport::universe");
    }
};

// A named count `lastro sample` prints, e.g. {"funds", 300} as "300 funds".
struct BOOST_SYMBOL_VISIBLE SampleCount {
    std::string name;
    std::size_t count = 0;
};

struct BOOST_SYMBOL_VISIBLE SampleReport {
    std::vector<std::filesystem::path> files;  // every file written, in writing order
    std::vector<SampleCount> counts;           // in the order to print
    std::vector<std::string> notes;            // one line each, printed after the counts
    // What the writer generated, for the writers of the plugins that require this one; null
    // when the plugin publishes none. Its name must be "<plugin>.<universe>".
    std::shared_ptr<const SampleUniverse> universe = nullptr;
};

class BOOST_SYMBOL_VISIBLE SampleWriter {
public:
    virtual ~SampleWriter() = default;
    // (Over)writes the plugin's sample files of `request.scale` into `request.out_dir`. The
    // host then checks that every dataset declaring that scale got a file matching its
    // patterns. Throws std::runtime_error naming the path on I/O failure.
    virtual SampleReport Write(const SampleRequest& request) = 0;
};

}  // namespace lastro::sdk
