#include "core/request/percent_decoding.hpp"

#include <boost/url/pct_string_view.hpp>

namespace lastro::request {

std::optional<std::string> PercentDecode(std::string_view raw, bool plus_is_space) {
    std::string text(raw);
    if (plus_is_space) {
        for (char& c : text) {
            if (c == '+')
                c = ' ';
        }
    }
    auto view = boost::urls::make_pct_string_view(text);
    if (!view) {
        return std::nullopt;
    }
    return view->decode();
}

}  // namespace lastro::request
