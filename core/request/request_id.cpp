#include "core/request/request_id.hpp"

#include <lastro/sdk/uuid.hpp>

#include <cstdint>

namespace lastro::request {

std::string NewRequestId(std::chrono::system_clock::time_point now) {
    return sdk::UuidV7(static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count()));
}

}  // namespace lastro::request
