// The parameterized fixture of end-to-end tests. Each fixture class (CRTP) names its deployment
// and the plugins it loads:
//
//   class MyTest : public BackendTest<MyTest> {
//   public:
//       static constexpr const char* kLabel = "my";
//       static DeploymentOptions Options() { return {.plugin_dirs = {MY_PLUGIN_DIR}}; }
//   };
//
// and keeps one Deployment per backend, created by the first test that needs it and shared by
// the rest of its test suite (SetUpTestSuite cannot see the parameter, hence the lazy creation);
// its TearDownTestSuite stops them. Instantiate every fixture twice, so that each backend is its
// own test suite and only one backend's servers run at a time:
//
//   INSTANTIATE_TEST_SUITE_P(Sqlite, MyTest, ::testing::Values(Backend::kSqlite), BackendParamName);
//   INSTANTIATE_TEST_SUITE_P(Postgres, MyTest, ::testing::Values(Backend::kPostgres), BackendParamName);
#pragma once

#include <lastro/sdk/testing/deployment.hpp>

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

namespace lastro::sdk::testing {

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
                slot = std::make_unique<Deployment>(backend, Fixture::kLabel, Fixture::Options());
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

}  // namespace lastro::sdk::testing
