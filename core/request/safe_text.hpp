// Text from the request made safe to echo in a problem (its `instance`, a parameter's name): bytes
// outside printable ASCII, '"' and '\' are percent-encoded, since the raw target may carry anything.
#pragma once

#include <string>
#include <string_view>

namespace lastro::request {

inline std::string SafeText(std::string_view raw) {
    static const char* kHex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : raw) {
        if (c < 0x21 || c > 0x7E || c == '"' || c == '\\') {
            out.push_back('%');
            out.push_back(kHex[c >> 4]);
            out.push_back(kHex[c & 0x0F]);
        } else {
            out.push_back(static_cast<char>(c));
        }
    }
    return out;
}

}  // namespace lastro::request
