// The funds plugin: the CVM fund registry (FIDC universe search, resolve, classes).
#pragma once

#include <lastro/sdk/plugin.hpp>

namespace lastro::funds {

class FundsPlugin : public sdk::Plugin {
public:
    // One handler per manifest operation, one ingester per manifest dataset.
    void Register(sdk::Registrar& registrar) override;
};

}  // namespace lastro::funds
