// Data a handler reads that changes only with an ingest (a dataset's span of months, the
// latest month reported), read once per release generation instead of once per call:
//
//   std::shared_ptr<const Months> months = sdk::Remembered<Months>(
//       context.host, "industry.months", [&] { return ReadMonths(context.db); });
//
// The host keeps it at the generation it answers the call at (docs/plugins.md, "Data kept
// between calls"): on SQLite the newest release id of the call's snapshot; on PostgreSQL the
// newest one seen, which the host checks before the call is settled, answering it anew from
// the data when an ingest replaced it. A host that cannot keep it (a test's FakeHost, a call
// that is not settled) reads it on every call. The value is shared by every request thread: `read`
// returns it whole, and afterwards only what the value guards with its own mutex changes (a
// map it fills as calls ask, bounded by the data).
#pragma once

#include <lastro/sdk/plugin.hpp>

#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>
#include <utility>

namespace lastro::sdk {

// The value kept under `name` (prefixed with the plugin's name) at the call's generation, or
// `read()`'s (a T, or a std::shared_ptr<const T>), kept for the next calls. Called inside the
// handler's transaction, like `read`.
template <class T, class Read>
std::shared_ptr<const T> Remembered(const Host& host, std::string_view name, Read&& read) {
    // The type is part of the key: two plugins' values under one name never meet as each other.
    std::string key(name);
    key += '/';
    key += typeid(T).name();
    if (std::shared_ptr<const void> kept = host.Recall(key)) {
        return std::static_pointer_cast<const T>(std::move(kept));
    }
    std::shared_ptr<const T> value;
    if constexpr (std::is_convertible_v<std::invoke_result_t<Read>, std::shared_ptr<const T>>) {
        value = std::forward<Read>(read)();  // made in place: a T that neither copies nor moves
    } else {
        value = std::make_shared<const T>(std::forward<Read>(read)());
    }
    host.Keep(key, value);
    return value;
}

}  // namespace lastro::sdk
