// The ingester of the test plugins that ingest nothing real: it counts its inputs as rows read.
// In an unnamed namespace: each plugin keeps a copy of its own, as it did when each wrote it.
#pragma once

#include <lastro/sdk/plugin.hpp>

namespace lastro::test_plugins {
namespace {

class CountingIngester : public lastro::sdk::Ingester {
public:
    lastro::sdk::IngestSummary Run(const lastro::sdk::IngestContext& context) override {
        lastro::sdk::IngestSummary summary;
        summary.rows_read = context.inputs.size();
        return summary;
    }
};

}  // namespace
}  // namespace lastro::test_plugins
