#include <lastro/sdk/query_params.hpp>

#include <mutex>
#include <set>
#include <string>

namespace lastro::sdk {

std::size_t KeyListTerms(std::size_t count) {
    std::size_t terms = 1;
    while (terms < count) {
        terms *= 2;
    }
    return terms;
}

const char* KeyListName(const char* base, std::size_t terms) {
    // A set's elements never move: their texts outlive every connection's cached queries.
    static std::mutex mutex;
    static std::set<std::string> names;
    std::lock_guard lock(mutex);
    return names.insert(std::string(base) + "_" + std::to_string(terms)).first->c_str();
}

}  // namespace lastro::sdk
