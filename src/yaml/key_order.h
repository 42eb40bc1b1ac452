#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace tjr::yaml::detail {

/// goyaml v2's keyList.Less for two string keys: compared rune by rune,
/// letters after non-letters, runs of digits by numeric value.
///
/// It is not transitive ("1" < "01" < "0a" < "1"); goyaml sorts Go's
/// randomly ordered map keys with it, so kubectl itself prints such key sets
/// in varying orders. SortKeys is deterministic for them.
bool GoyamlKeyLess(std::string_view a, std::string_view b);

/// Sorts `order` (indices into `keys`) with GoyamlKeyLess; a merge sort,
/// well-defined even where the comparison is not a strict weak order.
void SortKeys(const std::vector<std::string_view>& keys, std::vector<std::size_t>* order,
              std::vector<std::size_t>* scratch);

}  // namespace tjr::yaml::detail
