// The parameterized fixture of the end-to-end suite. Each fixture class (CRTP) keeps one
// Deployment per backend, created by the first test that needs it and shared by the rest of
// its test suite (SetUpTestSuite cannot see the parameter, hence the lazy creation); its
// TearDownTestSuite stops them. A fixture with a static ExtraPluginDirs() loads the plugins of
// those manifest directories too. Instantiate every fixture twice, so that each backend is its
// own test suite and only one backend's servers run at a time:
//
//   INSTANTIATE_TEST_SUITE_P(Sqlite, MyTest, ::testing::Values(Backend::kSqlite), BackendParamName);
//   INSTANTIATE_TEST_SUITE_P(Postgres, MyTest, ::testing::Values(Backend::kPostgres), BackendParamName);
#pragma once

#include "support/deployment.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace lastro::e2e {

inline std::string BackendParamName(const ::testing::TestParamInfo<Backend>& info) {
    return BackendName(info.param);
}

template <typename Fixture>
class BackendTest : public ::testing::TestWithParam<Backend> {
public:
    static void TearDownTestSuite() {
        deployments_.clear();
        failures_.clear();
    }

protected:
    void SetUp() override {
        const Backend backend = GetParam();
        if (auto failed = failures_.find(backend); failed != failures_.end()) {
            FAIL() << failed->second;
        }
        auto& slot = deployments_[backend];
        if (!slot) {
            try {
                std::vector<std::filesystem::path> extra_plugin_dirs;
                if constexpr (requires { Fixture::ExtraPluginDirs(); }) {
                    extra_plugin_dirs = Fixture::ExtraPluginDirs();
                }
                slot = std::make_unique<Deployment>(backend, Fixture::kLabel, std::filesystem::path(),
                                                    extra_plugin_dirs);
            } catch (const std::exception& e) {
                failures_[backend] =
                    std::string("the ") + BackendName(backend) + " deployment failed: " + e.what();
                FAIL() << failures_[backend];
            }
        }
        deployment_ = slot.get();
    }

    Deployment& D() { return *deployment_; }

private:
    inline static std::map<Backend, std::unique_ptr<Deployment>> deployments_;
    inline static std::map<Backend, std::string> failures_;
    Deployment* deployment_ = nullptr;
};

}  // namespace lastro::e2e
