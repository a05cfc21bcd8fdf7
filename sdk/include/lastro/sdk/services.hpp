// Services: typed, read-only interfaces one plugin offers to the plugins that require it
// (docs/plugins.md, "Plugins that build on plugins").
//
// A provider declares each interface in a header it exports (e.g. <lastro/funds/services.hpp>),
// as a class derived from sdk::Service with two constants:
//   static constexpr std::string_view kServiceName = "funds.locator";   // <plugin>.<service>
//   static constexpr std::string_view kServiceIdentity = ...;           // see below
// and registers an implementation with Registrar::Provide. A dependent plugin includes the same
// header, never the provider's model, and obtains the implementation through Services::Get<T>(),
// which the host answers only for plugins the dependent `requires:` in its manifest.
//
// kServiceIdentity is a hash of the provider's exported headers computed at build time
// (lastro_header_identity in cmake/LastroTargets.cmake), like the SDK's own ABI identity: a
// dependent compiled against other headers than the provider's is refused with both identities
// named, instead of calling through a mismatched vtable.
#pragma once

#include <lastro/sdk/constant_text.hpp>

#include <boost/config.hpp>

#include <stdexcept>
#include <string>
#include <string_view>
#include <typeinfo>

namespace lastro::sdk {

class BOOST_SYMBOL_VISIBLE Service {
public:
    virtual ~Service() = default;
};

// A service that is not there, or not the interface the caller was built against.
class BOOST_SYMBOL_VISIBLE ServiceError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The services a plugin may use: those of the plugins it requires. Methods of a service run on
// the caller's thread, inside the caller's transaction, on the database the caller passes.
class BOOST_SYMBOL_VISIBLE Services {
public:
    virtual ~Services() = default;

    // The service `name` built from the interface `identity`; throws ServiceError naming the
    // service, the provider and both identities when the identity differs, and naming the
    // plugins this one requires when no such service is there.
    virtual const Service& Find(std::string_view name, std::string_view identity) const = 0;

    template <class T>
    const T& Get() const {
        constexpr auto name = CopyConstant<T::kServiceName.size()>(T::kServiceName);
        constexpr auto identity = CopyConstant<T::kServiceIdentity.size()>(T::kServiceIdentity);
        const Service& found = Find(name.View(), identity.View());
        const T* typed = dynamic_cast<const T*>(&found);
        if (!typed) {
            throw ServiceError("service '" + std::string(T::kServiceName) + "' is not a " +
                               std::string(typeid(T).name()) + " although its identity matches");
        }
        return *typed;
    }
};

}  // namespace lastro::sdk
