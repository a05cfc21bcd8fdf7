// The interface the `provider` test plugin offers and the `consumer` test plugin uses: a
// service header as a provider exports it (sdk/services.hpp). Its identity is generated from
// this file at build time; the stale consumer pretends to have been built from another version.
#pragma once

#include <lastro/sdk/services.hpp>

#include <words_service_identity.hpp>

#include <string>
#include <string_view>

namespace lastro::test_plugins {

class BOOST_SYMBOL_VISIBLE WordsService : public sdk::Service {
public:
    static constexpr std::string_view kServiceName = "provider.words";
#ifdef LASTRO_TEST_STALE_SERVICE
    static constexpr std::string_view kServiceIdentity = "00000000deadbeef";
#else
    static constexpr std::string_view kServiceIdentity = kWordsServiceIdentity;
#endif
    // `word` repeated `times` times, separated by spaces.
    virtual std::string Repeat(const std::string& word, int times) const = 0;
};

}  // namespace lastro::test_plugins
