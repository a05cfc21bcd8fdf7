// What the host offers a plugin's code, faked for unit tests: the latest release of each
// dataset (sdk::Host), and the services of the plugins it requires (sdk::Services).
#pragma once

#include <lastro/sdk/plugin.hpp>
#include <lastro/sdk/services.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace lastro::sdk::testing {

// A host whose releases the test sets: LatestRelease answers the release set for the dataset,
// and nullopt for any other (a dataset never ingested).
class FakeHost : public Host {
public:
    // Records `release` as the latest of release.dataset, replacing an earlier one.
    FakeHost& SetRelease(Release release);
    // The same with only a label: as_of none, ingested at 2026-01-01T00:00:00Z.
    FakeHost& SetRelease(const std::string& dataset, const std::string& label);
    FakeHost& ClearRelease(const std::string& dataset);

    std::optional<Release> LatestRelease(const std::string& dataset) const override;

private:
    std::map<std::string, Release> releases_;
};

// The services handed to code under test (a derivation, a plugin's Start): each offered under
// its name and interface identity; Find refuses, like the host, a name not offered or an
// identity that differs, with ServiceError naming both.
class FakeServices : public Services {
public:
    // Offers `service` as T (T::kServiceName, T::kServiceIdentity), as Registrar::Provide does.
    template <class T>
    FakeServices& Add(std::shared_ptr<const T> service) {
        return AddService(std::string(T::kServiceName), std::string(T::kServiceIdentity), std::move(service));
    }
    FakeServices& AddService(const std::string& name, const std::string& identity,
                             std::shared_ptr<const Service> service);

    const Service& Find(std::string_view name, std::string_view identity) const override;

private:
    std::map<std::string, std::pair<std::string, std::shared_ptr<const Service>>, std::less<>> services_;
};

}  // namespace lastro::sdk::testing
