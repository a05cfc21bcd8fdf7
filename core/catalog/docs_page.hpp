// GET /docs: a page that renders /openapi.json with Swagger UI, whose files (vendor/
// swagger-ui-dist, pinned from npm) are built into lastrod, so the page needs nothing from
// another host at run time.
#pragma once

#include <string_view>

namespace lastro::catalog {

struct DocsFile {
    std::string_view path;  // request path, e.g. "/docs"
    std::string_view content_type;
    std::string_view body;
};

// The page or one of its files at `path`; null for any other path.
const DocsFile* FindDocsFile(std::string_view path);

// What the page's responses may load: only this server (and inline styles, which Swagger UI
// sets on its elements).
inline constexpr const char* kDocsContentSecurityPolicy =
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'";

}  // namespace lastro::catalog
