#pragma once

#include <string_view>

// The fixed parts of the `explain --format html` page: its stylesheet and
// its script. They are inlined into the page (no network, no other file);
// the script reads the data FormatHtml embeds as JSON in
// <script type="application/json" id="data">.
namespace tjr::explain {

/// The CSS, with one class per layer kind ("k-runtime", "k-runtimePatch",
/// ...) named by LayerKindName.
std::string_view PageStyle();

/// The JavaScript: renders the objects' lines, the legend, the chain panel
/// (#chain), the search box (#search) and the input-file view (#source).
std::string_view PageScript();

}  // namespace tjr::explain
