// CVM's company files end their lines with CRLF; the SDK's CsvTable writes LF.
#pragma once

#include <string>

namespace lastro::companies {

inline std::string WithCrlf(const std::string& lf) {
    std::string crlf;
    crlf.reserve(lf.size() + lf.size() / 64 + 1);
    for (char c : lf) {
        if (c == '\n') {
            crlf.push_back('\r');
        }
        crlf.push_back(c);
    }
    return crlf;
}

}  // namespace lastro::companies
