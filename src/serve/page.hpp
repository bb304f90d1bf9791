#pragma once
// The map page of `gpdp serve` (GET /): one self-contained HTML file (src/serve/page/index.html,
// no CDN, no build toolchain) compiled into the binary by CMake.
#include <string_view>

namespace gpdp::serve {

std::string_view index_html();

}  // namespace gpdp::serve
