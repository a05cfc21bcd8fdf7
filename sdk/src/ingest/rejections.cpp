#include <lastro/sdk/ingest/rejections.hpp>

namespace lastro::sdk {

void RejectionLog::Reject(std::string_view file, std::size_t line, std::string_view why) {
    ++summary_.rejected;
    if (HasRoom()) {
        summary_.rejections.push_back(std::string(file) + " line " + std::to_string(line) + ": " +
                                      std::string(why));
    }
}

bool RejectionLog::Notice(std::string message) {
    if (!HasRoom()) {
        return false;
    }
    summary_.rejections.push_back(std::move(message));
    return true;
}

}  // namespace lastro::sdk
