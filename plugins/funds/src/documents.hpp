// funds.class_documents — GET /v1/classes/{class_id}/documentos: the official documents
// (eventual_fi) filed under the class's CNPJ and its fund's CNPJ, newest first, paged by offset
// (contract 2.7, 4.4; docs/api/documents.md).
#pragma once

#include <lastro/sdk/plugin.hpp>

namespace lastro::funds {

sdk::Result HandleClassDocuments(const sdk::RequestContext& context);

}  // namespace lastro::funds
