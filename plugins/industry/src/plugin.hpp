// The industry plugin's class (manifest.yaml): registered handlers, ingester, derivation and
// sample writer, one to one with the manifest.
#pragma once

#include <lastro/sdk/plugin.hpp>

namespace lastro::industry {

class IndustryPlugin : public sdk::Plugin {
public:
    void Register(sdk::Registrar& registrar) override;
};

}  // namespace lastro::industry
