#include "core/catalog/catalog.hpp"

#include "core/storage/database.hpp"

namespace lastro::catalog {
namespace {

boost::json::array FieldsJson(const std::vector<plugins::FieldSpec>& fields) {
    boost::json::array out;
    for (const plugins::FieldSpec& f : fields) {
        boost::json::object o;
        o["name"] = f.name;
        o["type"] = f.type;
        o["nullable"] = f.nullable;
        if (!f.unit.empty()) {
            o["unit"] = f.unit;
        }
        o["description"] = f.description;
        if (!f.fields.empty()) {
            o["fields"] = FieldsJson(f.fields);
        }
        out.push_back(std::move(o));
    }
    return out;
}

boost::json::object ParamJson(const plugins::ParamSpec& p) {
    boost::json::object o;
    o["name"] = p.name;
    o["in"] = p.in == plugins::ParamLocation::kPath ? "path" : "query";
    o["type"] = plugins::TypeName(p);
    o["required"] = p.required;
    if (p.min)
        o["min"] = *p.min;
    if (p.max)
        o["max"] = *p.max;
    if (p.max_length)
        o["max_length"] = *p.max_length;
    if (!p.enum_values.empty()) {
        boost::json::array values;
        for (const auto& v : p.enum_values)
            values.push_back(boost::json::value(v));
        o["enum"] = std::move(values);
    }
    if (p.default_value)
        o["default"] = *p.default_value;
    o["description"] = p.description;
    return o;
}

}  // namespace

boost::json::object HealthDocument(const plugins::PluginSet& plugins, std::time_t started_at, std::time_t now,
                                   bool database_available) {
    boost::json::object o;
    // The process serves either way (200); "degraded" while billing cannot reach the database.
    o["status"] = database_available ? "ok" : "degraded";
    o["version"] = LASTRO_VERSION;
    o["started_at"] = storage::Rfc3339(started_at);
    o["uptime_seconds"] = static_cast<std::int64_t>(now - started_at);
    // What the last billing write found, not a probe: /health never tests the data sources.
    o["database"] = database_available ? "ok" : "unavailable";
    boost::json::array list;
    for (const auto& p : plugins.Plugins()) {
        if (!p->plugin) {
            continue;
        }
        boost::json::object item;
        item["name"] = p->manifest.name;
        item["version"] = p->manifest.version;
        item["operations"] = p->manifest.operations.size();
        item["datasets"] = p->manifest.datasets.size();
        list.push_back(std::move(item));
    }
    o["plugins"] = std::move(list);
    return o;
}

boost::json::object PricingDocument(const plugins::PluginSet& plugins, const config::CreditsConfig& credits) {
    boost::json::object o;
    o["policy_version"] = kPolicyVersion;
    o["contract_version"] = kContractVersion;
    o["unit"] = "credits";
    boost::json::object limits;
    limits["monthly_allowance"] = credits.monthly_allowance;
    limits["allowance_period"] = "calendar month, UTC";
    limits["calls_per_minute"] = credits.calls_per_minute;
    limits["included_pages_window_seconds"] = kIncludedPagesWindowSeconds;
    o["limits"] = std::move(limits);
    boost::json::object settlement;
    settlement["charged"] = boost::json::array{"2xx", 404, "other 4xx after reservation"};
    settlement["refunded"] = boost::json::array{304, 400, 403, 422, "5xx"};
    settlement["not_modified"] =
        "free: a 304 (If-None-Match named the answer's ETag, so the client already holds it) is "
        "refunded; it still counts in calls_per_minute";
    settlement["not_reserved"] = boost::json::array{401, 429};
    settlement["undelivered"] =
        "refunded: a charged answer that the server could not hand whole to the network (the "
        "connection ended first) is not charged";
    o["settlement"] = std::move(settlement);
    o["included_pages"] = boost::json::object{
        {"window_seconds", kIncludedPagesWindowSeconds},
        {"rule",
         "A later page of an operation with included_pages costs 0 when it is asked within window_seconds of "
         "the page that paid and asks for no more rows than that page's limit. Asking the same page again "
         "with the same cursor within the window costs 0 too (a retry after a lost answer is free); every "
         "call still counts in calls_per_minute."}};
    boost::json::array operations;
    for (const auto& p : plugins.Plugins()) {
        for (const plugins::OperationSpec& op : p->manifest.operations) {
            boost::json::object item;
            item["operation"] = op.id;
            item["method"] = "GET";
            item["path"] = op.path;
            item["price"] = op.price;
            item["scope"] = op.scope;
            item["pagination"] = plugins::ToString(op.pagination);
            item["included_pages"] = op.included_pages;
            item["plugin"] = p->manifest.name;
            operations.push_back(std::move(item));
        }
    }
    o["operations"] = std::move(operations);
    boost::json::array history;
    for (const PolicyVersion& v : kPolicyHistory) {
        history.push_back(boost::json::object{{"version", v.version}, {"effective_from", v.effective_from}});
    }
    o["history"] = std::move(history);
    return o;
}

boost::json::object SchemaDocument(const plugins::PluginSet& plugins) {
    boost::json::object o;
    o["contract_version"] = kContractVersion;
    boost::json::array entities, resources, sources, planned;
    for (const auto& p : plugins.Plugins()) {
        const plugins::Manifest& m = p->manifest;
        for (const auto& e : m.entities) {
            entities.push_back(boost::json::object{
                {"name", e.name}, {"description", e.description}, {"id_field", e.id}, {"plugin", m.name}});
        }
        for (const auto& op : m.operations) {
            boost::json::object r;
            r["operation"] = op.id;
            r["method"] = "GET";
            r["path"] = op.path;
            r["summary"] = op.summary;
            r["price"] = op.price;
            r["scope"] = op.scope;
            r["pagination"] = plugins::ToString(op.pagination);
            r["entity"] = op.response.entity;
            r["shape"] = op.response.shape;
            r["formats"] =
                op.response.OffersCsv() ? boost::json::array{"json", "csv"} : boost::json::array{"json"};
            boost::json::array params;
            for (const auto& param : op.params) {
                params.push_back(ParamJson(param));
            }
            r["params"] = std::move(params);
            r["fields"] = FieldsJson(op.response.fields);
            resources.push_back(std::move(r));
        }
        for (const auto& ds : m.datasets) {
            boost::json::array files;
            for (const auto& f : ds.files)
                files.push_back(boost::json::value(f));
            sources.push_back(boost::json::object{{"dataset", ds.id},
                                                  {"provider", ds.provider},
                                                  {"description", ds.description},
                                                  {"files", std::move(files)},
                                                  {"plugin", m.name}});
        }
        for (const auto& pl : m.planned) {
            planned.push_back(
                boost::json::object{{"path", pl.path}, {"description", pl.description}, {"plugin", m.name}});
        }
    }
    o["entities"] = std::move(entities);
    o["resources"] = std::move(resources);
    o["sources"] = std::move(sources);
    o["planned"] = std::move(planned);
    return o;
}

}  // namespace lastro::catalog
