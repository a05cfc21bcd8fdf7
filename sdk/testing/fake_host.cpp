#include <lastro/sdk/testing/fake_host.hpp>

namespace lastro::sdk::testing {

FakeHost& FakeHost::SetRelease(Release release) {
    const std::string dataset = release.dataset;
    releases_.insert_or_assign(dataset, std::move(release));
    return *this;
}

FakeHost& FakeHost::SetRelease(const std::string& dataset, const std::string& label) {
    return SetRelease(Release{dataset, label, std::nullopt, "2026-01-01T00:00:00Z"});
}

FakeHost& FakeHost::ClearRelease(const std::string& dataset) {
    releases_.erase(dataset);
    return *this;
}

std::optional<Release> FakeHost::LatestRelease(const std::string& dataset) const {
    auto it = releases_.find(dataset);
    if (it == releases_.end()) {
        return std::nullopt;
    }
    return it->second;
}

FakeServices& FakeServices::AddService(const std::string& name, const std::string& identity,
                                       std::shared_ptr<const Service> service) {
    services_.insert_or_assign(name, std::make_pair(identity, std::move(service)));
    return *this;
}

const Service& FakeServices::Find(std::string_view name, std::string_view identity) const {
    auto it = services_.find(name);
    if (it == services_.end() || !it->second.second) {
        std::string offered;
        for (const auto& [offered_name, service] : services_) {
            offered += (offered.empty() ? "" : ", ") + offered_name;
        }
        throw ServiceError("service '" + std::string(name) + "' is not offered to this test (offered: " +
                           (offered.empty() ? "none" : offered) + ")");
    }
    if (it->second.first != identity) {
        throw ServiceError("service '" + std::string(name) + "' was offered with interface identity " +
                           it->second.first + ", but the caller was built against " + std::string(identity));
    }
    return *it->second.second;
}

}  // namespace lastro::sdk::testing
