// Identifier formats a manifest parameter may declare as its type besides the built-in ones
// (docs/plugins.md): `type: cnpj` is checked and normalised by the SDK's CNPJ rules before the
// handler runs. The host looks formats up by name and knows none of them; a plugin reads the
// normalised text with Params::String.
#pragma once

#include <boost/config.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace lastro::sdk {

struct BOOST_SYMBOL_VISIBLE IdentifierCheck {
    std::optional<std::string> value;  // the normalised identifier when valid
    std::string problem;               // otherwise, what completes "<parameter> ..." in a 422
};

class BOOST_SYMBOL_VISIBLE IdentifierFormat {
public:
    virtual ~IdentifierFormat() = default;
    virtual std::string_view Name() const = 0;  // the manifest type, e.g. "cnpj"
    virtual IdentifierCheck Check(std::string_view text) const = 0;
};

// The format called `name`, or null.
BOOST_SYMBOL_VISIBLE const IdentifierFormat* FindIdentifierFormat(std::string_view name);

// Every format's name, comma separated, for error messages.
BOOST_SYMBOL_VISIBLE std::string IdentifierFormatNames();

}  // namespace lastro::sdk
