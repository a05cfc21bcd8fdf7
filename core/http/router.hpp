// The immutable route table, built once from the manifests before the server starts (Pistache's
// Rest::Router races with several threads, upstream #1238). Paths match segment by segment;
// at the first segment where two routes differ, a literal beats a {template}.
#pragma once

#include "core/plugins/manifest.hpp"

#include <lastro/sdk/plugin.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::http {

struct Route {
    const plugins::OperationSpec* operation = nullptr;
    const sdk::Handler* handler = nullptr;
    std::vector<std::string> segments;  // "{class_id}" for templates
    // The meta member ,"field_sources":{...} of every answer, from the manifest (field_sources.hpp);
    // "" when it declares none.
    std::string field_sources;
    // The code that answers it, "lastro <version>; <plugin> <version>": part of its ETags.
    std::string build;
};

struct RouteMatch {
    const Route* route = nullptr;
    std::map<std::string, std::string> path_params;  // decoded
};

class RouteTable {
public:
    void Add(Route route);
    // `path` is the decoded request path without the query.
    std::optional<RouteMatch> Match(std::string_view path) const;
    const std::vector<Route>& Routes() const { return routes_; }

    static std::vector<std::string> Split(std::string_view path);

private:
    std::vector<Route> routes_;
};

}  // namespace lastro::http
