#include "domain/rows/fund_list_items.hpp"

#include "domain/registry/registry_rules.hpp"
#include "funds_model-odb.hxx"

#include <lastro/sdk/data_migration.hpp>

#include <odb/database.hxx>
#include <odb/query.hxx>
#include <odb/result.hxx>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>

namespace lastro::funds {

namespace {

void FillOnMigration(odb::database& db) {
    RebuildFundListItems(db);
}

const sdk::DataMigration<13> kFillOnMigration("funds", &FillOnMigration);

}  // namespace

void WriteFundListItem(const FundListRow& fund, const std::vector<const ClassListRow*>& classes,
                       sdk::JsonText& json) {
    json.BeginObject();
    json.Key("fund_id").Value(fund.fund_id);
    json.Key("cvm_code").Value(fund.cvm_code);
    json.Key("cnpj").Value(fund.cnpj);
    json.Key("name").Value(fund.name);
    json.Key("status").Value(fund.status);
    json.Key("fund_type").Value(fund.fund_type);
    json.Key("manager").Value(fund.manager);
    json.Key("administrator").Value(fund.administrator);
    json.Key("registered_at").Value(fund.registered_at);
    json.Key("started_at").Value(fund.constituted_at);
    json.Key("cancelled_at").Value(fund.cancelled_at);
    json.Key("ended_at").Value(IsEndedStatus(fund.status) ? fund.status_since : std::nullopt);
    json.Key("fiscal_year_end_at").Value(fund.fiscal_year_end_at);
    json.Key("registered_patrimony_brl").Value(fund.net_worth);
    json.Key("active").Value(IsActiveStatus(fund.status));
    json.Key("classes").BeginArray();
    for (const ClassListRow* fund_class : classes) {
        json.BeginObject();
        json.Key("class_id").Value(fund_class->class_id);
        json.Key("cvm_code").Value(fund_class->cvm_code);
        json.Key("cnpj").Value(fund_class->cnpj);
        json.Key("name").Value(fund_class->name);
        json.Key("status").Value(fund_class->status);
        json.EndObject();
    }
    json.EndArray();
    json.EndObject();
}

std::size_t RebuildFundListItems(odb::database& db) {
    // The registry's classes by fund, in registry id order (about 5,000 at full size).
    std::vector<ClassListRow> classes;
    for (ClassListRow& fund_class : db.query<ClassListRow>()) {
        classes.push_back(std::move(fund_class));
    }
    std::sort(classes.begin(), classes.end(),
              [](const ClassListRow& a, const ClassListRow& b) { return a.registry_id < b.registry_id; });
    std::unordered_map<std::string, std::vector<const ClassListRow*>> classes_by_fund;
    for (const ClassListRow& fund_class : classes) {
        classes_by_fund[fund_class.fund_id].push_back(&fund_class);
    }

    std::map<std::int64_t, std::string> wanted;
    using FundQuery = odb::query<Fund>;
    for (const FundListRow& fund :
         db.query<FundListRow>(odb::query<FundListRow>(FundQuery::fidc_universe == true))) {
        sdk::JsonText json;
        auto found = classes_by_fund.find(fund.fund_id);
        WriteFundListItem(
            fund, found == classes_by_fund.end() ? std::vector<const ClassListRow*>{} : found->second, json);
        wanted.emplace(fund.registry_id, json.Take());
    }

    std::map<std::int64_t, std::string> stored;
    for (FundListItem& item : db.query<FundListItem>()) {
        stored.emplace(item.registry_id, std::move(item.json));
    }
    std::size_t written = 0;
    for (const auto& [registry_id, json] : stored) {
        if (wanted.find(registry_id) == wanted.end()) {
            db.erase<FundListItem>(registry_id);
            ++written;
        }
    }
    for (auto& [registry_id, json] : wanted) {
        auto found = stored.find(registry_id);
        if (found != stored.end() && found->second == json) {
            continue;
        }
        FundListItem item{registry_id, std::move(json)};
        if (found == stored.end()) {
            db.persist(item);
        } else {
            db.update(item);
        }
        ++written;
    }
    return written;
}

}  // namespace lastro::funds
