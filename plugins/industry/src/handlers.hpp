// The two operations of the manifest: GET /v1/industria and GET /v1/industria/gestoras/ranking.
#pragma once

#include <lastro/sdk/plugin.hpp>

namespace lastro::industry {

sdk::Result HandleIndicators(const sdk::RequestContext& context);
sdk::Result HandleManagerRanking(const sdk::RequestContext& context);

}  // namespace lastro::industry
