#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tjr::docdiff {

/// A line-based unified diff of `before` and `after` in the layout of
/// `diff -u` (`---`/`+++` headers, `@@ -l,n +l,n @@` hunks, `context` lines
/// around each change, "\ No newline at end of file" markers). Returns an
/// empty string when the texts are equal.
///
/// The edit script comes from Myers' O(ND) algorithm, so it is minimal;
/// when the texts differ in more than `max_edit_distance` lines the changed
/// middle is shown as one block removed and added instead.
std::string UnifiedDiff(std::string_view before, std::string_view after,
                        std::string_view before_label, std::string_view after_label,
                        std::size_t context = 3, std::size_t max_edit_distance = 4000);

}  // namespace tjr::docdiff
