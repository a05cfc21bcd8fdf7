// The suite's global Environment: whatever happened, at the end it stops the PostgreSQL
// cluster and deletes the temporary files (SharedResources::Release).
#include "support/deployment.hpp"

#include <gtest/gtest.h>

namespace lastro::e2e {
namespace {

class E2eEnvironment : public ::testing::Environment {
public:
    void TearDown() override { SharedResources::Get().Release(); }
};

[[maybe_unused]] ::testing::Environment* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new E2eEnvironment);

}  // namespace
}  // namespace lastro::e2e
