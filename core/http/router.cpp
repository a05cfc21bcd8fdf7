#include "core/http/router.hpp"

namespace lastro::http {
namespace {

bool IsTemplate(const std::string& segment) {
    return !segment.empty() && segment.front() == '{';
}

}  // namespace

std::vector<std::string> RouteTable::Split(std::string_view path) {
    std::vector<std::string> segments;
    std::size_t start = path.empty() || path.front() != '/' ? 0 : 1;
    while (start <= path.size()) {
        std::size_t end = path.find('/', start);
        if (end == std::string_view::npos) {
            end = path.size();
        }
        segments.emplace_back(path.substr(start, end - start));
        start = end + 1;
    }
    return segments;
}

void RouteTable::Add(Route route) {
    routes_.push_back(std::move(route));
}

std::optional<RouteMatch> RouteTable::Match(std::string_view path) const {
    const std::vector<std::string> parts = Split(path);
    const Route* best = nullptr;
    for (const Route& route : routes_) {
        if (route.segments.size() != parts.size()) {
            continue;
        }
        bool ok = true;
        for (std::size_t i = 0; i < parts.size() && ok; ++i) {
            ok = IsTemplate(route.segments[i]) ? !parts[i].empty() : route.segments[i] == parts[i];
        }
        if (!ok) {
            continue;
        }
        if (!best) {
            best = &route;
            continue;
        }
        for (std::size_t i = 0; i < parts.size(); ++i) {
            bool lit_new = !IsTemplate(route.segments[i]);
            bool lit_best = !IsTemplate(best->segments[i]);
            if (lit_new != lit_best) {
                if (lit_new) {
                    best = &route;
                }
                break;
            }
        }
    }
    if (!best) {
        return std::nullopt;
    }
    RouteMatch match;
    match.route = best;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (IsTemplate(best->segments[i])) {
            match.path_params[best->segments[i].substr(1, best->segments[i].size() - 2)] = parts[i];
        }
    }
    return match;
}

}  // namespace lastro::http
