#include <lastro/sdk/plugin.hpp>

#include <memory>
#include <string_view>

namespace lastro::sdk {

// A host that keeps nothing: every call reads its data (sdk::Remembered).
std::shared_ptr<const void> Host::Recall(std::string_view) const {
    return nullptr;
}

void Host::Keep(std::string_view, std::shared_ptr<const void>) const {}

}  // namespace lastro::sdk
