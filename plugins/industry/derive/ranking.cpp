#include "derive/ranking.hpp"

#include <lastro/sdk/serving/money.hpp>

#include <algorithm>
#include <functional>
#include <map>

namespace lastro::industry {
namespace {

// Assigns 1-based ranks by `better` (descending figures, nulls last), ties by manager_key.
template <typename Key>
void Rank(std::vector<ManagerMonth>& rows, Key key, std::int64_t ManagerMonth::* rank) {
    std::vector<ManagerMonth*> order;
    for (ManagerMonth& row : rows) {
        order.push_back(&row);
    }
    std::sort(order.begin(), order.end(), [&](const ManagerMonth* a, const ManagerMonth* b) {
        const std::optional<double> x = key(*a), y = key(*b);
        if (x.has_value() != y.has_value()) {
            return x.has_value();
        }
        if (x && *x != *y) {
            return *x > *y;
        }
        return a->manager_key < b->manager_key;
    });
    for (std::size_t i = 0; i < order.size(); ++i) {
        order[i]->*rank = static_cast<std::int64_t>(i + 1);
    }
}

}  // namespace

std::vector<ManagerMonth> RankManagers(const std::string& month, bool include_fic_fidc,
                                       const std::vector<VehicleMonth>& vehicles,
                                       const std::vector<ManagerMonth>& year_before) {
    std::map<std::string, ManagerMonth> by_key;
    std::map<std::string, sdk::MoneySum> navs, flows;
    for (const VehicleMonth& v : vehicles) {
        if (v.set_aside || (!include_fic_fidc && v.fic_fidc) || !v.manager_key) {
            continue;
        }
        ManagerMonth& m = by_key[*v.manager_key];
        if (m.manager_key.empty()) {
            m.month = month;
            m.include_fic_fidc = include_fic_fidc;
            m.manager_key = *v.manager_key;
            m.manager = v.manager;
            m.manager_document = v.manager_key->rfind("name:", 0) == 0 ? std::nullopt : v.manager_key;
        }
        ++m.vehicles;
        if (v.nav) {
            navs[*v.manager_key].Add(v.nav);
        }
        if (v.net_flow) {
            flows[*v.manager_key].Add(v.net_flow);
        }
    }
    double total = 0;
    std::vector<ManagerMonth> rows;
    for (auto& [key, m] : by_key) {
        m.nav = navs[key].PartialTotal().value_or(0);
        m.net_flow = flows[key].PartialTotal();
        total += m.nav;
        rows.push_back(std::move(m));
    }
    std::map<std::string, const ManagerMonth*> before;
    for (const ManagerMonth& m : year_before) {
        before.emplace(m.manager_key, &m);
    }
    for (ManagerMonth& m : rows) {
        m.share = total > 0 ? m.nav / total : 0;
        if (!year_before.empty()) {
            const auto found = before.find(m.manager_key);
            // A manager absent a year before had no share then.
            const double then = found == before.end() ? 0.0 : found->second->share;
            m.share_change_12m_pp = (m.share - then) * 100;
        }
    }
    Rank(rows, [](const ManagerMonth& m) { return std::optional<double>(m.nav); }, &ManagerMonth::rank_pl);
    Rank(
        rows, [](const ManagerMonth& m) { return std::optional<double>(double(m.vehicles)); },
        &ManagerMonth::rank_vehicles);
    Rank(rows, [](const ManagerMonth& m) { return m.net_flow; }, &ManagerMonth::rank_net_flow);
    Rank(rows, [](const ManagerMonth& m) { return m.share_change_12m_pp; }, &ManagerMonth::rank_share_change);
    for (ManagerMonth& m : rows) {
        const auto found = before.find(m.manager_key);
        if (found != before.end()) {
            m.rank_pl_12m_ago = found->second->rank_pl;
            m.rank_vehicles_12m_ago = found->second->rank_vehicles;
            m.rank_net_flow_12m_ago = found->second->rank_net_flow;
            m.rank_share_change_12m_ago = found->second->rank_share_change;
        }
    }
    return rows;
}

}  // namespace lastro::industry
