#include "core/catalog/docs_page.hpp"

#include <array>

// The vendored files, embedded by the assembler (.incbin) rather than through a generated
// source of byte literals: the build reads them as they are. LASTRO_SWAGGER_UI_DIR is set by
// core/CMakeLists.txt, which also makes this file depend on them.
// clang-format off
#define LASTRO_EMBED(symbol, file)                                         \
    asm(".section .rodata\n"                                               \
        ".global " #symbol "\n"                                            \
        ".global " #symbol "_end\n"                                        \
        ".balign 16\n"                                                     \
        #symbol ":\n"                                                      \
        ".incbin \"" LASTRO_SWAGGER_UI_DIR "/" file "\"\n"                 \
        #symbol "_end:\n"                                                  \
        ".previous\n");                                                    \
    extern "C" const char symbol[];                                        \
    extern "C" const char symbol##_end[];
// clang-format on

LASTRO_EMBED(lastro_swagger_ui_bundle_js, "swagger-ui-bundle.js")
LASTRO_EMBED(lastro_swagger_ui_css, "swagger-ui.css")

namespace lastro::catalog {
namespace {

// Relative URLs, so that the page also works behind a proxy that serves the API under a prefix.
constexpr std::string_view kPage = R"html(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Lastro API</title>
<link rel="stylesheet" href="docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/init.js"></script>
</body>
</html>
)html";

// validatorUrl: null, or Swagger UI would send the document to its public validator.
constexpr std::string_view kInit = R"js(window.ui = SwaggerUIBundle({
  url: "openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  displayOperationId: true,
  docExpansion: "list",
  defaultModelsExpandDepth: -1,
  validatorUrl: null
});
)js";

std::string_view Embedded(const char* begin, const char* end) {
    return std::string_view(begin, static_cast<std::size_t>(end - begin));
}

const std::array<DocsFile, 4>& Files() {
    static const std::array<DocsFile, 4> files{{
        {"/docs", "text/html; charset=utf-8", kPage},
        {"/docs/init.js", "text/javascript; charset=utf-8", kInit},
        {"/docs/swagger-ui-bundle.js", "text/javascript; charset=utf-8",
         Embedded(lastro_swagger_ui_bundle_js, lastro_swagger_ui_bundle_js_end)},
        {"/docs/swagger-ui.css", "text/css; charset=utf-8",
         Embedded(lastro_swagger_ui_css, lastro_swagger_ui_css_end)},
    }};
    return files;
}

}  // namespace

const DocsFile* FindDocsFile(std::string_view path) {
    for (const DocsFile& f : Files()) {
        if (f.path == path) {
            return &f;
        }
    }
    return nullptr;
}

}  // namespace lastro::catalog
