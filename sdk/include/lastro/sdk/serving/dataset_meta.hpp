// The meta every response built from datasets carries (contract 2.2): `sources` and the
// `data_release` and `as_of` of the data it shows.
//
//   sdk::Result result;
//   result.meta = sdk::DatasetMeta(context.host, {"cvm.cda_fi", "cvm.registro_fundo_classe"});
#pragma once

#include <lastro/sdk/plugin.hpp>
#include <lastro/sdk/result.hpp>

#include <boost/config.hpp>

#include <initializer_list>
#include <string_view>

namespace lastro::sdk {

// `datasets` are ids as the manifest declares them ("provider.dataset"), the one the response
// shows first: one source per dataset, in order ({"cvm", "cda_fi"}), and the data_release and
// as_of of the first dataset's latest release, read through `host` inside the handler's
// transaction (both null until it is ingested). Throws std::invalid_argument for an id without
// a provider, or an empty list.
BOOST_SYMBOL_VISIBLE Meta DatasetMeta(const Host& host, std::initializer_list<std::string_view> datasets);

}  // namespace lastro::sdk
